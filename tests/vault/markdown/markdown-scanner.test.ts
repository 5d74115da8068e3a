import { scanNote } from "../../../src/vault/markdown/markdown-scanner";
import type { LinkFact } from "../../../src/vault/markdown/note-model";
import { parseYaml } from "../../../src/vault/folder/yaml-library-codec";

function scan(text: string) {
	return scanNote("Note.md", text, parseYaml);
}

function at(link: LinkFact): string {
	return `${link.line}:${link.start}-${link.line}:${link.end}`;
}

describe("scanNote: links", () => {
	it("finds wikilinks, embeds and aliases with exact ranges", () => {
		const { links } = scan(
			"See [[Alpha]] and [[Beta|the beta]].\n![[pic.png]] [[Gamma#Part|g]] [[#Local]] [[Delta#^block]]",
		);
		expect(links.map((link) => [link.linkpath, link.subpath, link.embed, at(link)])).toEqual([
			["Alpha", undefined, false, "0:4-0:13"],
			["Beta", undefined, false, "0:18-0:35"],
			["pic.png", undefined, true, "1:0-1:12"],
			["Gamma", "Part", false, "1:13-1:29"],
			["", "Local", false, "1:30-1:40"],
			["Delta", "^block", false, "1:41-1:57"],
		]);
	});

	it("counts characters in UTF-16 code units, so an emoji before a link counts twice", () => {
		const { links } = scan("😀 é [[Missing]]");
		expect(links.map((link) => `${link.original} ${at(link)}`)).toEqual(["[[Missing]] 0:5-0:16"]);
	});

	it("numbers lines the same with CRLF, LF and CR line ends", () => {
		for (const eol of ["\r\n", "\n", "\r"]) {
			const { links } = scan(`first${eol}second${eol}x [[Link]]`);
			expect(links.map(at)).toEqual(["2:2-2:10"]);
		}
	});

	it("reads Markdown links to vault files, decoding percent-escapes, and ignores URLs", () => {
		const { links } = scan(
			'[a](My%20Note.md#Some%20Part) [b](<Other note.md>) ![c](img/pic%201.png) [d](https://example.com/x.md) [e](mailto:a@b.c) [f](obsidian://open?vault=x) [g](//host/x) [h](Plain "title")',
		);
		expect(links.map((link) => [link.linkpath, link.subpath, link.embed, link.original])).toEqual([
			["My Note.md", "Some Part", false, "[a](My%20Note.md#Some%20Part)"],
			["Other note.md", undefined, false, "[b](<Other note.md>)"],
			["img/pic 1.png", undefined, true, "![c](img/pic%201.png)"],
			["Plain", undefined, false, '[h](Plain "title")'],
		]);
	});

	it("ignores links in fenced code, inline code, %% and HTML comments, and escaped brackets", () => {
		const text = [
			"```md",
			"[[InFence]]",
			"```",
			"~~~~",
			"``` still inside",
			"[[InTilde]]",
			"~~~~",
			"`[[InCode]]` ``[[In `double` code]]`` \\[[Escaped]]",
			"%% [[InComment]] %% [[Visible]] <!-- [[InHtml]] -->",
			"%% a comment",
			"over [[Lines]] %%",
			"<!--",
			"[[HtmlLines]] -->[[After]]",
			"> ```",
			"> [[QuotedFence]]",
			"> ```",
		].join("\n");
		expect(scan(text).links.map((link) => link.linkpath)).toEqual(["Visible", "After"]);
	});

	it("treats an unclosed fence as code to the end, and an unmatched backtick as text", () => {
		expect(scan("a ` [[Shown]]\n```\n[[Hidden]]").links.map((link) => link.linkpath)).toEqual(["Shown"]);
	});

	it("reads a table's escaped alias pipe", () => {
		const [link] = scan("| [[Target\\|alias]] | x |").links;
		expect(link?.linkpath).toBe("Target");
		expect(link?.original).toBe("[[Target\\|alias]]");
	});

	it("skips frontmatter lines and empty links", () => {
		expect(
			scan('---\nup: "[[Parent]]"\n---\n[[]] [[ ]] [x]() [[Real]]').links.map((link) => link.linkpath),
		).toEqual(["Real"]);
	});
});

describe("scanNote: headings and block ids", () => {
	it("finds ATX and setext headings, not #tags or headings in code", () => {
		const text = "# One #\n#tag\n## Two: *sub*  \n```\n# Not\n```\nSetext title\n===\n\nSecond\n---\n- item\n---";
		expect(scan(text).headings.map((heading) => [heading.text, heading.level, heading.line])).toEqual([
			["One", 1, 0],
			["Two: *sub*", 2, 2],
			["Setext title", 1, 6],
			["Second", 2, 9],
		]);
	});

	it("finds ^ids at the end of lines with exact ranges, not in code or mid-line", () => {
		const text = "Para 😀 ^abc-1\n- item ^Item2\n^alone\nnot ^mid line\n`code ^incode`\n```\nx ^fenced\n```";
		expect(scan(text).blockIds.map((block) => [block.id, `${block.line}:${block.start}-${block.end}`])).toEqual([
			["abc-1", "0:8-14"],
			["Item2", "1:7-13"],
			["alone", "2:0-6"],
		]);
	});
});
