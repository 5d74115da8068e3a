import fc from "fast-check";
import { inertCode, inertFencedBlock, inertLine, inertMarkdown, inertTableCell } from "../../src/shared/inert-markdown";

/**
 * Any line outside a column-0 fenced block's code that may open a fence, in any container: its language (the first
 * word of the info string), if it names one.
 */
function fenceLanguages(markdown: string): string[] {
	return [...sureOpeners(markdown), ...proseParagraphs(markdown).flat()].flatMap((line) => {
		const match = /^[ \t>*+\-.)0-9]*(`{3,}|~{3,})(.*)$/.exec(line);
		if (!match || (match[1]?.startsWith("`") && match[2]?.includes("`"))) return [];
		const language = match[2]?.trim().split(/\s+/)[0] ?? "";
		return language === "" ? [] : [language];
	});
}

/** The lines that open a fenced block at column 0. */
function sureOpeners(markdown: string): string[] {
	const openers: string[] = [];
	proseParagraphs(markdown, openers);
	return openers;
}

/** Lines outside fenced blocks opened at column 0 (CommonMark's rule for closing them), grouped into paragraphs. */
function proseParagraphs(markdown: string, openers: string[] = []): string[][] {
	const paragraphs: string[][] = [[]];
	let fence: { char: string; length: number } | undefined;
	for (const line of markdown.split("\n")) {
		if (fence) {
			const run = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line)?.[1];
			if (run && run.charAt(0) === fence.char && run.length >= fence.length) fence = undefined;
			continue;
		}
		const opener = /^(`{3,}|~{3,})(.*)$/.exec(line);
		if (opener?.[1] && !(opener[1].startsWith("`") && opener[2]?.includes("`"))) {
			fence = { char: opener[1].charAt(0), length: opener[1].length };
			openers.push(line);
			paragraphs.push([]);
		} else if (line.trim() === "") paragraphs.push([]);
		else paragraphs.at(-1)?.push(line);
	}
	return paragraphs.filter((paragraph) => paragraph.length > 0);
}

