import fc from "fast-check";
import { factsFromText, linkFactsFromText, tagsAndFrontmatterFromText } from "../../../src/vault/notes/note-facts";
import { scanLinks, scanNote } from "../../../src/vault/markdown/markdown-scanner";
import { splitLines } from "../../../src/shared/text-lines";
import { libraryYamlCodec, parseYaml } from "../../../src/vault/folder/yaml-library-codec";

/** Lines that exercise frontmatter, code, comments, headings, links and tags in any order. */
const LINE = fc.constantFrom(
	"---",
	"tags: [a, private]",
	"Tags: b",
	'"\\x74ags": [escaped]',
	"tag: #c",
	'related: "[[Other]]"',
	"title: x: y",
	"a: 1",
	"a: 2",
	"- item",
	"# Heading",
	"Heading",
	"===",
	"```",
	"~~~",
	"`[[in code]]` and [[Real]]",
	"%% [[commented]] #hidden %%",
	"<!-- [[html comment]]",
	"-->",
	"[md](Some%20Note.md#Part) ![[Embed.png]]",
	"[[Note#Head|alias]] #tag/nested #2024",
	"text ^block-id",
	"\\[[escaped]]",
	"",
	"\r",
);

const notes = fc.array(LINE, { maxLength: 14 }).map((lines) => lines.join("\n"));

/**
 * Notes without a fence, a comment or a `\r` (most notes): the parts then read only the lines holding a `#` or a
 * `[`, so these lines put such characters where the whole-line scan would treat them otherwise (code spans,
 * escapes, headings, frontmatter values, a fence with trailing spaces, lines at the very start and end).
 */
const PLAIN_LINE = fc.constantFrom(
	"---",
	"--- ",
	"tags: [a, private]",
	'tag: "#c"',
	'related: "[[Other]]"',
	"title: [x",
	"- item",
	"# Heading #notatag",
	"`#code` #real `[[in code]]` and [[Real]]",
	"\\#escaped \\[[escaped]] [md](Some%20Note.md#Part)",
	"[[Note#Head|alias]] #tag/nested #2024 ![[Embed.png]]",
	"#start [[A]][[B]]",
	"text ^block-id",
	"plain prose",
	"",
);

const plainNotes = fc.array(PLAIN_LINE, { maxLength: 14 }).map((lines) => lines.join("\n"));

describe("the parts of a note's facts", () => {
	it("linkFactsFromText gives exactly factsFromText's links", () => {
		fc.assert(
			fc.property(notes, (text) =>
				expect(linkFactsFromText(text)).toEqual(factsFromText("n.md", text, libraryYamlCodec).links),
			),
			{ numRuns: 1500 },
		);
	});

	it("tagsAndFrontmatterFromText gives exactly factsFromText's tags and frontmatter", () => {
		fc.assert(
			fc.property(notes, (text) => {
				const facts = factsFromText("n.md", text, libraryYamlCodec);
				const parts = tagsAndFrontmatterFromText(text, libraryYamlCodec);
				expect(parts.tags).toEqual(facts.tags);
				expect(parts.frontmatter).toEqual(facts.frontmatter);
			}),
			{ numRuns: 1500 },
		);
	});

	it("notes without fences or comments (read only at the lines that can hold a tag or a link) give exactly factsFromText's links, tags and frontmatter", () => {
		fc.assert(
			fc.property(plainNotes, (text) => {
				const facts = factsFromText("n.md", text, libraryYamlCodec);
				const parts = tagsAndFrontmatterFromText(text, libraryYamlCodec);
				expect(linkFactsFromText(text)).toEqual(facts.links);
				expect(parts.tags).toEqual(facts.tags);
				expect(parts.frontmatter).toEqual(facts.frontmatter);
			}),
			{ numRuns: 3000 },
		);
	});

	it("factsFromText finds exactly the frontmatter problem the YAML library finds (simple frontmatter is read without it)", () => {
		fc.assert(
			fc.property(fc.oneof(notes, plainNotes), (text) => {
				expect(factsFromText("n.md", text, libraryYamlCodec).frontmatterProblem).toEqual(
					scanNote("n.md", text, parseYaml).frontmatterProblem,
				);
			}),
			{ numRuns: 3000 },
		);
	});

	it("scanLinks finds exactly the links scanNote finds", () => {
		fc.assert(
			fc.property(notes, (text) => {
				const lines = splitLines(text);
				const metadata = scanNote("n.md", text, libraryYamlCodec.parse);
				const firstBodyLine =
					lines[0] === "---" ? lines.findIndex((line, index) => index > 0 && line === "---") + 1 : 0;
				expect(scanLinks(lines, Math.max(firstBodyLine, 0))).toEqual(metadata.links);
			}),
			{ numRuns: 1500 },
		);
	});

	it("reads a tags key spelled with a YAML escape (no shortcut skips it)", () => {
		const parts = tagsAndFrontmatterFromText('---\n"\\x74ags": [private]\n---\nbody\n', libraryYamlCodec);
		expect(parts.tags.map((tag) => tag.tag)).toEqual(["private"]);
	});
});
