import type { App as RealApp } from "obsidian";
import { VaultPaths } from "../../../src/vault/vault-paths";
import { ObsidianWorkspace } from "../../../src/obsidian/editor/obsidian-workspace";
import type { App } from "../../__mocks__/obsidian";
import {
	allLeaves,
	buildWorkspace as build,
	closeWorkspace,
	markdownViewOf,
	settle,
	type WorkspaceSpec,
} from "../harness/workspace-builder";

const paths = new VaultPaths("/vault");
const at = (relative: string) => ({ relative, absolute: paths.toAbsolute(relative) });

function adapter(app: App): ObsidianWorkspace {
	return new ObsidianWorkspace(app as unknown as RealApp, paths);
}

const opened: App[] = [];
async function buildWorkspace(spec: WorkspaceSpec) {
	const built = await build(spec);
	opened.push(built.app);
	return built;
}
afterEach(async () => {
	for (const app of opened.splice(0)) await closeWorkspace(app);
});

const notes = { "A.md": "alpha\n", "B.md": "beta\nline 2\n", "C.md": "gamma\n", "Folder/D.md": "delta\n" };

describe("ObsidianWorkspace with tabs restored after a restart (deferred views, Obsidian 1.7.2+)", () => {
	async function restored() {
		return buildWorkspace({
			notes,
			tabs: [{ path: "A.md" }, { path: "B.md", deferred: true }, { path: "Folder/D.md", deferred: true }],
		});
	}

	it("lists background tabs that were never shown since the restart", async () => {
		const { app, leaves } = await restored();
		expect(leaves[1]?.isDeferred).toBe(true);
		expect(adapter(app).openEditors()).toEqual([
			{ location: at("A.md"), isActive: true, lineCount: 1 },
			{ location: at("B.md"), isActive: false },
			{ location: at("Folder/D.md"), isActive: false },
		]);
	});

	it("opening a note that sits in a deferred tab reuses that tab and loads it", async () => {
		const { app, leaves } = await restored();
		await adapter(app).openNote(at("B.md"), { preview: false, makeFrontmost: true });
		await settle(app);
		expect(allLeaves(app)).toHaveLength(3);
		const leaf = leaves[1];
		if (!leaf) throw new Error("no leaf");
		expect(leaf.isDeferred).toBe(false);
		expect(markdownViewOf(leaf).file?.path).toBe("B.md");
		expect(app.workspace.activeLeaf).toBe(leaf);
	});

	it("answers checkDocumentDirty and saveDocument for a deferred tab (nothing unsaved in it)", async () => {
		const { app } = await restored();
		const workspace = adapter(app);
		await expect(workspace.isDirty(at("B.md"))).resolves.toBe(false);
		await expect(workspace.save(at("Folder/D.md"))).resolves.toBe(true);
		await expect(workspace.isDirty(at("C.md"))).resolves.toBeUndefined();
		await expect(workspace.save(at("C.md"))).resolves.toBe(false);
	});
});

describe("ObsidianWorkspace and line endings", () => {
	it("a CRLF note the user has not edited is not dirty; typing makes it dirty until saved", async () => {
		const { app, leaves } = await buildWorkspace({
			notes: { "Win.md": "one\r\ntwo\r\n" },
			tabs: [{ path: "Win.md" }],
		});
		const workspace = adapter(app);
		await expect(workspace.isDirty(at("Win.md"))).resolves.toBe(false);
		const leaf = leaves[0];
		if (!leaf) throw new Error("no leaf");
		markdownViewOf(leaf).type("one\ntwo\nthree\n");
		await expect(workspace.isDirty(at("Win.md"))).resolves.toBe(true);
		await expect(workspace.save(at("Win.md"))).resolves.toBe(true);
		await expect(workspace.isDirty(at("Win.md"))).resolves.toBe(false);
		expect(app.vault.contents.get("Win.md")).toBe("one\ntwo\nthree\n");
	});
});

describe("ObsidianWorkspace opening notes", () => {
	it("opens a note in a new tab in the background without taking the focus", async () => {
		const { app, leaves } = await buildWorkspace({ notes, tabs: [{ path: "A.md" }] });
		await adapter(app).openNote(at("C.md"), { preview: false, makeFrontmost: false });
		await settle(app);
		expect(allLeaves(app).map((leaf) => leaf.getViewState().state?.file)).toEqual(["A.md", "C.md"]);
		expect(app.workspace.activeLeaf).toBe(leaves[0]);
	});

	it("opens a note in front, and a note already open is revealed rather than opened twice", async () => {
		const { app } = await buildWorkspace({ notes, tabs: [{ path: "A.md" }, { path: "B.md" }] });
		const workspace = adapter(app);
		await workspace.openNote(at("B.md"), { preview: false, makeFrontmost: true });
		await workspace.openNote(at("C.md"), { preview: false, makeFrontmost: true });
		await settle(app);
		expect(allLeaves(app)).toHaveLength(3);
		expect(
			workspace
				.openEditors()
				.filter((editor) => editor.isActive)
				.map((editor) => editor.location.relative),
		).toEqual(["C.md"]);
	});

	it("a preview open reuses the active tab", async () => {
		const { app } = await buildWorkspace({ notes, tabs: [{ path: "A.md" }] });
		await adapter(app).openNote(at("C.md"), { preview: true, makeFrontmost: true });
		expect(allLeaves(app).map((leaf) => leaf.getViewState().state?.file)).toEqual(["C.md"]);
	});

	it("refuses a note that is not in the vault, and opens no tab", async () => {
		const { app } = await buildWorkspace({ notes, tabs: [{ path: "A.md" }] });
		await expect(adapter(app).openNote(at("Nope.md"), { preview: false, makeFrontmost: true })).rejects.toThrow(
			"Note not found in the vault: Nope.md",
		);
		expect(allLeaves(app)).toHaveLength(1);
	});

	it("finds notes by their normalised vault path (normalizePath)", async () => {
		const { app } = await buildWorkspace({ notes, tabs: [{ path: "Folder/D.md" }] });
		const workspace = adapter(app);
		const unnormalised = { relative: "Folder//D.md", absolute: "/vault/Folder/D.md" };
		await expect(workspace.isDirty(unnormalised)).resolves.toBe(false);
		await workspace.openNote(unnormalised, { preview: false, makeFrontmost: true });
		expect(allLeaves(app)).toHaveLength(1);
	});
});