/** CommonMark code spans over `text` (a run opens, the next run of the same length closes; `\`` is no run outside a span). */
function codeSpans(text: string): { from: number; to: number; content: string }[] {
	const spans: { from: number; to: number; content: string }[] = [];
	let index = 0;
	while (index < text.length) {
		if (text[index] === "\\") {
			index += 2;
			continue;
		}
		if (text[index] !== "`") {
			index++;
			continue;
		}
		let end = index;
		while (text[end] === "`") end++;
		const runs = [...text.slice(end).matchAll(/`+/g)];
		const closer = runs.find((run) => run[0].length === end - index);
		if (closer?.index === undefined) {
			index = end;
			continue;
		}
		spans.push({
			from: index,
			to: end + closer.index + closer[0].length,
			content: text.slice(end, end + closer.index),
		});
		index = end + closer.index + closer[0].length;
	}
	return spans;
}

/** What would act in `text` outside the given code spans: raw HTML or autolinks, wikilinks, embeds, images, comments. */
function liveOutside(text: string, spans: readonly { from: number; to: number }[]): string[] {
	let outside = "";
	let at = 0;
	for (const span of spans) {
		outside += `${text.slice(at, span.from)} `;
		at = span.to;
	}
	outside += text.slice(at);
	return outside.match(/<|\[\[|!\[|%%/g) ?? [];
}

/** Whether the text, read line by line or as whole paragraphs, holds anything live or a code span Dataview would run. */
function liveParts(markdown: string): string[] {
	return proseParagraphs(markdown).flatMap((paragraph) => {
		const joined = paragraph.join("\n");
		// GFM splits a table row at its pipes before it finds code spans.
		const cells = paragraph.flatMap((line) => line.split(/(?<!\\)\|/));
		const views = [
			...[...paragraph, ...cells].map((text) => ({ text, spans: codeSpans(text) })),
			{ text: joined, spans: codeSpans(joined) },
		];
		return views.flatMap((view) => [
			...liveOutside(view.text, view.spans),
			...view.spans.filter((span) => /^\s*\$?=/.test(span.content)).map((span) => `query ${span.content}`),
		]);
	});
}

const FRAGMENTS = [
	"```",
	"```dataviewjs",
	"~~~button",
	"```query",
	"`",
	"``",
	"$= dv.x",
	"= this.file",
	"<img src=https://e.example/x.png>",
	"<!-- c -->",
	"![[Secret]]",
	"[[Secret]]",
	"![a](https://e.example/a.png)",
	"%%",
	"\n",
	"\n\n",
	"> ",
	"- ",
	"1. ",
	"   ",
	"    ",
	"|",
	"$",
	"\\",
	"text",
	" ",
	"a",
];
/** The fragments that make code spans and fences, and what they could hide, come up more often. */
const modelText = fc
	.array(
		fc.oneof(
			{ arbitrary: fc.constantFrom(...FRAGMENTS), weight: 2 },
			{ arbitrary: fc.constantFrom("`", "```", "\n", "<img src=https://e.example/x.png>", "|"), weight: 3 },
		),
		{ maxLength: 40 },
	)
	.map((parts) => parts.join(""));

/**
 * The text a reader sees, entities decoded and the inert language taken out of info strings: only out of lines that
 * open a block, not out of a fenced block's own lines, which show as written (CommonMark §4.5: a backtick fence at
 * column 0 without a backtick in its info string opens; a run of the same character, at least as long, with only
 * spaces after it, closes).
 */
function asRead(markdown: string): string {
	let open: string | undefined;
	const lines = markdown.split("\n").map((line) => {
		if (open !== undefined) {
			const run = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line)?.[1];
			if (run !== undefined && run.charAt(0) === open.charAt(0) && run.length >= open.length) open = undefined;
			return line;
		}
		const opener = /^(`{3,}|~{3,})(.*)$/.exec(line);
		if (opener?.[1] !== undefined && !(opener[1].startsWith("`") && (opener[2] ?? "").includes("`"))) {
			open = opener[1];
		}
		return line.replace(/^([ \t>*+\-.)0-9]*(?:`{3,}|~{3,}))text /, "$1");
	});
	return lines
		.join("\n")
		.replace(/&lt;/g, "<")
		.replace(/&#91;/g, "[")
		.replace(/&#33;/g, "!")
		.replace(/&#37;/g, "%")
		.replace(/&#96;/g, "`");
}

describe("inertMarkdown", () => {
	it("shows fenced blocks as plain code: the language is named after the inert one, the code kept as it is", () => {
		expect(inertMarkdown("```dataviewjs\ndv.span(`<b>`)\n```")).toBe("```text dataviewjs\ndv.span(`<b>`)\n```");
		expect(inertMarkdown("- Step:\n  ```button\n  name Go\n  ```")).toBe(
			"- Step:\n  ```text button\n  name Go\n  ```",
		);
		expect(inertMarkdown("> ~~~query\n> path:Secret\n> ~~~")).toBe("> ~~~text query\n> path:Secret\n> ~~~");
		expect(inertMarkdown("```\nplain\n```")).toBe("```\nplain\n```");
	});

	it("closes a fenced block the text left open, so it cannot take in what follows it in the export", () => {
		expect(inertMarkdown("````js\ncode\n```")).toBe("````text js\ncode\n```\n````");
		// A line inside the block that looks like an opener is code, kept as written (found by the property below).
		expect(inertMarkdown("```\n```text    ")).toBe("```\n```text    \n```");
	});

	it("keeps inline code that surely is code, and escapes a span Dataview would run and everything after an unpaired backtick", () => {
		expect(inertMarkdown("Use `Array<string>` and `= this.file.name` here")).toBe(
			"Use `Array<string>` and &#96;= this.file.name&#96; here",
		);
		expect(inertMarkdown("a `b\nc` <img src=x> `d`")).toBe("a &#96;b\nc&#96; &lt;img src=x> &#96;d&#96;");
		expect(inertMarkdown("| `a | <img src=x> ` |")).toBe("| &#96;a | &lt;img src=x> &#96; |");
		// An indented fence after a paragraph line is prose (a lazy continuation): its run may pair further on.
		expect(inertMarkdown("para\n    ```\n` ``` <img src=x> `")).toBe(
			"para\n    ```\n&#96; &#96;&#96;&#96; &lt;img src=x> &#96;",
		);
	});

	it("for any model text, leaves no fence with a language a processor could claim, and nothing live outside code", () => {
		fc.assert(
			fc.property(modelText, (text) => {
				const markdown = inertMarkdown(text);
				expect(fenceLanguages(markdown).filter((language) => language !== "text")).toEqual([]);
				expect(liveParts(markdown)).toEqual([]);
			}),
			{ numRuns: 2000 },
		);
	});

	it("for any model text, takes nothing away that a reader would see (but a closing fence it adds)", () => {
		fc.assert(
			fc.property(modelText, (text) => {
				const read = asRead(inertMarkdown(text));
				const normalised = text.replace(/\r\n|\r/g, "\n");
				expect(read === normalised || read.startsWith(`${normalised}\n`)).toBe(true);
			}),
			{ numRuns: 1000 },
		);
	});
});

describe("inertLine, inertCode, inertTableCell, inertFencedBlock", () => {
	it("keeps an excerpt on its line, with nothing at its start that opens a block", () => {
		expect(inertLine("# Title\n```dataviewjs\n<b>")).toBe("&#35; Title &#96;&#96;&#96;dataviewjs &lt;b>");
		expect(inertLine("> quoted")).toBe("&gt; quoted");
		fc.assert(fc.property(modelText, (text) => expect(inertLine(text)).not.toMatch(/[\r\n]/)));
	});

	it("writes a name as code that nothing inside can close, or as plain text when Dataview would run it", () => {
		expect(inertCode("Bash")).toBe("`Bash`");
		expect(inertCode("a`b")).toBe("``a`b``");
		expect(inertCode("`x")).toBe("`` `x ``");
		expect(inertCode("$= dv.x")).toBe("$= dv.x");
	});

	it("escapes a table cell so it neither splits nor acts", () => {
		fc.assert(
			fc.property(modelText, (text) => {
				const cell = inertTableCell(text);
				expect(cell).not.toMatch(/[\r\n]|(?<!\\)\||(?<!\\)`|<|%/);
			}),
		);
	});

	it("fences a tool's output longer than any backtick run in it, shown as plain code", () => {
		expect(inertFencedBlock("a ``` b\n````")).toBe("`````text\na ``` b\n````\n`````");
	});
});
