/**
 * Markdown that stays inert when Obsidian opens it, for text someone else wrote (Claude's replies, tool inputs,
 * pasted clippings) that the plugin writes into a note: no code block a plugin would run (`dataviewjs`, `button`,
 * `query`...), no image or embed that loads (remote images, `![[...]]`), no raw HTML, no wikilink or comment.
 *
 * Where the text's structure cannot be known for sure, it is escaped as if it were prose: an escape inside what
 * turns out to be code only shows as written (`&lt;`), while a missed escape in prose would be live. What counts
 * as surely code: a fenced block opened at the start of a line (no container can hold it) and an inline code span
 * whose both ends are on one line that no earlier line of the paragraph could have left inside a span.
 */

/** The language every fenced block is given: no processor claims it, so the block shows as plain code. */
export const INERT_LANGUAGE = "text";

/** A fence opened at column 0: surely a fenced block, whatever came before. */
const SURE_OPENER = /^(`{3,}|~{3,})(.*)$/;
/** Anything that may open or close a fence inside a container (quote, list item) or indented. */
const FENCE_LIKE = /^([ \t]*(?:(?:>|[-*+]|\d{1,9}[.)])[ \t]*)*)(`{3,}|~{3,})(.*)$/;
/** The Dataview plugin's inline query prefixes (its defaults): a code span starting with one is run. */
const INLINE_QUERY = /^\s*\$?=/;
/** Characters after which a code span's pairing cannot be trusted: table cells split at pipes, math may take backticks. */
const UNTRUSTED_SPAN_LINE = /[|$]/;

interface Fence {
	char: string;
	length: number;
}

/** A block of Markdown made inert: its fenced blocks shown as plain code, everything else escaped where it could act. */
export function inertMarkdown(text: string): string {
	const out: string[] = [];
	let fence: Fence | undefined;
	let spanMayBeOpen = false;
	for (const line of text.split(/\r\n|\r|\n/)) {
		if (fence) {
			out.push(line);
			if (closes(line, fence)) fence = undefined;
			continue;
		}
		const sure = sureOpener(line);
		if (sure) {
			fence = sure.fence;
			out.push(`${sure.run}${inertInfo(sure.info)}`);
			spanMayBeOpen = false;
			continue;
		}
		if (line.trim() === "") {
			out.push(line);
			spanMayBeOpen = false;
			continue;
		}
		const like = fenceLike(line);
		if (like) {
			out.push(`${like.prefix}${like.run}${inertInfo(like.info)}`);
			// If this line is prose after all, its backtick run may pair with one further on.
			spanMayBeOpen = true;
			continue;
		}
		const inert = inertProse(line, spanMayBeOpen);
		out.push(inert.text);
		spanMayBeOpen = inert.spanMayBeOpen;
	}
	if (fence) out.push(fence.char.repeat(fence.length));
	return out.join("\n");
}

