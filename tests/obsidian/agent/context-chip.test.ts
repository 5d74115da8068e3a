import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ContextChip } from "../../../src/obsidian/agent/context-chip";
import { ObsidianPanelVault, type VaultImageChoice } from "../../../src/obsidian/agent/panel-vault";
import { FakeElement, type App } from "../../__mocks__/obsidian";
import { BrowserWindows } from "../harness/cm6-dom";
import { createIndexedApp } from "../harness/indexed-app";
import { VaultPrivacy } from "../../../src/vault/privacy/vault-privacy";
import { VaultPaths } from "../../../src/vault/vault-paths";
import { makeTempDir } from "../../helpers/temp-dir";

async function chipOver(): Promise<{
	app: App;
	chip: ContextChip;
	parent: FakeElement;
	openNote: (path: string) => Promise<void>;
}> {
	const app = await createIndexedApp({ "Notes/Plan.md": "# Plan\n", "Private/Diary.md": "# Diary\n" });
	app.workspace.finishLayout();
	const vault = new ObsidianPanelVault(app as never, () => ({
		hidesPath: (path) => path.startsWith("Private/"),
		hidesFolder: (path) => path.startsWith("Private"),
	}));
	const parent = new FakeElement();
	const chip = new ContextChip(parent as unknown as HTMLElement, app as never, vault);
	chip.load();
	const openNote = async (path: string): Promise<void> => {
		const file = app.vault.getFileByPath(path);
		if (!file) throw new Error(path);
		await app.workspace.getLeaf(false).openFile(file, { active: true });
		app.workspace.flushEvents();
	};
	return { app, chip, parent, openNote };
}

