import type { VaultLocation } from "../../src/vault/vault-paths";
import type { WorkspacePort } from "../../src/ide/workspace/workspace-port";

/** One editor host under test: the port, over a vault holding the given notes. */
export interface WorkspacePortFixture {
	port: WorkspacePort;
	location: (relative: string) => VaultLocation;
	dispose: () => Promise<void>;
}

export type WorkspacePortFactory = (notes: Record<string, string>) => Promise<WorkspacePortFixture>;

const notes = { "A.md": "one\ntwo\n", "B.md": "beta\n", "Folder/C.md": "gamma" };

/**
 * What every WorkspacePort means, whatever the host: the same cases run against the headless host's memory of
 * an editor and against Obsidian's workspace (through the fake), so both halves answer the IDE tools alike.
 */
export function workspacePortContract(name: string, factory: WorkspacePortFactory): void {
	describe(`WorkspacePort contract: ${name}`, () => {
		let fixture: WorkspacePortFixture | undefined;
		const open = async (): Promise<WorkspacePortFixture> => {
			fixture = await factory(notes);
			return fixture;
		};
		afterEach(async () => {
			await fixture?.dispose();
			fixture = undefined;
		});

		it("lists nothing and has no selection before any note is open", async () => {
			const { port } = await open();
			expect(port.openEditors()).toEqual([]);
			expect(port.currentSelection()).toBeUndefined();
		});

		it("a note opened in front is the active editor, with its line count (counted as the openFile tool counts: a final line break adds none), and the selection's note", async () => {
			const { port, location } = await open();
			await port.openNote(location("A.md"), { preview: false, makeFrontmost: true });
			expect(port.openEditors()).toEqual([{ location: location("A.md"), isActive: true, lineCount: 2 }]);
			expect(port.currentSelection()).toMatchObject({
				filePath: location("A.md").absolute,
				text: "",
				selection: { isEmpty: true },
			});
		});

		it("a note opened in the background is listed but not active, and the active note keeps the selection", async () => {
			const { port, location } = await open();
			await port.openNote(location("A.md"), { preview: false, makeFrontmost: true });
			await port.openNote(location("Folder/C.md"), { preview: false, makeFrontmost: false });
			const editors = port.openEditors();
			expect(editors.map((editor) => [editor.location.relative, editor.isActive])).toEqual([
				["A.md", true],
				["Folder/C.md", false],
			]);
			expect(port.currentSelection()?.filePath).toBe(location("A.md").absolute);
		});

		it("a note opened with a range selects that range", async () => {
			const { port, location } = await open();
			await port.openNote(location("A.md"), {
				preview: false,
				makeFrontmost: true,
				selection: { start: { line: 1, character: 0 }, end: { line: 1, character: 3 } },
			});
			expect(port.currentSelection()).toMatchObject({
				filePath: location("A.md").absolute,
				text: "two",
				selection: { start: { line: 1, character: 0 }, end: { line: 1, character: 3 }, isEmpty: false },
			});
		});

		it("a note opened twice is listed once, and switching back makes it active again", async () => {
			const { port, location } = await open();
			await port.openNote(location("A.md"), { preview: false, makeFrontmost: true });
			await port.openNote(location("B.md"), { preview: false, makeFrontmost: true });
			await port.openNote(location("A.md"), { preview: false, makeFrontmost: true });
			const editors = port.openEditors();
			expect(editors.filter((editor) => editor.location.relative === "A.md")).toHaveLength(1);
			expect(editors.filter((editor) => editor.isActive).map((editor) => editor.location.relative)).toEqual([
				"A.md",
			]);
		});

		it("answers dirty and save for open notes only: a note just opened has nothing unsaved", async () => {
			const { port, location } = await open();
			await expect(port.isDirty(location("A.md"))).resolves.toBeUndefined();
			await expect(port.save(location("A.md"))).resolves.toBe(false);
			await port.openNote(location("A.md"), { preview: false, makeFrontmost: true });
			await expect(port.isDirty(location("A.md"))).resolves.toBe(false);
			await expect(port.save(location("A.md"))).resolves.toBe(true);
		});

		it("refuses a note that does not exist, in front or in the background, and lists nothing for it", async () => {
			const { port, location } = await open();
			await expect(
				port.openNote(location("Missing.md"), { preview: false, makeFrontmost: true }),
			).rejects.toThrow(/Missing\.md/);
			await port.openNote(location("A.md"), { preview: false, makeFrontmost: true });
			await expect(
				port.openNote(location("Missing.md"), { preview: false, makeFrontmost: false }),
			).rejects.toThrow(/Missing\.md/);
			expect(port.openEditors().map((editor) => editor.location.relative)).toEqual(["A.md"]);
		});
	});
}
