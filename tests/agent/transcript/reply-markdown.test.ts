import {
	isRemoteImage,
	isSafeExternalHref,
	parseInline,
	parseReply,
} from "../../../src/agent/transcript/reply-markdown";

describe("parseReply", () => {
	it("reads paragraphs, headings, lists, quotes, rules and fences", () => {
		const blocks = parseReply(
			"# Plan\n\nFirst line\nsecond line\n\n- one\n- two\n  more\n\n1. a\n2. b\n\n> quoted\n\n---\n\n```ts\nconst x = 1;\n```",
		);
		expect(blocks.map((block) => block.kind)).toEqual([
			"heading",
			"paragraph",
			"list",
			"list",
			"quote",
			"rule",
			"code",
		]);
		expect(blocks[2]).toEqual({
			kind: "list",
			ordered: false,
			items: [[{ kind: "text", text: "one" }], [{ kind: "text", text: "two\nmore" }]],
		});
		expect(blocks[3]).toMatchObject({ kind: "list", ordered: true });
		expect(blocks[6]).toEqual({ kind: "code", language: "ts", text: "const x = 1;" });
	});

	it("keeps a dataviewjs or templater fence as code text, and an open fence (still streaming) runs to the end", () => {
		expect(parseReply("```dataviewjs\ndv.paragraph('x')\n```\nafter")).toEqual([
			{ kind: "code", language: "dataviewjs", text: "dv.paragraph('x')" },
			{ kind: "paragraph", inlines: [{ kind: "text", text: "after" }] },
		]);
		expect(parseReply("~~~templater\n<% tp.file.title %>")).toEqual([
			{ kind: "code", language: "templater", text: "<% tp.file.title %>" },
		]);
	});
});

describe("parseInline", () => {
	it("reads emphasis, code spans (nothing inside them), links, wikilinks and images", () => {
		expect(parseInline("**bold** and *em* and `a *b*` and ~~gone~~")).toEqual([
			{ kind: "strong", children: [{ kind: "text", text: "bold" }] },
			{ kind: "text", text: " and " },
			{ kind: "em", children: [{ kind: "text", text: "em" }] },
			{ kind: "text", text: " and " },
			{ kind: "code", text: "a *b*" },
			{ kind: "text", text: " and " },
			{ kind: "strike", children: [{ kind: "text", text: "gone" }] },
		]);
		expect(
			parseInline(
				"[[Notes/A#Top|the note]] [site](https://example.org) [local](Notes/B.md) ![chart](https://x.test/c.png)",
			),
		).toEqual([
			{ kind: "link", href: "Notes/A#Top", internal: true, children: [{ kind: "text", text: "the note" }] },
			{ kind: "text", text: " " },
			{ kind: "link", href: "https://example.org", internal: false, children: [{ kind: "text", text: "site" }] },
			{ kind: "text", text: " " },
			{ kind: "link", href: "Notes/B.md", internal: true, children: [{ kind: "text", text: "local" }] },
			{ kind: "text", text: " " },
			{ kind: "image", alt: "chart", src: "https://x.test/c.png" },
		]);
	});

	it("leaves snake_case words and escaped markers as text", () => {
		expect(parseInline("a snake_case_name and \\*not em\\*")).toEqual([
			{ kind: "text", text: "a snake_case_name and *not em*" },
		]);
	});

	it("tells safe link targets and remote images apart", () => {
		expect(
			["https://a.b", "mailto:x@y.z", "javascript:alert(1)", "file:///etc/passwd"].map(isSafeExternalHref),
		).toEqual([true, true, false, false]);
		expect(["https://a.b/i.png", "Attachments/i.png"].map(isRemoteImage)).toEqual([true, false]);
	});
});
