import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { PrivacyRules } from "../../../src/vault/privacy/privacy";
import { VaultPrivacy } from "../../../src/vault/privacy/vault-privacy";
import { privateWorkspace } from "../../../src/ide/workspace/private-workspace";
import { cursorSnapshot, selectionSnapshot, type SelectionSnapshot } from "../../../src/ide/workspace/selection";
import { RefusedPathError, type VaultFileBytes } from "../../../src/vault/notes/vault-files";
import { VaultPaths, type VaultLocation } from "../../../src/vault/vault-paths";
import type { OpenEditor, OpenNoteOptions, WorkspacePort } from "../../../src/ide/workspace/workspace-port";
import { makeTempDir } from "../../helpers/temp-dir";
import { FolderVault } from "../../../src/vault/folder/folder-vault";
import { MemoryDiagnosticsNotes } from "../notes/memory-diagnostics-notes";

/** Obsidian lets users rename the config folder; any dot-folder is hidden the same way. */
const CONFIG = ".vault-config";

describe("VaultPrivacy", () => {
	const temp = makeTempDir("boundary");
	const vault = join(temp.path, "vault");
	let paths: VaultPaths;
	let rules: PrivacyRules;
	const tags = new Map<string, string[]>();
	let boundary: VaultPrivacy;
	const abs = (relative: string): string => join(vault, ...relative.split("/"));
	const at = (relative: string): VaultLocation => paths.resolve(relative);

	beforeAll(() => {
		for (const folder of ["Private", "Public", "Notes", `${CONFIG}/plugins/p`])
			mkdirSync(join(vault, folder), { recursive: true });
		writeFileSync(abs("Private/diary.md"), "dear diary\n");
		writeFileSync(abs("Public/open.md"), "open\n");
		writeFileSync(abs("Notes/tagged.md"), "#secret\n");
		writeFileSync(abs(`${CONFIG}/plugins/p/data.json`), '{"apiKey":"k"}');
		symlinkSync(abs("Private/diary.md"), abs("Public/alias.md"));
		symlinkSync(abs("Private"), abs("Public/folder-alias"));
		symlinkSync(abs(`${CONFIG}/plugins/p/data.json`), abs("Notes/config.json"));
		paths = new VaultPaths(vault);
	});
	afterAll(() => temp.remove());
	beforeEach(() => {
		rules = { folders: ["Private"], tags: ["#secret"] };
		tags.clear();
		tags.set("Notes/tagged.md", ["#secret"]);
		boundary = new VaultPrivacy({ paths, rules: () => rules, tagsOf: (path) => tags.get(path) ?? [] });
	});

	describe("hidesPath (paths from the wire and the editor)", () => {
		it("applies the rules to absolute paths, file URIs and vault-relative paths alike", () => {
			for (const path of [
				"Private/diary.md",
				abs("Private/diary.md"),
				pathToFileURL(abs("Private/diary.md")).href,
				"Notes/tagged.md",
				abs("Notes/tagged.md"),
			]) {
				expect([path, boundary.hidesPath(path)]).toEqual([path, true]);
			}
			for (const path of ["Public/open.md", abs("Public/open.md"), pathToFileURL(abs("Public/open.md")).href]) {
				expect([path, boundary.hidesPath(path)]).toEqual([path, false]);
			}
		});

		it("counts a folder tag (trailing slash) and hidden folders as private", () => {
			expect(boundary.hidesPath(`${abs("Private")}/`)).toBe(true);
			expect(boundary.hidesPath(`${abs(CONFIG)}/`)).toBe(true);
			expect(boundary.hidesPath(abs(`${CONFIG}/plugins/p/data.json`))).toBe(true);
			expect(boundary.hidesPath(`${abs("Public")}/`)).toBe(false);
		});

		it("judges a symbolic link by its target too", () => {
			expect(boundary.hidesPath(abs("Public/alias.md"))).toBe(true);
			expect(boundary.hidesPath(abs("Public/folder-alias/diary.md"))).toBe(true);
			expect(boundary.hidesPath(abs("Notes/config.json"))).toBe(true);
			rules = { folders: [], tags: [] };
			expect(boundary.hidesPath(abs("Public/alias.md"))).toBe(false);
		});

		it("counts everything outside the vault, and paths that are not paths, as private", () => {
			for (const path of ["/etc/passwd", join(vault, "..", "elsewhere.md"), "", "a\0b", "../x.md"])
				expect([path, boundary.hidesPath(path)]).toEqual([path, true]);
		});

		it("reads the rules on every call, so a settings change applies at once", () => {
			expect(boundary.hidesPath("Public/open.md")).toBe(false);
			rules = { folders: ["Public"], tags: [] };
			expect(boundary.hidesPath("Public/open.md")).toBe(true);
		});
	});

	describe("hidesFolder (folders the panel may list)", () => {
		it("hides private and hidden folders, folders outside the vault, and a link to a private folder; tags do not apply", () => {
			for (const path of ["Private", abs("Private"), CONFIG, "Public/folder-alias", "..", "/etc"])
				expect([path, boundary.hidesFolder(path)]).toEqual([path, true]);
			for (const path of ["Public", "Notes", abs("Notes")])
				expect([path, boundary.hidesFolder(path)]).toEqual([path, false]);
		});
	});

	describe("selection", () => {
		it("answers no selection while the note is private, and the snapshot itself otherwise", () => {
			let current: SelectionSnapshot | undefined = selectionSnapshot(
				abs("Private/diary.md"),
				"dear",
				{ line: 0, character: 0 },
				{ line: 0, character: 4 },
			);
			const visible = boundary.selection(() => current);
			expect(visible()).toBeUndefined();
			current = cursorSnapshot(abs("Public/open.md"));
			expect(visible()).toBe(current);
			current = undefined;
			expect(visible()).toBeUndefined();
		});

		it("hides a selection made before its note became private (the latest selection)", () => {
			const latest = selectionSnapshot(
				abs("Public/open.md"),
				"open",
				{ line: 0, character: 0 },
				{ line: 0, character: 4 },
			);
			const visible = boundary.selection(() => latest);
			expect(visible()).toBe(latest);
			rules = { folders: ["Public"], tags: [] };
			expect(visible()).toBeUndefined();
		});

		it("judges a selection by the path it names, whatever else the snapshot carries", () => {
			// A snapshot is the wire's open shape: a field beside the path (here a public note's location) is no verdict.
			const snapshot: SelectionSnapshot = {
				...cursorSnapshot(abs("Private/diary.md")),
				location: at("Public/open.md"),
			};
			expect(boundary.selection(() => snapshot)()).toBeUndefined();
		});
	});

	describe("textReader (openFile)", () => {
		it("answers 'no such note' for a private note without reading it, and reads public ones", async () => {
			const reads: string[] = [];
			const read = boundary.textReader((path) => {
				reads.push(path);
				return Promise.resolve("text");
			});
			expect(await read(abs("Private/diary.md"))).toBeUndefined();
			expect(await read(abs("Public/alias.md"))).toBeUndefined();
			expect(await read(abs("Public/open.md"))).toBe("text");
			expect(reads).toEqual([abs("Public/open.md")]);
		});
	});

	describe("workspace", () => {
		class RecordingWorkspace implements WorkspacePort {
			readonly headlessNote = "a note from the port";
			readonly calls: string[] = [];
			current: SelectionSnapshot | undefined;
			currentSelection(): SelectionSnapshot | undefined {
				return this.current;
			}
			openNote(target: VaultLocation, _options: OpenNoteOptions): Promise<void> {
				this.calls.push(`open ${target.relative}`);
				return Promise.resolve();
			}
			openEditors(): OpenEditor[] {
				return [
					"Private/diary.md",
					"Public/open.md",
					"Notes/tagged.md",
					`${CONFIG}/plugins/p/data.json`,
					"Public/alias.md",
				].map((path, index) => ({ location: at(path), isActive: index === 0 }));
			}
			isDirty(target: VaultLocation): Promise<boolean | undefined> {
				this.calls.push(`dirty ${target.relative}`);
				return Promise.resolve(true);
			}
			save(target: VaultLocation): Promise<boolean> {
				this.calls.push(`save ${target.relative}`);
				return Promise.resolve(true);
			}
		}
		const options: OpenNoteOptions = { preview: false, makeFrontmost: true };

		it("lists only public open notes and keeps the port's headless note", () => {
			const workspace = privateWorkspace(new RecordingWorkspace(), boundary);
			expect(workspace.openEditors().map((editor) => editor.location.relative)).toEqual(["Public/open.md"]);
			expect(workspace.headlessNote).toBe("a note from the port");
		});

		it("answers for a private note as for one that is not open, without asking the port", async () => {
			const port = new RecordingWorkspace();
			const workspace = privateWorkspace(port, boundary);
			for (const path of [
				"Private/diary.md",
				"Notes/tagged.md",
				`${CONFIG}/plugins/p/data.json`,
				"Public/alias.md",
			]) {
				expect(await workspace.isDirty(at(path))).toBeUndefined();
				expect(await workspace.save(at(path))).toBe(false);
				await expect(workspace.openNote(at(path), options)).rejects.toThrow(RefusedPathError);
			}
			expect(port.calls).toEqual([]);
			expect(await workspace.isDirty(at("Public/open.md"))).toBe(true);
			expect(await workspace.save(at("Public/open.md"))).toBe(true);
			await workspace.openNote(at("Public/open.md"), options);
			expect(port.calls).toEqual(["dirty Public/open.md", "save Public/open.md", "open Public/open.md"]);
		});

		it("has no current selection while a private note is active", () => {
			const port = new RecordingWorkspace();
			const workspace = privateWorkspace(port, boundary);
			port.current = selectionSnapshot(
				abs("Notes/tagged.md"),
				"#secret",
				{ line: 0, character: 0 },
				{ line: 0, character: 7 },
			);
			expect(workspace.currentSelection()).toBeUndefined();
			port.current = cursorSnapshot(abs("Public/open.md"));
			expect(workspace.currentSelection()).toBe(port.current);
		});
	});

	describe("files", () => {
		const port = (): VaultFileBytes & { reads: string[] } => {
			const reads: string[] = [];
			return {
				reads,
				list: () =>
					[
						"Private/diary.md",
						"Public/open.md",
						"Notes/tagged.md",
						`${CONFIG}/plugins/p/data.json`,
						"Private",
					].map((path) => ({ path, size: 1 })),
				stat: (path) => {
					reads.push(`stat ${path}`);
					return Promise.resolve({ size: 1 });
				},
				readBytes: (path) => {
					reads.push(`read ${path}`);
					return Promise.resolve(new Uint8Array([1]));
				},
			};
		};

		it("lists only public files", async () => {
			expect((await boundary.files(port()).list()).map((entry) => entry.path)).toEqual(["Public/open.md"]);
		});

		it("answers private and hidden files as missing ones: stat asks the port (same work) and drops the answer; bytes are never read", async () => {
			const inner = port();
			const files = boundary.files(inner);
			const hidden = [
				"Private/diary.md",
				"Notes/tagged.md",
				"Public/alias.md",
				"Public/folder-alias/diary.md",
				`${CONFIG}/plugins/p/data.json`,
				"Notes/config.json",
			];
			for (const path of hidden) {
				expect(await files.stat(path)).toBeUndefined();
				await expect(files.readBytes(path)).rejects.toThrow(new RefusedPathError(`Not found: ${path}`));
			}
			expect(inner.reads).toEqual(hidden.map((path) => `stat ${path}`));
			expect(await files.stat("Public/open.md")).toEqual({ size: 1 });
			expect(await files.readBytes("Public/open.md")).toEqual(new Uint8Array([1]));
		});
	});

	describe("notes (diagnostics)", () => {
		it("never checks a link into a private note: one that leads only to one, or lexically in a private or hidden folder (issue 11, finding 6)", () => {
			const notes = boundary.notes(
				new MemoryDiagnosticsNotes({
					"Private/diary.md": "# Day\n",
					"Notes/tagged.md": "#secret",
					"Public/open.md": "",
				}),
			);
			// The target a link leads to among public notes, as the rule asks.
			const hidden = (linkpath: string, target?: string, source = "Public/open.md"): boolean =>
				notes.isHiddenLinkTarget?.(linkpath, source, target) ?? false;
			expect(hidden("diary")).toBe(true);
			expect(hidden("tagged")).toBe(true);
			for (const linkpath of [
				"Private/ghost",
				"/Private/ghost",
				"../Private/ghost",
				"./../Private/ghost",
				`${CONFIG}/ghost`,
				"Private",
			])
				expect(hidden(linkpath)).toBe(true);
			expect(hidden("ghost", undefined, "Private/inside.md")).toBe(true);
			for (const linkpath of ["ghost", "Public/ghost", "../../Private/ghost", "Private notes/ghost"])
				expect(hidden(linkpath)).toBe(false);
			expect(hidden("open", "Public/open.md")).toBe(false);
		});

		it("hides private notes: not listed, no metadata, not refreshed; links resolve as if they were not there (issue 14)", async () => {
			const source = new MemoryDiagnosticsNotes({
				"Private/diary.md": "# Day\n",
				"Public/open.md": "[[diary#Day]]",
				"Notes/tagged.md": "#secret",
			});
			const refreshed: string[] = [];
			const refreshNote = source.refreshNote.bind(source);
			source.refreshNote = (path?: string) => {
				refreshed.push(path ?? "");
				return refreshNote();
			};
			const notes = boundary.notes(source);
			expect([...notes.notePaths()]).toEqual(["Public/open.md"]);
			expect(notes.facts("Private/diary.md")).toBeUndefined();
			expect(notes.facts("Notes/tagged.md")).toBeUndefined();
			expect(notes.facts("Public/open.md")?.links.map((link) => link.linkpath)).toEqual(["diary"]);
			await notes.refreshNote("Private/diary.md");
			await notes.refreshNote("Public/open.md");
			expect(refreshed).toEqual(["Public/open.md"]);
			expect(notes.resolveLink("diary", "Public/open.md")).toBeUndefined();
			source.write("Public/Deeper/diary.md", "# Public day\n");
			expect(notes.resolveLink("diary", "Public/open.md")).toBe("Public/Deeper/diary.md");
			expect(notes.structureVersion).toBe(source.structureVersion);
		});
	});
});

