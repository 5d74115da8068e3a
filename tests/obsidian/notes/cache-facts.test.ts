import { factsFromCache, frontmatterDetail } from "../../../src/obsidian/notes/cache-facts";
import { factsFromText } from "../../../src/vault/notes/note-facts";
import { parseNoteForCache } from "../harness/metadata-parser";
import { libraryYamlCodec } from "../../../src/vault/folder/yaml-library-codec";

const NOTE =
	'---\ntitle: Plan\nrelated: "[[Other]]"\ntags: [work]\n---\n# Plan\nSee [[Target#Part|alias]] and ![[pic.png]] #idea\n- item ^item1\n\nPara ^para1\n';

describe("frontmatterDetail", () => {
	it("reads the frontmatter's key lines, property links and tags from the text, up to the cache's end line", () => {
		const detail = frontmatterDetail(NOTE, parseNoteForCache(NOTE), libraryYamlCodec);
		expect(detail?.fact.keyLines).toEqual({ title: 1, related: 2, tags: 3 });
		expect(detail?.fact.endLine).toBe(4);
		expect(detail?.links.map((link) => [link.linkpath, link.line])).toEqual([["Other", 2]]);
		expect(detail?.tags).toEqual([{ tag: "work", line: 3 }]);
	});

	it("answers undefined for a note without frontmatter", () => {
		expect(frontmatterDetail("# Only\n", parseNoteForCache("# Only\n"), libraryYamlCodec)).toBeUndefined();
	});
});

describe("factsFromCache", () => {
	it("gives the same headings, links, tags and block ids as the shared reader of the text", () => {
		const cache = parseNoteForCache(NOTE);
		const fromCache = factsFromCache("Plan.md", cache, frontmatterDetail(NOTE, cache, libraryYamlCodec));
		const fromText = factsFromText("Plan.md", NOTE, libraryYamlCodec);
		expect(fromCache.headings).toEqual(fromText.headings);
		expect(
			fromCache.links.map(({ line, start, end, original, linkpath, subpath, embed }) => ({
				line,
				start,
				end,
				original,
				linkpath,
				subpath,
				embed,
			})),
		).toEqual(
			fromText.links.map(({ line, start, end, original, linkpath, subpath, embed }) => ({
				line,
				start,
				end,
				original,
				linkpath,
				subpath,
				embed,
			})),
		);
		expect(fromCache.tags).toEqual(fromText.tags);
		expect(fromCache.blockIds.map((block) => block.id)).toEqual(["item1", "para1"]);
	});

	it("takes the properties from Obsidian's own reading, without its position", () => {
		const cache = parseNoteForCache(NOTE);
		const facts = factsFromCache(
			"Plan.md",
			{ ...cache, frontmatter: { title: "From Obsidian", position: cache.frontmatterPosition } },
			frontmatterDetail(NOTE, cache, libraryYamlCodec),
		);
		expect(facts.frontmatter?.properties).toEqual({ title: "From Obsidian" });
	});

	it("places block ids on their line as the shared reader does, and keeps code sections as code ranges (the diagnostics' one model)", () => {
		const text = "Para ^one\n\n- item ^two\n\n```\n[[InCode]]\n```\n";
		const cache = parseNoteForCache(text);
		const fromCache = factsFromCache("N.md", cache, undefined);
		expect(fromCache.blockIds).toEqual(factsFromText("N.md", text, libraryYamlCodec).blockIds);
		expect(fromCache.codeRanges?.map((range) => [range.start.line, range.end.line])).toEqual([[4, 6]]);
	});

	it("leaves out URLs and links with neither a path nor a subpath", () => {
		const at = (col: number, length: number) => ({
			start: { line: 0, col, offset: col },
			end: { line: 0, col: col + length, offset: col + length },
		});
		const cache = {
			links: [
				{
					link: "https://example.com",
					original: "[site](https://example.com)",
					displayText: "site",
					position: at(0, 27),
				},
				{ link: "#", original: "[[#]]", displayText: "", position: at(28, 5) },
				{ link: "Real", original: "[[Real]]", displayText: "Real", position: at(34, 8) },
			],
		};
		expect(factsFromCache("N.md", cache, undefined).links.map((link) => link.linkpath)).toEqual(["Real"]);
	});

	it("has no frontmatter fact without the detail", () => {
		expect(factsFromCache("N.md", parseNoteForCache("# N\n"), undefined).frontmatter).toBeUndefined();
	});
});
