import fc from "fast-check";
import { frontmatterTags, noteTags, tagsInLine } from "../../../src/vault/markdown/note-tags";
import { libraryYamlCodec } from "../../../src/vault/folder/yaml-library-codec";

/** Both readings run on the whole line, with no test first of whether the line can hold a tag. */
function tagsOfEveryReading(line: string): string[] {
	const found = new Set<string>();
	for (const reading of [
		/(?<=^|\s|#[^\s#]+)#([\p{L}\p{N}_/-]+)/gu,
		/(?<=^|\s|#[^\s#]+)#([^\s!"#$%&'()*+,.:;<=>?@[\\\]^`{|}~]+)/gu,
	]) {
		for (const match of line.matchAll(reading)) found.add((match[1] ?? "").replace(/\/+$/, ""));
	}
	return [...found].filter((tag) => tag !== "" && !/^[\d/]+$/.test(tag));
}

describe("noteTags", () => {
	it("reads the frontmatter's tags and the body's #tags, without #", () => {
		expect(noteTags("---\ntags: [work, '#plan']\n---\nText #idea and #area/sub.\n", libraryYamlCodec)).toEqual([
			"work",
			"plan",
			"idea",
			"area/sub",
		]);
	});

	it("finds frontmatter behind a byte order mark", () => {
		expect(noteTags("\uFEFF---\ntags: [private]\n---\nbody\n", libraryYamlCodec)).toEqual(["private"]);
	});

	it("counts tags in comments but not in code", () => {
		expect(noteTags("%% #private %%\n<!-- #secret -->\n`#inline`\n```\n#fenced\n```\n", libraryYamlCodec)).toEqual([
			"private",
			"secret",
		]);
	});

	it("does not read the frontmatter's lines as body text", () => {
		expect(noteTags("---\ntitle: '#notatag'\n---\n", libraryYamlCodec)).toEqual([]);
	});
});

describe("tagsInLine", () => {
	it("starts a tag at a line start, after white space or right after another tag", () => {
		expect(tagsInLine("#a x#b (#c) #d#e")).toEqual(["a", "d", "e"]);
	});

	it("ends a tag at punctuation, drops trailing slashes and all-digit tags", () => {
		expect(tagsInLine("#private. #2024 #2024/01 #y2024 #nested/")).toEqual(["private", "y2024", "nested"]);
	});

	it("keeps both readings of a tag with letters Obsidian also allows, so neither hides a tag", () => {
		expect(tagsInLine("#café #🔒secret")).toEqual(expect.arrayContaining(["café", "🔒secret"]));
	});
});

describe("tagsInLine, skipping lines that cannot hold a tag", () => {
	it("finds exactly the tags both readings find on the whole line", () => {
		const characters = fc.constantFrom(
			"#",
			"#",
			" ",
			"\u00a0",
			"\t",
			"a",
			"é",
			"1",
			"/",
			"-",
			"_",
			"[",
			"]",
			"|",
			".",
			"😀",
			"!",
		);
		fc.assert(
			fc.property(fc.array(characters, { maxLength: 16 }), (parts) => {
				const line = parts.join("");
				expect(tagsInLine(line)).toEqual(tagsOfEveryReading(line));
			}),
			{ numRuns: 5000 },
		);
		expect(tagsInLine("[[Note#Heading|alias]] a#b#c")).toEqual(tagsOfEveryReading("[[Note#Heading|alias]] a#b#c"));
	});
});

describe("frontmatterTags", () => {
	it("reads tags and tag keys in any case, lists and comma or space separated strings", () => {
		expect(frontmatterTags("Tags: a, b c\ntag: '#d'\nother: e\n", libraryYamlCodec)).toEqual(["a", "b", "c", "d"]);
		expect(frontmatterTags("tags:\n  - x # comment\n  - y\n", libraryYamlCodec)).toEqual(["x", "y"]);
	});

	it("still reads tags when a key is duplicated or the YAML has an error elsewhere", () => {
		expect(frontmatterTags("tags: [a]\ntags: [b]\n", libraryYamlCodec)).toEqual(["a", "b"]);
		expect(frontmatterTags("tags: [private]\nbroken: [\n", libraryYamlCodec)).toContain("private");
	});

	it("answers nothing for YAML that is not a map", () => {
		expect(frontmatterTags("- tags\n- private\n", libraryYamlCodec)).toEqual([]);
		expect(frontmatterTags("", libraryYamlCodec)).toEqual([]);
	});
});

describe("noteTags, reading only the lines with a #", () => {
	it("finds the same tags as the reading of every line (forced by CRLF line ends)", () => {
		const lines = fc.constantFrom(
			"---",
			"tags: [a, b]",
			"tags: private",
			"title: x",
			"# Heading #h",
			"text #tag and #other/sub",
			"`#code` #after",
			"    #indented",
			"[[Note#Part]] #linked",
			"",
			"- item #li",
			"#2024 #x1",
			"> quote #q",
			"\uFEFF#bom",
		);
		fc.assert(
			fc.property(fc.array(lines, { maxLength: 12 }), (parts) => {
				const text = parts.join("\n");
				expect(noteTags(text, libraryYamlCodec)).toEqual(noteTags(parts.join("\r\n"), libraryYamlCodec));
			}),
			{ numRuns: 400 },
		);
	});
});
