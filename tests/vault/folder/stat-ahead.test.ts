import { mkdirSync, rmSync, utimesSync, writeFileSync, lstatSync } from "node:fs";
import { join, sep } from "node:path";
import { SavedFolderIndex, type SavedNote } from "../../../src/vault/folder/saved-folder-index";
import { StatAhead, type SavedStamps } from "../../../src/vault/folder/stat-ahead";
import type { Stamp } from "../../../src/vault/folder/stamp";
import { makeTempDir } from "../../helpers/temp-dir";
import { waitUntil } from "../../helpers/wait-until";

const temps: { remove: () => void }[] = [];
afterAll(() => temps.forEach((temp) => temp.remove()));

function tempDir(name: string): string {
	const temp = makeTempDir(name);
	temps.push(temp);
	return temp.path;
}

function stampOf(path: string): Stamp {
	const stats = lstatSync(path);
	return { mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, size: stats.size, ino: stats.ino };
}

/** The paths and stamps of a saved index holding these notes, as a later session hands them to the worker. */
function savedStamps(root: string, notes: { path: string; stamp: Stamp }[]): SavedStamps {
	const file = join(tempDir("stat-ahead-saved"), "index.json");
	const saved = new SavedFolderIndex({ file, vault: root, version: "test" });
	saved.save(notes.map((note): SavedNote => ({ ...note, linkpaths: [], tags: [] })));
	const stamps = saved.load()?.savedStamps();
	if (!stamps) throw new Error("no saved stamps");
	return stamps;
}

/** Every row's call, in row order: whether the worker found its file as saved. */
/** A checker over `notes` saved with the stamps their files have now. */
function aheadAsOnDisk(root: string, notes: { path: string }[]): StatAhead {
	return new StatAhead(
		savedStamps(
			root,
			notes.map((note) => ({ ...note, stamp: stampOf(join(root, note.path)) })),
		),
		`${root}${sep}`,
	);
}

function verdicts(ahead: StatAhead): boolean[] {
	const found: boolean[][] = Array.from({ length: ahead.rows }, () => []);
	ahead.check((row, same) => found[row]?.push(same));
	expect(found.every((calls) => calls.length === 1)).toBe(true);
	return found.map((calls) => calls[0] === true);
}

