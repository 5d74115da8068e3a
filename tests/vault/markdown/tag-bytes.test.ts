import fc from "fast-check";
import {
	frontmatterOfBlock,
	tagsAndFrontmatterFromBytes,
	tagsAndFrontmatterFromText,
	tagsFromBytes,
	tagsOfBytes,
} from "../../../src/vault/notes/note-facts";
import {
	eachLineHoldingHashOrFence,
	headOfBytes,
	headSpanOfBytes,
	mayHoldInlineTag,
} from "../../../src/vault/markdown/tag-bytes";
import { libraryYamlCodec } from "../../../src/vault/folder/yaml-library-codec";

/** Lines that put a `#` next to everything that decides whether it starts a tag, code and comments included. */
const LINE = fc.constantFrom(
	"---",
	"--- ",
	"---\u00a0",
	"---\t",
	"---x",
	"----",
	"\ufeff---",
	"tags: [a, private]",
	"sTaGe: 1",
	"a: \\u0074",
	"tag: '#c'",
	"title: [x",
	"a: 1",
	"# Heading",
	"## Section #notatag",
	"#",
	"a #",
	"##",
	"#tag",
	"#2024",
	"#-x #/x #_x",
	"#é",
	"é#tag",
	"\u00a0#tag",
	"x\u3000#tag",
	"\t#t",
	"\v#t",
	"\f#t",
	"word#tag",
	"#a#b",
	"x#a#b",
	"x#a #b",
	"[[Note#Heading]]",
	"[[Note#^block]] [md](Some%20Note.md#Part)",
	"`code`#tag",
	"``code``#tag",
	"`#code` only",
	"%% comment %%#tag",
	"%% open",
	"<!-- c -->#tag",
	"<!-- open",
	"-->#tag",
	"%%#tag",
	"\\#escaped",
	"```",
	"~~~",
	"    #indented",
	"text\r#tag",
	"",
);

/** Lines with no `#` that may start a tag, so that many notes are answered from their bytes. */
const PLAIN = fc.constantFrom(
	"---",
	"tags: [a, private]",
	"Tags: b",
	"a: 1",
	"# Heading",
	"[[Note#Heading]] word#x",
	"```",
	"%% c %%",
	"<!-- c -->",
	"plain prose é",
	"",
);

/** Notes of those lines, some with bytes that are not UTF-8 (a lone lead byte, 0xff) in or between them. */
const notes = fc
	.tuple(
		fc.array(fc.oneof({ arbitrary: LINE, weight: 1 }, { arbitrary: PLAIN, weight: 5 }), { maxLength: 12 }),
		fc.array(fc.constantFrom(Buffer.from([0xc3]), Buffer.from([0xff]), Buffer.from("é")), { maxLength: 2 }),
		fc.nat(),
	)
	.map(([lines, odd, at]) => {
		const text = Buffer.from(lines.join("\n"));
		if (odd.length === 0) return text;
		const cut = text.length === 0 ? 0 : at % text.length;
		return Buffer.concat([text.subarray(0, cut), ...odd, text.subarray(cut)]);
	});

/** Notes that open with a fence (or a line that looks like one), so that many have a frontmatter. */
const framed = fc
	.tuple(
		fc.constantFrom("---", "--- ", "---\t", "---\u00a0", "---x"),
		fc.array(fc.oneof(LINE, PLAIN), { maxLength: 4 }),
		notes,
	)
	.map(([fence, yaml, body]) => Buffer.concat([Buffer.from([fence, ...yaml, "---", ""].join("\n")), body]));

