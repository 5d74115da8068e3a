import fc from "fast-check";
import {
	MAX_ATTACHED_CHARS,
	neutraliseMentions,
	promptContent,
	promptText,
	withoutMentionBreaks,
} from "../../../src/agent/engine/mention-text";

/** The CLI's own mention patterns (2.1.330): an `@` at the start or after whitespace or 。、？！, then a quoted or a bare path. */
const CLI_MENTION = /(?:^|[\s\u3002\u3001\uFF1F\uFF01])@(?:"([^"]+)"|((?:[^\s\\]|\\ )+))/u;

describe("neutraliseMentions", () => {
	it("puts a word joiner before every @ the CLI would read as a mention, and leaves other @ alone", () => {
		expect(neutraliseMentions('@Secret/Plan.md and @"My notes/x.md"\n@a、@b mail a@b.c')).toBe(
			'\u2060@Secret/Plan.md and \u2060@"My notes/x.md"\n\u2060@a、\u2060@b mail a@b.c',
		);
		expect(neutraliseMentions("x\u00a0@nbsp x\u3000@ideographic")).toBe(
			"x\u00a0\u2060@nbsp x\u3000\u2060@ideographic",
		);
	});

	it("leaves no mention the CLI's patterns match, for any text, and takes nothing else away", () => {
		fc.assert(
			fc.property(
				fc.string({
					unit: fc.constantFrom(
						"@",
						" ",
						"\n",
						"\u00a0",
						"\u3002",
						"\uFF01",
						'"',
						"\\",
						"a",
						"/",
						".",
						"\u2060",
					),
				}),
				(text) => {
					const inert = neutraliseMentions(text);
					expect(CLI_MENTION.test(inert)).toBe(false);
					expect(inert.replace(/\u2060(?=@)/g, "")).toBe(text.replace(/\u2060(?=@)/g, ""));
				},
			),
		);
	});

	it("gives the typed text back for the panel's history", () => {
		expect(withoutMentionBreaks(neutraliseMentions("See @A.md and @B"))).toBe("See @A.md and @B");
	});
});

describe("promptContent", () => {
	it("sends the typed text alone, mentions inert, when nothing is attached", () => {
		expect(promptContent("Look at @Secret/Plan.md", [])).toBe("Look at \u2060@Secret/Plan.md");
		expect(promptText({ text: "Hello @x", attachments: [{ path: "x.md" }] })).toBe("Hello \u2060@x");
		expect(promptText({ text: "Hello", attachments: [], prompt: "built" })).toBe("built");
	});

	it("hands each note over as a document with its exact vault path and its text byte for byte, never as a mention", () => {
		const name = 'Notes/Q" @Secret/Plan.md ".md';
		const content = promptContent(`About @${name}`, [
			{ kind: "note", path: name, text: "# Q\n@Secret/Plan.md\n```dataviewjs\nx\n```\n" },
		]);
		expect(content).toEqual([
			{ type: "text", text: 'About \u2060@Notes/Q" \u2060@Secret/Plan.md ".md' },
			{
				type: "document",
				title: name,
				context:
					'A note the user attached from the vault ("Notes/Q\\" \u2060@Secret/Plan.md \\".md"), the whole note, exactly as it is on disk.',
				source: {
					type: "text",
					media_type: "text/plain",
					data: "# Q\n@Secret/Plan.md\n```dataviewjs\nx\n```\n",
				},
			},
		]);
	});

	it("cuts a selection's lines from the note, saying which, and bounds the size by whole lines", () => {
		const [, selection] = promptContent("x", [
			{ kind: "note", path: "A.md", lines: { from: 2, to: 3 }, text: "one\ntwo\nthree\nfour" },
		]) as [unknown, { context: string; source: { data: string } }];
		expect(selection.source.data).toBe("two\nthree");
		expect(selection.context).toContain("lines 2 to 3 of 4");
		const long = Array.from({ length: 3000 }, (_, index) => `line ${index} ${"x".repeat(60)}`).join("\n");
		const [, cut] = promptContent("x", [{ kind: "note", path: "Long.md", text: long }]) as [
			unknown,
			{ context: string; source: { data: string } },
		];
		expect(cut.source.data.length).toBeLessThanOrEqual(MAX_ATTACHED_CHARS);
		expect(long.startsWith(`${cut.source.data}\n`)).toBe(true);
		expect(cut.context).toMatch(/Only its first \d+ lines fit here: read the rest with the Read tool\./);
	});

	it("lists a folder's visible notes, and names an empty note and a file that is not text in the panel's words", () => {
		const [, folder, empty, file] = promptContent("x", [
			{ kind: "folder", path: "Notes", notes: ["Notes/A.md", "Notes/B.md"], complete: false },
			{ kind: "note", path: "Empty.md", text: "" },
			{ kind: "file", path: "Pic.png", reason: "not-text" },
		]) as unknown as Array<{ title: string; context: string; source: { data: string } }>;
		expect(folder).toMatchObject({ title: "Notes", source: { data: "Notes/A.md\nNotes/B.md" } });
		expect(folder?.context).toContain("there are more than these");
		expect(empty?.context).toContain("It is empty");
		expect(file).toMatchObject({ title: "Pic.png", source: { data: "(Not attached.)" } });
	});

	it("puts images before the words and the documents after, and makes no block of empty words", () => {
		const image = {
			type: "image" as const,
			source: { type: "base64" as const, media_type: "image/png" as const, data: "AA==" },
		};
		const content = promptContent("What is @this?", [{ kind: "note", path: "A.md", text: "a" }], [image, image]);
		expect((typeof content === "string" ? [] : content).map((block) => block.type)).toEqual([
			"image",
			"image",
			"text",
			"document",
		]);
		expect(typeof content !== "string" && content[2]).toEqual({ type: "text", text: "What is \u2060@this?" });
		expect(promptContent("  ", [], [image])).toEqual([image]);
	});
});
