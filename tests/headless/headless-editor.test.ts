import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Notifier } from "../../src/ide/notifier";
import type { SelectionSnapshot } from "../../src/ide/workspace/selection";
import { VaultPaths } from "../../src/vault/vault-paths";
import { FolderVault } from "../../src/vault/folder/folder-vault";
import type { FolderFiles } from "../../src/vault/folder/folder-files";
import { HeadlessEditor } from "../../src/headless/headless-editor";
import { makeTempDir } from "../helpers/temp-dir";
import { privacyByPath } from "../helpers/path-privacy";

describe("HeadlessEditor keeps the active note's text while the note is unchanged on disk", () => {
	let temp: ReturnType<typeof makeTempDir>;
	let vault: FolderFiles;
	let editor: HeadlessEditor;
	let reads: string[];
	let sent: SelectionSnapshot[];
	const note = () => join(temp.path, "Note.md");
	const start = { line: 0, character: 0 };
	const end = { line: 0, character: 5 };
	/** Writes the note and dates it an hour back, as a note that was not just edited. */
	const writeOld = (text: string, secondsAgo = 3600): void => {
		writeFileSync(note(), text);
		const when = new Date(Date.now() - secondsAgo * 1000);
		utimesSync(note(), when, when);
	};

	beforeEach(() => {
		temp = makeTempDir("editor");
		const paths = new VaultPaths(temp.path);
		vault = new FolderVault({ root: paths.root, watch: false }).files;
		reads = [];
		const readText = vault.readText.bind(vault);
		vault.readText = (relativePath: string) => {
			reads.push(relativePath);
			return readText(relativePath);
		};
		sent = [];
		const notifier = new Notifier({
			broadcast: (_method, params) => sent.push(params as SelectionSnapshot),
			notifyClient: () => undefined,
			hasClients: () => true,
			currentSelection: () => undefined,
			privacy: privacyByPath(() => false),
			debounceMs: 1000,
			welcomeDelayMs: 0,
			maxQueuedMentions: 1,
			queuedMentionTtlMs: 1000,
			queuedMentionSpacingMs: 1,
		});
		editor = new HeadlessEditor(paths, vault, () => notifier);
	});
	afterEach(() => temp?.remove());

	it("does not read the note again for each selection while it is unchanged", () => {
		writeOld("alpha beta\n");
		editor.open("Note.md");
		editor.select("Note.md", start, end);
		editor.select("Note.md", { line: 0, character: 6 }, { line: 0, character: 10 });
		expect(sent.map((snapshot) => snapshot.text)).toEqual(["", "alpha", "beta"]);
		expect(reads.length).toBe(1);
	});

	it("reads it again once it changed on disk, even at the same size", () => {
		writeOld("alpha beta\n");
		editor.select("Note.md", start, end);
		writeOld("gamma beta\n", 1800);
		expect(editor.select("Note.md", start, end).text).toBe("gamma");
	});

	it("does not trust a note modified in the last seconds (its timestamp may not show a second edit)", () => {
		writeFileSync(note(), "alpha beta\n");
		const stamp = new Date();
		utimesSync(note(), stamp, stamp);
		editor.select("Note.md", start, end);
		writeFileSync(note(), "delta beta\n");
		utimesSync(note(), stamp, stamp);
		expect(editor.select("Note.md", start, end).text).toBe("delta");
	});
});