describe("ContextChip", () => {
	it("shows the active note, attaches it, and one click removes it until another note is active", async () => {
		const { chip, parent, openNote } = await chipOver();
		const element = parent.findAll("ccb-agent-context")[0];
		expect(element?.hasClass("is-hidden")).toBe(true);
		expect(chip.current()).toBeUndefined();
		await openNote("Notes/Plan.md");
		expect(element?.findAll("ccb-agent-context-label")[0]?.text).toBe("Notes/Plan.md");
		expect(chip.current()).toEqual({ path: "Notes/Plan.md" });
		element?.findAll("ccb-agent-context-remove")[0]?.dispatch("click");
		expect(chip.current()).toBeUndefined();
		expect(element?.hasClass("is-hidden")).toBe(true);
	});

	it("never shows or attaches a link into a private folder, judged by the real boundary by where it leads (issue 26, finding 4)", async () => {
		const temp = makeTempDir("chip-link");
		try {
			const root = join(temp.path, "vault");
			mkdirSync(join(root, "Secret"), { recursive: true });
			mkdirSync(join(root, "Notes"), { recursive: true });
			writeFileSync(join(root, "Secret", "Plan.md"), "# Plan\n");
			symlinkSync(join(root, "Secret", "Plan.md"), join(root, "Notes", "Link.md"));
			const app = await createIndexedApp({ "Notes/Link.md": "# Plan\n" }, root);
			app.workspace.finishLayout();
			const privacy = new VaultPrivacy({
				paths: new VaultPaths(root),
				rules: () => ({ folders: ["Secret"], tags: [] }),
				tagsOf: () => [],
			});
			const parent = new FakeElement();
			const chip = new ContextChip(
				parent as unknown as HTMLElement,
				app as never,
				new ObsidianPanelVault(app as never, () => privacy),
			);
			chip.load();
			const file = app.vault.getFileByPath("Notes/Link.md");
			if (!file) throw new Error("no link note");
			await app.workspace.getLeaf(false).openFile(file, { active: true });
			app.workspace.flushEvents();
			expect(chip.current()).toBeUndefined();
			expect(parent.findAll("ccb-agent-context")[0]?.hasClass("is-hidden")).toBe(true);
		} finally {
			temp.remove();
		}
	});

	it("offers the note's embedded images for the next message (Attach images from this note), each judged", async () => {
		const app = await createIndexedApp({
			"Trips/Coast.md": "# Coast\n![[photo.png]]\n![[Private/face.png]]\n",
			"Trips/photo.png": "png",
			"Private/face.png": "png",
			"Notes/Plan.md": "# Plan\n",
		});
		app.workspace.finishLayout();
		const vault = new ObsidianPanelVault(app as never, () => ({
			hidesPath: (path) => path.startsWith("Private/"),
			hidesFolder: (path) => path.startsWith("Private"),
		}));
		const parent = new FakeElement();
		const attached: VaultImageChoice[][] = [];
		const chip = new ContextChip(parent as unknown as HTMLElement, app as never, vault, (images) =>
			attached.push(images),
		);
		chip.load();
		const open = async (path: string): Promise<void> => {
			const file = app.vault.getFileByPath(path);
			if (file) await app.workspace.getLeaf(false).openFile(file, { active: true });
			app.workspace.flushEvents();
			// As when the user comes to the message box.
			chip.refresh();
		};
		await open("Notes/Plan.md");
		expect(parent.findAll("ccb-agent-context-images")).toEqual([]);
		await open("Trips/Coast.md");
		const button = parent.findAll("ccb-agent-context-images")[0];
		expect(button?.tag).toBe("button");
		expect(button?.text).toBe("Attach its 2 images");
		expect(button?.attributes.get("aria-label")).toBe("Attach images from this note");
		button?.dispatch("click");
		expect(attached).toEqual([
			[
				{ image: expect.objectContaining({ path: "Trips/photo.png", name: "photo.png" }) as unknown },
				{ refused: expect.stringContaining("“face.png” is in a private place") as unknown },
			],
		]);
	});

	it("never shows or attaches a private note", async () => {
		const { chip, parent, openNote } = await chipOver();
		await openNote("Private/Diary.md");
		expect(chip.current()).toBeUndefined();
		expect(parent.findAll("ccb-agent-context-label")).toEqual([]);
		await openNote("Notes/Plan.md");
		expect(chip.current()).toEqual({ path: "Notes/Plan.md" });
	});

	it("keeps the last note while another view (the panel itself) is active", async () => {
		const { app, chip, openNote } = await chipOver();
		await openNote("Notes/Plan.md");
		const other = app.workspace.getLeaf("tab");
		app.workspace.setActiveLeaf(other);
		app.workspace.flushEvents();
		expect(chip.current()).toEqual({ path: "Notes/Plan.md" });
	});

	it("starts a new chip (a tab opened with + while the panel in the sidebar has the focus) with the note of the main area's most recent tab", async () => {
		const { app, openNote } = await chipOver();
		await openNote("Notes/Plan.md");
		const sidebar = app.workspace.createLeafIn(app.workspace.addTabGroup("sidebar"));
		app.workspace.setActiveLeaf(sidebar);
		app.workspace.flushEvents();
		const vault = new ObsidianPanelVault(app as never, () => ({
			hidesPath: () => false,
			hidesFolder: () => false,
		}));
		const fresh = new ContextChip(new FakeElement() as unknown as HTMLElement, app as never, vault);
		fresh.load();
		expect(fresh.current()).toEqual({ path: "Notes/Plan.md" });
	});

	it("attaches the selection's lines with the note (a real CodeMirror editor in jsdom)", async () => {
		const browser = BrowserWindows.install();
		try {
			const { app, chip, parent, openNote } = await chipOver();
			app.vault.writeExternally("Notes/Long.md", "one\ntwo\nthree\nfour\n");
			await openNote("Notes/Long.md");
			const view = app.workspace.activeLeaf?.view as unknown as {
				editor: { setSelection(a: { line: number; ch: number }, b: { line: number; ch: number }): void };
			};
			// The user selects, then clicks into the panel (another view becomes active): the selection still counts.
			view.editor.setSelection({ line: 1, ch: 0 }, { line: 2, ch: 3 });
			app.workspace.setActiveLeaf(app.workspace.getLeaf("tab"));
			app.workspace.flushEvents();
			expect(chip.current()).toEqual({ path: "Notes/Long.md", lines: { from: 2, to: 3 } });
			expect(parent.findAll("ccb-agent-context-label")[0]?.text).toBe("Notes/Long.md (lines 2–3)");
		} finally {
			browser.uninstall();
		}
	});
});
