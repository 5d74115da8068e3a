import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DiagnosticsEngine } from "../../../src/bridge/diagnostics/diagnostics-engine";
import { FileSystemNoteSource } from "../../../src/bridge/diagnostics/filesystem-note-source";
import { parseYaml } from "../../../src/headless/yaml-parser";
import { makeTempDir } from "../../helpers/temp-dir";

let temp: { path: string; remove: () => void };
let source: FileSystemNoteSource | undefined;

beforeEach(() => {
	temp = makeTempDir("diagnostics-fs");
});

afterEach(() => {
	source?.dispose();
	source = undefined;
	temp.remove();
});

function write(path: string, text: string): void {
	const absolute = join(temp.path, path);
	mkdirSync(join(absolute, ".."), { recursive: true });
	writeFileSync(absolute, text);
}

function open(watch: boolean) {
	source = new FileSystemNoteSource({ root: temp.path, parseYaml, watch });
	return { source, engine: new DiagnosticsEngine(source) };
}

async function brokenPaths(engine: DiagnosticsEngine): Promise<string[]> {
	return (await engine.forVault()).map((note) => note.path);
}

/** Lets the file watcher's events arrive. */
function settle(): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, 150));
}

describe.each([false, true])("FileSystemNoteSource (watch: %s)", (watch) => {
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
		if (watch) await settle();
		expect(await brokenPaths(engine)).toEqual(["Home.md"]);
		write("New/Later.md", "");
		if (watch) await settle();
		expect(await brokenPaths(engine)).toEqual([]);
		renameSync(join(temp.path, "New"), join(temp.path, "Moved"));
		rmSync(join(temp.path, "Target.md"));
		if (watch) await settle();
		const [home] = await engine.forVault();
		expect(home?.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([expect.stringContaining('"Target"')]);
		rmSync(join(temp.path, "Moved"), { recursive: true });
		if (watch) await settle();
		expect((await engine.forVault())[0]?.diagnostics).toHaveLength(2);
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
