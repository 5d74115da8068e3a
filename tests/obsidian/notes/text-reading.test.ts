import type { CachedMetadata } from "obsidian";
import { TextReading } from "../../../src/obsidian/notes/text-reading";
import { obsidianYamlCodec } from "../../../src/obsidian/notes/obsidian-yaml-codec";
import { checkFrontmatter } from "../../../src/vault/markdown/frontmatter-check";
import * as tags from "../../../src/vault/markdown/note-tags";
import { splitLines } from "../../../src/shared/text-lines";

const cache = (endLine?: number): CachedMetadata =>
	(endLine === undefined
		? {}
		: {
				frontmatterPosition: {
					start: { line: 0, col: 0, offset: 0 },
					end: { line: endLine, col: 3, offset: 0 },
				},
			}) as CachedMetadata;

const reading = (text: string, endLine?: number): TextReading => {
	const head = endLine === undefined ? undefined : text.split("\n", endLine + 1).join("\n");
	return new TextReading(cache(endLine), head, text, obsidianYamlCodec);
};

describe("TextReading", () => {
	it("reads the text once, when first asked: tags and the frontmatter's problem", () => {
		const read = jest.spyOn(tags, "noteTags");
		try {
			const note = reading("---\ntags: [work]\n---\nBody #private and more.\n", 2);
			expect(read).not.toHaveBeenCalled();
			expect(note.tags).toEqual(["work", "private"]);
			expect(note.problem).toBeNull();
			note.read();
			expect(note.tags).toEqual(["work", "private"]);
			expect(read).toHaveBeenCalledTimes(1);
		} finally {
			read.mockRestore();
		}
	});

	it("finds the same frontmatter problem as a check over every line, with \\n or \\r\\n line ends", () => {
		const texts = [
			"---\ntitle: [unclosed\n---\nBody\n```\nfence\n```\n",
			"---\r\ntitle: [unclosed\r\n---\r\nBody\r\n",
			"---\n- a list\n- not a map\n---\nBody\n",
			"---\ntitle: never closed\nBody\n",
			"\uFEFF---\ntitle: [x\n---\n",
			"No frontmatter\n---\nkey: [x\n---\n",
		];
		for (const text of texts)
			expect(reading(text).problem).toEqual(checkFrontmatter(splitLines(text), obsidianYamlCodec.parse) ?? null);
		expect(reading(texts[0] ?? "").problem).not.toBeNull();
	});

	it("makes the frontmatter's detail from its lines when first asked; none without frontmatter", () => {
		const note = reading('---\nrelated: "[[Other note]]"\n---\nBody\n', 2);
		const detail = note.detail();
		expect(detail?.links.map((link) => link.linkpath)).toEqual(["Other note"]);
		expect(note.detail()).toBe(detail);
		expect(reading("Body only\n").detail()).toBeUndefined();
	});
});