/** One line of text (a list item's or a title's): line breaks become spaces, and a leading `#` or `>` starts nothing. */
export function inertLine(text: string): string {
	const flat = text.replace(/\r\n|[\r\n\u2028\u2029]/g, " ");
	const inert = inertProse(flat, false).text;
	return inert.replace(/^(\s*)#/, "$1&#35;").replace(/^(\s*)>/, "$1&gt;");
}

/** A table cell: one line, no code span, pipes and everything that could act escaped. */
export function inertTableCell(text: string): string {
	return text
		.replace(/\r\n|[\r\n\u2028\u2029]/g, " ")
		.replace(/\\/g, "\\\\")
		.replace(/\|/g, "\\|")
		.replace(/\[/g, "\\[")
		.replace(/\]/g, "\\]")
		.replace(/`/g, "\\`")
		.replace(/#/g, "\\#")
		.replace(/\$/g, "\\$")
		.replace(/</g, "&lt;")
		.replace(/%/g, "&#37;");
}

/** An inline code span holding `text` on one line (for a name): its fence longer than any backtick run inside. */
export function inertCode(text: string): string {
	const flat = text.replace(/\r\n|[\r\n\u2028\u2029]/g, " ");
	if (flat.trim() === "" || INLINE_QUERY.test(flat) || flat.includes("%%")) return inertLine(flat);
	const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((match) => match[0].length));
	const fence = "`".repeat(longest + 1);
	const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
	return `${fence}${pad}${flat}${pad}${fence}`;
}

/** A fenced block around `text` shown as plain code: the fence longer than any backtick run inside, so it cannot close early. */
export function inertFencedBlock(text: string): string {
	const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
	const fence = "`".repeat(longest + 1);
	return `${fence}${INERT_LANGUAGE}\n${text}\n${fence}`;
}

function sureOpener(line: string): { run: string; info: string; fence: Fence } | undefined {
	const match = SURE_OPENER.exec(line);
	const run = match?.[1];
	const info = match?.[2] ?? "";
	if (run === undefined || (run.startsWith("`") && info.includes("`"))) return undefined;
	return { run, info, fence: { char: run.charAt(0), length: run.length } };
}

function fenceLike(line: string): { prefix: string; run: string; info: string } | undefined {
	if (!line.includes("```") && !line.includes("~~~")) return undefined;
	const match = FENCE_LIKE.exec(line);
	const run = match?.[2];
	const info = match?.[3] ?? "";
	if (run === undefined || (run.startsWith("`") && info.includes("`"))) return undefined;
	return { prefix: match?.[1] ?? "", run, info };
}

/** CommonMark: up to three spaces, a run of the opener's character at least as long, then only spaces. */
function closes(line: string, fence: Fence): boolean {
	const run = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line)?.[1];
	return run !== undefined && run.charAt(0) === fence.char && run.length >= fence.length;
}

/**
 * An info string no processor claims: the inert language first, then the original words (shown nowhere by
 * Obsidian, escaped in case the line is prose after all). An empty info string names no language and stays empty.
 */
function inertInfo(info: string): string {
	if (info.trim() === "") return info;
	return `${INERT_LANGUAGE} ${escapeProse(info).replace(/`/g, "&#96;")}`;
}

/**
 * A line of prose: code spans that surely are spans are kept as they are (but for a Dataview query, which is
 * made plain text); everything else is escaped. From the first backtick run without a partner on the line, the
 * rest of the paragraph is escaped whole, backticks included (it may lie inside a span opened there).
 */
function inertProse(line: string, spanMayBeOpen: boolean): { text: string; spanMayBeOpen: boolean } {
	if (spanMayBeOpen || UNTRUSTED_SPAN_LINE.test(line))
		return { text: escapeProse(line).replace(/`/g, "&#96;"), spanMayBeOpen };
	let out = "";
	let index = 0;
	while (index < line.length) {
		const tick = nextBacktick(line, index);
		if (tick === undefined) {
			out += escapeProse(line.slice(index));
			break;
		}
		out += escapeProse(line.slice(index, tick));
		let runEnd = tick;
		while (line.charAt(runEnd) === "`") runEnd++;
		const closer = closingRun(line, runEnd, runEnd - tick);
		if (closer === undefined) {
			return { text: out + escapeProse(line.slice(tick)).replace(/`/g, "&#96;"), spanMayBeOpen: true };
		}
		const span = line.slice(tick, closer.end);
		const content = line.slice(runEnd, closer.start);
		out += INLINE_QUERY.test(content) ? escapeProse(span).replace(/`/g, "&#96;") : span.replace(/%%/g, "%&#37;");
		index = closer.end;
	}
	return { text: out, spanMayBeOpen: false };
}

/** The next backtick that starts a run outside a backslash escape (`\`` is a literal backtick). */
function nextBacktick(line: string, from: number): number | undefined {
	for (let index = from; index < line.length; index++) {
		const char = line.charAt(index);
		if (char === "\\") index++;
		else if (char === "`") return index;
	}
	return undefined;
}

/** The next run of exactly `length` backticks (inside a span a backslash is literal). */
function closingRun(line: string, from: number, length: number): { start: number; end: number } | undefined {
	let search = from;
	while (search < line.length) {
		const start = line.indexOf("`", search);
		if (start < 0) return undefined;
		let end = start;
		while (line.charAt(end) === "`") end++;
		if (end - start === length) return { start, end };
		search = end;
	}
	return undefined;
}

/**
 * Prose with nothing that acts: raw HTML and autolinks (`<`), wikilinks and embeds (`[[`), images (`![`),
 * Obsidian comments (`%%`). Entities rather than backslashes: they are never read as structure.
 */
function escapeProse(text: string): string {
	return text
		.replace(/</g, "&lt;")
		.replace(/\[(?=\[)/g, "&#91;")
		.replace(/!(?=\[)/g, "&#33;")
		.replace(/%%/g, "%&#37;");
}
