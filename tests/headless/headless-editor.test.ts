import fs, { mkdirSync, renameSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Notifier } from "../../src/ide/notifier";
import type { SelectionSnapshot } from "../../src/ide/workspace/selection";
import { VaultPaths } from "../../src/vault/vault-paths";
import { FolderVault } from "../../src/vault/folder/folder-vault";
import type { FolderFiles } from "../../src/vault/folder/folder-files";
import { HeadlessEditor } from "../../src/headless/headless-editor";
import type { PrivacyRules } from "../../src/vault/privacy/privacy";
import { VaultPrivacy } from "../../src/vault/privacy/vault-privacy";
import { makeTempDir } from "../helpers/temp-dir";
import { privacyByPath } from "../helpers/path-privacy";
import { waitUntil } from "../helpers/wait-until";

/** Records the path of every note text the editor reads through `files`. */
function recordReads(files: FolderFiles): string[] {
	const reads: string[] = [];
	const readText = files.readText.bind(files);
	files.readText = (relativePath: string) => {
		reads.push(relativePath);
		return readText(relativePath);
	};
	return reads;
}

/** A notifier that sends at once to one client, whose selections land in `sent`. */
function recordingNotifier(
	privacy: ConstructorParameters<typeof Notifier>[0]["privacy"],
	sent: SelectionSnapshot[],
): Notifier {
	return new Notifier({
		broadcast: (_method, params) => sent.push(params as SelectionSnapshot),
		notifyClient: () => undefined,
		hasClients: () => true,
		currentSelection: () => undefined,
		privacy,
		debounceMs: 1000,
		welcomeDelayMs: 0,
		maxQueuedMentions: 1,
		queuedMentionTtlMs: 1000,
		queuedMentionSpacingMs: 1,
	});
}

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
		reads = recordReads(vault);
		sent = [];
		const notifier = recordingNotifier(
			privacyByPath(() => false),
			sent,
		);
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

describe("HeadlessEditor never pushes a note that became private or left the vault after it was selected", () => {
	let temp: ReturnType<typeof makeTempDir>;
	let vaultRoot: string;
	let rules: PrivacyRules;
	let sent: SelectionSnapshot[];
	let editor: HeadlessEditor;
	const plan = () => join(vaultRoot, "Notes", "Plan.md");
	const writeOld = (text: string, secondsAgo = 3600): void => {
		writeFileSync(plan(), text);
		const when = new Date(Date.now() - secondsAgo * 1000);
		utimesSync(plan(), when, when);
	};
	const first = { line: 0, character: 0 };
	const fourth = { line: 0, character: 4 };
	const eighth = { line: 0, character: 8 };

	beforeEach(() => {
		temp = makeTempDir("editor-privacy");
		vaultRoot = join(temp.path, "vault");
		mkdirSync(join(vaultRoot, "Notes"), { recursive: true });
		mkdirSync(join(temp.path, "outside"));
		writeOld("the plan, in words\n");
		rules = { folders: [], tags: ["secret"] };
		const paths = new VaultPaths(vaultRoot);
		const folder = new FolderVault({ root: paths.root, watch: false });
		const privacy = new VaultPrivacy({
			paths,
			rules: () => rules,
			tagsOf: (relativePath) => folder.tagsOf(relativePath, { fresh: true }),
		});
		sent = [];
		const notifier = recordingNotifier(privacy, sent);
		editor = new HeadlessEditor(paths, folder.files, () => notifier);
		editor.select("Notes/Plan.md", first, fourth);
		expect(sent.map((snapshot) => snapshot.text)).toEqual(["", "the "]);
	});
	afterEach(() => temp?.remove());

	it("a folder rule added after the selection: the next selection is not pushed", () => {
		rules.folders.push("Notes");
		editor.select("Notes/Plan.md", first, eighth);
		expect(sent.map((snapshot) => snapshot.text)).toEqual(["", "the "]);
	});

	it("a private tag written into the note after the selection: the next selection is not pushed", () => {
		writeOld("the plan, in words #secret\n", 1800);
		editor.select("Notes/Plan.md", first, eighth);
		expect(sent.map((snapshot) => snapshot.text)).toEqual(["", "the "]);
	});

	it("the note's folder swapped for a symbolic link out of the vault: the selection is refused, nothing is pushed", () => {
		renameSync(join(vaultRoot, "Notes"), join(temp.path, "outside", "Notes"));
		symlinkSync(join(temp.path, "outside", "Notes"), join(vaultRoot, "Notes"), "dir");
		expect(() => editor.select("Notes/Plan.md", first, eighth)).toThrow(
			"Path is outside the vault: Notes/Plan.md (a symbolic link leads out of it)",
		);
		expect(sent.map((snapshot) => snapshot.text)).toEqual(["", "the "]);
	});

	it("the note swapped for a symbolic link to a note in a private folder: the selection is not pushed", () => {
		rules.folders.push("Secret");
		mkdirSync(join(vaultRoot, "Secret"));
		writeFileSync(join(vaultRoot, "Secret", "Key.md"), "the key, in words\n");
		unlinkSync(plan());
		symlinkSync(join(vaultRoot, "Secret", "Key.md"), plan());
		editor.select("Notes/Plan.md", first, eighth);
		expect(sent.map((snapshot) => snapshot.text)).toEqual(["", "the "]);
	});
});

