import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { DiagnosticsEngine } from "../../../src/ide/diagnostics/diagnostics-engine";
import { FolderDiagnosticsNotes } from "../../../src/vault/folder/folder-diagnostics-notes";
import { libraryYamlCodec } from "../../../src/vault/folder/yaml-library-codec";
import { makeTempDir } from "../../helpers/temp-dir";
import { waitUntil } from "../../helpers/wait-until";

let temp: { path: string; remove: () => void };
let source: FolderDiagnosticsNotes | undefined;

beforeEach(() => {
	temp = makeTempDir("diagnostics-fs");
});

afterEach(() => {
	source?.dispose();
	source = undefined;
	temp?.remove();
});

function write(path: string, text: string): void {
	const absolute = join(temp.path, path);
	mkdirSync(join(absolute, ".."), { recursive: true });
	writeFileSync(absolute, text);
}

function open(watch: boolean) {
	source = new FolderDiagnosticsNotes({ root: temp.path, watch }, libraryYamlCodec);
	return { source, engine: new DiagnosticsEngine(source) };
}

async function brokenPaths(engine: DiagnosticsEngine): Promise<string[]> {
	return (await engine.forVault()).map((note) => note.path);
}

/** The watcher reports changes a moment after they happen: asks until the answer is the expected one, then asserts it. */
async function expectEventually<T>(answer: () => Promise<T>, expected: T): Promise<void> {
	await waitUntil(
		async () => isDeepStrictEqual(await answer(), expected),
		() => `the answer to become ${JSON.stringify(expected)}`,
	).catch(() => undefined);
	expect(await answer()).toEqual(expected);
}

describe.each([false, true])("FolderDiagnosticsNotes (watch: %s)", (watch) => {
	it("lists notes, resolves links across folders and skips hidden folders", async () => {
		write("Home.md", "[[Deep]] [[Hidden]] ![[a.png]]");
		write("Folder/Sub/Deep.md", "");
		write("assets/a.png", "");
		write(".hidden/Hidden.md", "[[Nope]]");
		const { source: notes, engine } = open(watch);
		expect(await brokenPaths(engine)).toEqual(["Home.md"]);
		expect((await engine.forNote("Home.md")).map((diagnostic) => diagnostic.range.start.character)).toEqual([9]);
		expect([...notes.notePaths()].sort()).toEqual(["Folder/Sub/Deep.md", "Home.md"]);
	});

	it("follows edits, new files, deletions and renamed folders", async () => {
		write("Home.md", "[[Target]]");
		write("Target.md", "");
		const { engine } = open(watch);
		expect(await brokenPaths(engine)).toEqual([]);
		write("Home.md", "[[Target]] [[Later]] and a longer line");
		await expectEventually(() => brokenPaths(engine), ["Home.md"]);
		write("New/Later.md", "");
		await expectEventually(() => brokenPaths(engine), []);
		renameSync(join(temp.path, "New"), join(temp.path, "Moved"));
		rmSync(join(temp.path, "Target.md"));
		const messages = async (): Promise<string[]> =>
			(await engine.forVault())[0]?.diagnostics.map((diagnostic) => diagnostic.message) ?? [];
		await waitUntil(async () => (await messages()).length === 1, "one problem left in Home.md").catch(
			() => undefined,
		);
		expect(await messages()).toEqual([expect.stringContaining('"Target"')]);
		rmSync(join(temp.path, "Moved"), { recursive: true });
		await expectEventually(async () => (await messages()).length, 2);
	});

	it("sees a note written just before a per-note call, without waiting for events", async () => {
		write("Home.md", "");
		const { engine } = open(watch);
		expect(await engine.forNote("Home.md")).toEqual([]);
		write("Home.md", "now [[Broken]]");
		expect(await engine.forNote("Home.md")).toHaveLength(1);
		write("Fresh.md", "[[Broken]]");
		expect(await engine.forNote("Fresh.md")).toHaveLength(1);
	});
});

describe("paths through a symbolic link (issue 11, finding 2)", () => {
	it.each([true, false])(
		"are never indexed, whether asked for or reported by the watcher (watching: %s)",
		async (watching) => {
			write("Secret/diary.md", "[[broken-in-diary]]\n");
			write("Secret/Sub/deeper.md", "[[broken-deeper]]\n");
			write("Public/open.md", "[[broken-in-public]]\n");
			symlinkSync(join(temp.path, "Secret"), join(temp.path, "pub"), "dir");
			const { source: notes, engine } = open(watching);
			await notes.refreshNote("pub/diary.md");
			await notes.refreshNote("pub/Sub");
			await notes.refreshNote("pub/Sub/deeper.md");
			expect([...notes.notePaths()].sort()).toEqual([
				"Public/open.md",
				"Secret/Sub/deeper.md",
				"Secret/diary.md",
			]);
			expect(await engine.forNote("pub/diary.md")).toEqual([]);
			expect((await brokenPaths(engine)).sort()).toEqual([
				"Public/open.md",
				"Secret/Sub/deeper.md",
				"Secret/diary.md",
			]);
		},
	);
});

describe("a folder replaced by a symbolic link after it was listed (issue 11, finding 2)", () => {
	it("is no longer trusted when the folder is listed again: notes through it are not indexed", async () => {
		write("Secret/diary.md", "[[broken-in-diary]]\n");
		write("pub/old.md", "[[broken-in-old]]\n");
		const { source: notes } = open(false);
		notes.warmUp();
		rmSync(join(temp.path, "pub"), { recursive: true });
		symlinkSync(join(temp.path, "Secret"), join(temp.path, "pub"), "dir");
		await notes.refreshNote("pub/diary.md");
		expect([...notes.notePaths()].sort()).toEqual(["Secret/diary.md"]);
	});
});