describe("tags and frontmatter from a note's bytes", () => {
	it("gives exactly what the text gives, or leaves the note to the text", () => {
		let answered = 0;
		let withFrontmatter = 0;
		let withBodyTags = 0;
		let withFenceAndHash = 0;
		fc.assert(
			fc.property(notes, (bytes) => {
				const fromBytes = tagsAndFrontmatterFromBytes(bytes, libraryYamlCodec);
				if (fromBytes === undefined) return;
				answered++;
				if (fromBytes.frontmatter) withFrontmatter++;
				if (fromBytes.tags.some((tag) => tag.line > (fromBytes.frontmatter?.endLine ?? -1))) withBodyTags++;
				if (/```|~~~/.test(bytes.toString("latin1")) && bytes.includes("#")) withFenceAndHash++;
				expect(fromBytes).toEqual(tagsAndFrontmatterFromText(bytes.toString("utf8"), libraryYamlCodec));
			}),
			{ numRuns: 5000 },
		);
		// The comparison above is not empty: many notes are answered from their bytes, frontmatter included.
		expect(answered).toBeGreaterThan(500);
		expect(withFrontmatter).toBeGreaterThan(20);
		expect(withBodyTags).toBeGreaterThan(100);
		expect(withFenceAndHash).toBeGreaterThan(100);
	});

	it("reads a note whose body has headings and heading links but no tag from its bytes, with its frontmatter", () => {
		const note = Buffer.from(
			"---\ntags: [project, Hub]\nstatus: draft\n---\n# Title\n\n## Part 1\n\nSee [[Other#Part]] and [[Other#^id]].\nword#notatag\n",
		);
		const described = tagsAndFrontmatterFromBytes(note, libraryYamlCodec);
		expect(described).toEqual(tagsAndFrontmatterFromText(note.toString("utf8"), libraryYamlCodec));
		expect(described?.tags.map((tag) => tag.tag)).toEqual(["project", "Hub"]);
		expect(described?.frontmatter?.properties).toEqual({ tags: ["project", "Hub"], status: "draft" });
	});

	it("reads the body's tags from the lines with a # or a fence, and leaves a note with a comment to the text", () => {
		for (const body of ["#tag", "a #tag", "`x`#tag", "\u00a0#tag", "x#a#b", "`#code` only\n#tag"]) {
			const note = Buffer.from(`---\na: 1\n---\nprose\n${body}\n`);
			const described = tagsAndFrontmatterFromBytes(note, libraryYamlCodec);
			expect(described).toEqual(tagsAndFrontmatterFromText(note.toString("utf8"), libraryYamlCodec));
			expect(described?.tags.length).toBeGreaterThan(0);
		}
		expect(tagsAndFrontmatterFromBytes(Buffer.from("#b\nc #d"), libraryYamlCodec)?.tags).toEqual([
			{ tag: "b", line: 0 },
			{ tag: "d", line: 1 },
		]);
		for (const body of ["```\n#code\n```\n#tag", "~~~\n#code", "  ```js\nx\n  ```\n#t", "> ```\n> #c\n> ```"]) {
			const note = Buffer.from(`---\na: 1\n---\n${body}\n`);
			expect(tagsAndFrontmatterFromBytes(note, libraryYamlCodec)).toEqual(
				tagsAndFrontmatterFromText(note.toString("utf8"), libraryYamlCodec),
			);
		}
		for (const body of ["%% c %%#tag", "<!-- #c -->", "#t %%"])
			expect(tagsAndFrontmatterFromBytes(Buffer.from(`---\na: 1\n---\n${body}\n`), libraryYamlCodec)).toBe(
				undefined,
			);
		// A tag in the frontmatter's values is the frontmatter's: the body alone is looked at.
		expect(mayHoldInlineTag(Buffer.from("---\ntag: #c\n---\nbody\n"), 15)).toBe(false);
	});

	it("leaves a frontmatter without a tag key unread until asked, and reads one that may have one at once", () => {
		const later = tagsFromBytes(Buffer.from("---\ntitle: A\ncreated: 2024-01-02\n---\n#t\n"), libraryYamlCodec);
		expect(later?.tags).toEqual([{ tag: "t", line: 4 }]);
		expect(later?.frontmatter).toBeUndefined();
		expect(later?.later && frontmatterOfBlock(later.later, libraryYamlCodec)).toEqual({
			endLine: 3,
			keyLines: { title: 1, created: 2 },
			properties: { title: "A", created: "2024-01-02" },
		});
		for (const yaml of ["Tags: x", "a: [1]\nTAG: y", '"t\\x61gs": z', "a: tagged"]) {
			const note = Buffer.from(`---\n${yaml}\n---\nbody\n`);
			const now = tagsFromBytes(note, libraryYamlCodec);
			expect(now?.later).toBeUndefined();
			expect(now).toEqual(tagsAndFrontmatterFromText(note.toString("utf8"), libraryYamlCodec));
		}
	});

	it("finds the frontmatter as findFrontmatter does, and leaves notes with \\r or bytes that are not UTF-8 to the text", () => {
		expect(headOfBytes(Buffer.from("---\na: 1\n--- \nbody"))).toEqual({
			lines: ["---", "a: 1", "--- "],
			bodyOffset: 14,
		});
		expect(headOfBytes(Buffer.from("---\na: 1\n"))).toEqual({ lines: [], bodyOffset: 0 });
		expect(headOfBytes(Buffer.from("# no frontmatter\n---\n"))).toEqual({ lines: [], bodyOffset: 0 });
		expect(headOfBytes(Buffer.from("---\r\na: 1\r\n---\r\n"))).toBeUndefined();
		expect(headOfBytes(Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0x0a, 0x2d, 0x2d, 0x2d]))).toBeUndefined();
	});

	it("tells where the frontmatter ends from the bytes alone, as headOfBytes finds it", () => {
		let told = 0;
		let withFrontmatter = 0;
		let withTagKey = 0;
		fc.assert(
			fc.property(fc.oneof(notes, framed), (bytes) => {
				const span = headSpanOfBytes(bytes);
				if (span === undefined) return;
				told++;
				const head = headOfBytes(bytes);
				expect(head?.bodyOffset).toBe(span.bodyOffset);
				expect(span.endLine).toBe((head?.lines.length ?? 0) - 1);
				const yaml = head?.lines.slice(1, -1).join("\n") ?? "";
				if (span.endLine >= 0) withFrontmatter++;
				if (span.mayHoldTagKey) withTagKey++;
				expect(span.mayHoldTagKey).toBe(/tag/i.test(yaml) || yaml.includes("\\"));
			}),
			{ numRuns: 5000 },
		);
		expect(told).toBeGreaterThan(500);
		expect(withFrontmatter).toBeGreaterThan(400);
		expect(withTagKey).toBeGreaterThan(100);
		// A fence line ending in a byte outside ASCII (white space to trimEnd, or not) is left to headOfBytes.
		expect(headSpanOfBytes(Buffer.from("---\u00a0\na: 1\n---\n"))).toBeUndefined();
		expect(headSpanOfBytes(Buffer.from("---\na: 1\n---\u00e9\n"))).toBeUndefined();
		expect(headSpanOfBytes(Buffer.from("---\t\nsTaGe: 1\n--- \n#t"))).toEqual({
			bodyOffset: 19,
			endLine: 2,
			mayHoldTagKey: true,
		});
	});

	it("gives a note's tags alone from its bytes exactly as its text gives them", () => {
		let fromSpan = 0;
		fc.assert(
			fc.property(fc.oneof(notes, framed), (bytes) => {
				const span = headSpanOfBytes(bytes);
				if (span && span.endLine >= 0 && !span.mayHoldTagKey) fromSpan++;
				expect(tagsOfBytes(bytes, libraryYamlCodec)).toEqual(
					tagsAndFrontmatterFromText(bytes.toString("utf8"), libraryYamlCodec).tags,
				);
			}),
			{ numRuns: 5000 },
		);
		expect(fromSpan).toBeGreaterThan(300);
		expect(tagsOfBytes(Buffer.from("---\ntitle: A\n---\nSee #heavy and `#code`.\n"), libraryYamlCodec)).toEqual([
			{ tag: "heavy", line: 3 },
		]);
	});

	it("decodes only the lines with a # that may start a tag, and the fence lines", () => {
		const note = Buffer.from(
			"## Part 1\nSee [[Other#Part]] and word#x.\nFiled under #heavy.\n```\n## in code #c\n```\n# Title\n~~~\n",
		);
		const lines: string[] = [];
		eachLineHoldingHashOrFence(note, 0, 0, (line, number) => lines.push(`${number}: ${line}`));
		expect(lines).toEqual(["2: Filed under #heavy.", "3: ```", "4: ## in code #c", "5: ```", "7: ~~~"]);
	});
});