describe("HeadlessEditor with the vault's watcher, as the headless host runs it", () => {
	let temp: ReturnType<typeof makeTempDir>;
	let vaultRoot: string;
	let folder: FolderVault;
	let editor: HeadlessEditor;
	let sent: SelectionSnapshot[];
	let reads: string[];
	let lstats: jest.SpyInstance;
	const plan = () => join(vaultRoot, "Notes", "Plan.md");
	const first = { line: 0, character: 0 };
	const fourth = { line: 0, character: 4 };
	const eighth = { line: 0, character: 8 };
	const writeOld = (path: string, text: string): void => {
		writeFileSync(path, text);
		const when = new Date(Date.now() - 3600_000);
		utimesSync(path, when, when);
	};
	/** Waits until the watcher has reported something since `version`. */
	const reported = (version: number | undefined): Promise<void> =>
		waitUntil(() => folder.files.changeVersion !== version, "the watcher to report the change", {
			timeoutMs: 20_000,
		});

	beforeEach(() => {
		temp = makeTempDir("editor-watched");
		vaultRoot = join(temp.path, "vault");
		mkdirSync(join(vaultRoot, "Notes"), { recursive: true });
		mkdirSync(join(temp.path, "outside"));
		writeOld(plan(), "the plan, in words\n");
		const paths = new VaultPaths(vaultRoot);
		folder = new FolderVault({ root: paths.root, watch: true });
		// The host lists (and so watches) the folder at start.
		folder.store.refresh();
		const files = folder.files;
		reads = recordReads(files);
		sent = [];
		const notifier = recordingNotifier(
			privacyByPath(() => false),
			sent,
		);
		editor = new HeadlessEditor(paths, files, () => notifier);
		lstats = jest.spyOn(fs, "lstatSync");
	});
	afterEach(() => {
		lstats?.mockRestore();
		folder?.dispose();
		temp?.remove();
	});

	it("selects again in the note it checked with no look at the disk while the watcher reports nothing, and looks again once it reports a change anywhere", async () => {
		editor.select("Notes/Plan.md", first, fourth);
		expect(lstats).toHaveBeenCalled();
		lstats.mockClear();
		const stats = jest.spyOn(fs, "statSync");
		try {
			editor.select("Notes/Plan.md", first, eighth);
			editor.select("Notes/Plan.md", first, fourth);
			expect(lstats).not.toHaveBeenCalled();
			expect(stats).not.toHaveBeenCalled();
		} finally {
			stats.mockRestore();
		}
		expect(sent.map((snapshot) => snapshot.text)).toEqual(["", "the ", "the plan", "the "]);
		const version = folder.files.changeVersion;
		writeFileSync(join(vaultRoot, "Other.md"), "another note\n");
		await reported(version);
		editor.select("Notes/Plan.md", first, eighth);
		expect(lstats).toHaveBeenCalled();
		// Looked at, found unchanged: not read again.
		expect(reads).toEqual(["Notes/Plan.md"]);
	});

	it("the note changed on disk: the text is read again once the watcher reports it", async () => {
		editor.select("Notes/Plan.md", first, fourth);
		const version = folder.files.changeVersion;
		writeOld(plan(), "our plan, in words\n");
		await reported(version);
		expect(editor.select("Notes/Plan.md", first, fourth).text).toBe("our ");
	});

	it("the note's folder swapped for a link out of the vault: refused once the watcher reports it; before, only the text already sent is sent again, nothing is read through the link", async () => {
		editor.select("Notes/Plan.md", first, fourth);
		const version = folder.files.changeVersion;
		renameSync(join(vaultRoot, "Notes"), join(temp.path, "outside", "Notes"));
		symlinkSync(join(temp.path, "outside", "Notes"), join(vaultRoot, "Notes"), "dir");
		writeFileSync(join(temp.path, "outside", "Notes", "Plan.md"), "written outside the vault\n");
		// The same turn as the swap: no watcher event can have been read yet.
		editor.select("Notes/Plan.md", first, eighth);
		expect(sent.map((snapshot) => snapshot.text)).toEqual(["", "the ", "the plan"]);
		expect(reads).toEqual(["Notes/Plan.md"]);
		await reported(version);
		expect(() => editor.select("Notes/Plan.md", first, fourth)).toThrow(
			"Path is outside the vault: Notes/Plan.md (a symbolic link leads out of it)",
		);
		expect(sent).toHaveLength(3);
		expect(reads).toEqual(["Notes/Plan.md"]);
	});

	it("a note written in the last seconds is looked at on disk at every selection, as without a watcher", () => {
		writeFileSync(plan(), "the plan, in words\n");
		editor.select("Notes/Plan.md", first, fourth);
		const [looks, read] = [lstats.mock.calls.length, reads.length];
		editor.select("Notes/Plan.md", first, eighth);
		expect(lstats.mock.calls.length).toBeGreaterThan(looks);
		expect(reads.length).toBe(read + 1);
	});
});
