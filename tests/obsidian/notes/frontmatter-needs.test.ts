import { needsFrontmatterText } from "../../../src/obsidian/notes/frontmatter-needs";
import { linkFactsFromText } from "../../../src/vault/notes/note-facts";
import { parseNoteForCache } from "../harness/metadata-parser";

const note = (frontmatter: string): string => `---\n${frontmatter}\n---\n# Body [[Not a property link]]\n`;

describe("needsFrontmatterText", () => {
	it("for links: wherever the text's reader finds a link in the frontmatter, and in few notes else", () => {
		const withLinks = [
			'related: "[[A]]"',
			"related: [[A]]",
			'up:\n  - "[[A|a]]"',
			'"[[A]]": a key',
			'nested:\n  deeper: "see [[A]]"',
			'related: "[[A]]', // does not parse
		];
		for (const frontmatter of withLinks) {
			const text = note(frontmatter);
			expect(linkFactsFromText(text).some((link) => link.line <= frontmatter.split("\n").length)).toBe(true);
			expect(needsFrontmatterText("links", parseNoteForCache(text))).toBe(true);
		}
		// A Markdown link, which Obsidian does not read in a property, is read all the same (the store's test is `](`).
		expect(needsFrontmatterText("links", parseNoteForCache(note('source: "[a](A.md)"')))).toBe(true);
		for (const frontmatter of ["status: open", "tags: [a, b]\ncount: 3", "list: [a, b]"])
			expect(needsFrontmatterText("links", parseNoteForCache(note(frontmatter)))).toBe(false);
		expect(needsFrontmatterText("links", parseNoteForCache("# No frontmatter [[A]]\n"))).toBe(false);
	});

	it("for tags: a tags or tag key in any case, or a frontmatter that does not parse", () => {
		expect(needsFrontmatterText("tags", parseNoteForCache(note("Tags: a")))).toBe(true);
		expect(needsFrontmatterText("tags", parseNoteForCache(note("tag: [a]")))).toBe(true);
		expect(needsFrontmatterText("tags", parseNoteForCache(note("tags: [a")))).toBe(true);
		expect(needsFrontmatterText("tags", parseNoteForCache(note('status: "#a"')))).toBe(false);
	});

	it("every note's frontmatter for every note, none for none", () => {
		const cache = parseNoteForCache(note("status: open"));
		expect(needsFrontmatterText("every note", cache)).toBe(true);
		expect(needsFrontmatterText("none", parseNoteForCache(note('related: "[[A]]"')))).toBe(false);
		expect(needsFrontmatterText("every note", parseNoteForCache("# none\n"))).toBe(false);
	});
});

describe("the fake cache's frontmatterLinks (obsidian.d.ts, since 1.4.0)", () => {
	it("holds the wikilinks of the properties' string values, a list's items by index", () => {
		expect(
			parseNoteForCache(note('related: "[[A]]"\nup:\n  - "x"\n  - "[[B|b]]"\nsource: "[c](C.md)"'))
				.frontmatterLinks,
		).toEqual([
			{ key: "related", link: "A", original: "[[A]]" },
			{ key: "up.1", link: "B", original: "[[B|b]]", displayText: "b" },
		]);
		expect(parseNoteForCache(note("status: open")).frontmatterLinks).toBeUndefined();
	});
});
