import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NoteTagCache } from "../../src/headless/note-tag-cache";
import { makeTempDir } from "../helpers/temp-dir";

const temp = makeTempDir("note-tag-cache");
afterAll(() => temp.remove());

describe("NoteTagCache", () => {
	it("reads a note's tags, frontmatter and body", () => {
		const path = join(temp.path, "a.md");
		writeFileSync(path, "---\ntags: [work]\n---\n#idea\n");
		expect(new NoteTagCache().of(path)).toEqual(["work", "idea"]);
	});

	it("keeps the answer while size and times are unchanged, and reads again when they change", () => {
		const path = join(temp.path, "b.md");
		writeFileSync(path, "#one\n");
		const cache = new NoteTagCache();
		const first = cache.of(path);
		expect(first).toEqual(["one"]);
		expect(cache.of(path)).toBe(first);
		writeFileSync(path, "#two and #three\n");
		expect(cache.of(path)).toEqual(["two", "three"]);
	});

	it("reads again when the text changed but size and mtime were restored (ctime moved)", () => {
		const path = join(temp.path, "c.md");
		writeFileSync(path, "#aaa\n");
		const cache = new NoteTagCache();
		expect(cache.of(path)).toEqual(["aaa"]);
		const when = new Date("2020-01-01T00:00:00Z");
		utimesSync(path, when, when);
		const restored = cache.of(path);
		writeFileSync(path, "#bbb\n");
		utimesSync(path, when, when);
		expect(cache.of(path)).not.toBe(restored);
		expect(cache.of(path)).toEqual(["bbb"]);
	});

	it("answers no tags for a missing or unreadable note", () => {
		const cache = new NoteTagCache();
		expect(cache.of(join(temp.path, "missing.md"))).toEqual([]);
		expect(cache.of(temp.path)).toEqual([]);
	});
});