describe("VaultPrivacy's vault tools over the folder adapter", () => {
	it("never serve a note's text that was tagged private after the call's privacy decision (before the watcher tells)", async () => {
		const temp = makeTempDir("privacy-after-read");
		const folder = new FolderVault({ root: temp.path, watch: false });
		try {
			writeFileSync(join(temp.path, "Note.md"), "public for now\n");
			// Enough other notes to push Note.md out of the store's few recent texts, so the next read goes to disk.
			for (let index = 0; index < 10; index++) writeFileSync(join(temp.path, `Other ${index}.md`), "other\n");
			const privacy = new VaultPrivacy({
				paths: new VaultPaths(temp.path),
				rules: () => ({ folders: [], tags: ["#private"] }),
				tagsOf: (path) => folder.tagsOf(path),
			});
			const visible = privacy.visibleVault(folder.index);
			await visible.refresh();
			expect(visible.notePaths()).toContain("Note.md");
			for (let index = 0; index < 10; index++) await visible.readText(`Other ${index}.md`);
			// Tagged private within the same call, after the list of visible notes was made from its old tags.
			writeFileSync(join(temp.path, "Note.md"), "now #private and secret\n");
			expect(await visible.readText("Note.md")).toBeUndefined();
			expect(await visible.textNow("Note.md")).toBeUndefined();
		} finally {
			folder.dispose();
			temp.remove();
		}
	});
});