describe("StatAhead", () => {
	it("finds each saved row's file as saved or not: another time of the same size, no file, a folder", async () => {
		const root = tempDir("stat-ahead");
		const notes: { path: string; stamp: Stamp }[] = [];
		for (let at = 0; at < 1200; at++) {
			const path = `f${at % 7}/note ${String(at).padStart(4, "0")}.md`;
			mkdirSync(join(root, `f${at % 7}`), { recursive: true });
			writeFileSync(join(root, path), "x".repeat(at % 50));
			notes.push({ path, stamp: stampOf(join(root, path)) });
		}
		notes.sort((a, b) => (a.path < b.path ? -1 : 1));
		// The same size, another modification time; gone; a folder where a note was saved.
		const changed = notes[10]?.path ?? "";
		const gone = notes[20]?.path ?? "";
		utimesSync(join(root, changed), new Date(2001, 1, 1), new Date(2001, 1, 1));
		rmSync(join(root, gone));
		notes.push({ path: "f9", stamp: { mtimeMs: 1, ctimeMs: 1, size: 1, ino: 1 } });
		mkdirSync(join(root, "f9"));
		notes.sort((a, b) => (a.path < b.path ? -1 : 1));
		const ahead = new StatAhead(savedStamps(root, notes), `${root}${sep}`);
		ahead.go();
		await waitUntil(() => ahead.finished, "the worker done");
		const same = verdicts(ahead);
		const rowOf = (path: string): number => notes.findIndex((note) => note.path === path);
		expect(same.filter((verdict) => !verdict)).toHaveLength(3);
		expect([changed, gone, "f9"].map((path) => same[rowOf(path)])).toEqual([false, false, false]);
	});

	it("stats nothing before it is told every folder is watched", async () => {
		const root = tempDir("stat-ahead-go");
		const notes = Array.from({ length: 300 }, (_, at) => ({ path: `note ${String(at).padStart(3, "0")}.md` }));
		for (const note of notes) writeFileSync(join(root, note.path), note.path);
		const ahead = aheadAsOnDisk(root, notes);
		// Long enough for the worker to start and parse 300 paths.
		await new Promise((resolve) => setTimeout(resolve, 500));
		expect(ahead.done).toBe(0);
		ahead.go();
		await waitUntil(() => ahead.finished, "the worker done");
		expect(verdicts(ahead).every((same) => same)).toBe(true);
	});

	it("stats before go only the rows directly in the folders it is told are watched", async () => {
		const root = tempDir("stat-ahead-watched");
		const notes: { path: string }[] = [];
		for (const folder of ["a", "a/b", "c"]) {
			mkdirSync(join(root, folder), { recursive: true });
			for (let at = 0; at < 100; at++) notes.push({ path: `${folder}/note ${String(at).padStart(3, "0")}.md` });
		}
		notes.push({ path: "top.md" });
		for (const note of notes) writeFileSync(join(root, note.path), note.path);
		notes.sort((a, b) => (a.path < b.path ? -1 : 1));
		const ahead = aheadAsOnDisk(root, notes);
		ahead.watched("");
		ahead.watched("a");
		await waitUntil(() => ahead.early >= 101, "the top's and a's rows statted");
		// Long enough for a worker that stats more to do so; then notes in folders not told of change.
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(ahead.early).toBe(101);
		expect(ahead.done).toBe(0);
		const changed = ["a/b/note 005.md", "c/note 007.md"];
		for (const path of changed) writeFileSync(join(root, path), "changed since");
		ahead.go();
		await waitUntil(() => ahead.finished, "the worker done");
		const same = verdicts(ahead);
		expect(notes.filter((_, row) => !same[row]).map((note) => note.path)).toEqual(changed);
	});

	it("never stats a saved path that leaves the vault, even one whose file there is as saved", async () => {
		const outside = tempDir("stat-ahead-outside");
		const root = join(outside, "vault");
		mkdirSync(join(root, "a"), { recursive: true });
		writeFileSync(join(outside, "secret.md"), "secret");
		writeFileSync(join(root, "a", "note.md"), "note");
		const secret = stampOf(join(outside, "secret.md"));
		const ahead = new StatAhead(
			savedStamps(root, [
				{ path: "../secret.md", stamp: secret },
				{ path: "a/../../secret.md", stamp: secret },
				{ path: "a/note.md", stamp: stampOf(join(root, "a", "note.md")) },
			]),
			`${root}${sep}`,
		);
		ahead.go();
		await waitUntil(() => ahead.finished, "the worker done");
		// Rows in path order: the saved file sorts them.
		expect(verdicts(ahead)).toEqual([false, false, true]);
	});

	it("leaves the rows it has not statted to the checker", () => {
		const root = tempDir("stat-ahead-checker");
		const notes = Array.from({ length: 2000 }, (_, at) => ({ path: `note ${String(at).padStart(4, "0")}.md` }));
		for (const note of notes) writeFileSync(join(root, note.path), note.path);
		const ahead = aheadAsOnDisk(root, notes);
		ahead.go();
		let own = 0;
		let same = 0;
		ahead.check((_row, found) => (found ? same++ : own++));
		// However the two threads shared the rows, every row had its call, and none the worker did differed.
		expect(own + same).toBe(notes.length);
	});

	it("leaves every row to the checker when the saved stamps are not the paths' (an edited file)", async () => {
		const root = tempDir("stat-ahead-edited");
		writeFileSync(join(root, "a.md"), "a");
		writeFileSync(join(root, "b.md"), "b");
		const saved = savedStamps(root, [
			{ path: "a.md", stamp: stampOf(join(root, "a.md")) },
			{ path: "b.md", stamp: stampOf(join(root, "b.md")) },
		]);
		// One path more than the stamps hold.
		const text = Buffer.from(saved.bytes).toString("utf8");
		const edited = text.replace('["a.md","b.md"]', '["a.md","b.md","c.md"]');
		const bytes = new Uint8Array(new SharedArrayBuffer(Buffer.byteLength(edited)));
		bytes.set(Buffer.from(edited));
		const shift = Buffer.byteLength(edited) - saved.bytes.length;
		const ahead = new StatAhead(
			{
				bytes,
				paths: { start: saved.paths.start, end: saved.paths.end + shift },
				numbers: { start: saved.numbers.start + shift, end: saved.numbers.end + shift },
				rows: saved.rows,
			},
			`${root}${sep}`,
		);
		ahead.go();
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(verdicts(ahead)).toEqual([false, false]);
	});
});
