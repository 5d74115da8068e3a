import { headingKey } from "../../vault/markdown/subpath-match";
import type { HeadingFact, NoteFacts } from "../../vault/markdown/note-model";
import { LineTable } from "../../vault/markdown/line-table";

/** What an edit or a section read addresses in a note. */
export type EditTarget =
	| { kind: "heading"; parts: string[]; spelled: string }
	| { kind: "block"; id: string }
	| { kind: "frontmatter" }
	| { kind: "oldText"; text: string };

/** A target that does not exist, or exists more than once: the message says which and what to do. */
export class TargetError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "TargetError";
	}
}

/**
 * A target's place in the text, as offsets. `outer` is everything the target is (a whole section with its
 * heading, a block's lines, the frontmatter with its fences, the matched text); `inner` is its content (a
 * section's body without the heading and trailing blank lines, the YAML between the fences).
 */
export interface TargetRegion {
	kind: EditTarget["kind"];
	/** How to name the target in messages, e.g. `heading "A > B" (line 12)`. */
	label: string;
	outerStart: number;
	outerEnd: number;
	innerStart: number;
	innerEnd: number;
	/** Where `insert_after` puts new lines. */
	afterEnd: number;
	/** Where `replace` starts: the inner region without its leading blank lines. */
	replaceStart: number;
	/** True when content goes in as whole lines (all but `oldText`). */
	lineWise: boolean;
	heading?: HeadingFact;
	blockId?: string;
}

/** Reads a target as the tools take it: "frontmatter", "^blockid", a heading path "A > B", or {oldText}. */
export function parseTarget(value: unknown): EditTarget {
	if (typeof value === "object" && value !== null && !Array.isArray(value)) {
		const oldText = (value as Record<string, unknown>).oldText;
		if (typeof oldText !== "string" || oldText === "")
			throw new TargetError(
				'a target object must be {"oldText": "<exact text that occurs once>"} with non-empty text',
			);
		return { kind: "oldText", text: oldText };
	}
	if (typeof value !== "string" || value.trim() === "") {
		throw new TargetError(
			'target must be a heading path ("Heading > Sub"), "^blockid", "frontmatter", or {"oldText": "..."}',
		);
	}
	const spelled = value.trim();
	if (spelled.toLowerCase() === "frontmatter") return { kind: "frontmatter" };
	if (spelled.startsWith("^")) {
		const id = spelled.slice(1);
		if (!/^[A-Za-z0-9-]+$/.test(id))
			throw new TargetError(`"${spelled}" is not a block id: use ^ followed by letters, digits or -`);
		return { kind: "block", id };
	}
	const parts = spelled
		.replace(/^#\s*/, "")
		.split(">")
		.map((part) => part.trim().replace(/^#+\s+/, ""))
		.map(headingKey);
	if (parts.some((part) => part === ""))
		throw new TargetError(`"${spelled}" has an empty part; write a heading path like "Heading > Sub"`);
	return { kind: "heading", parts, spelled };
}

/** Finds the target in the text; throws TargetError when it is missing or not unique. */
export function locateTarget(
	text: string,
	facts: NoteFacts,
	target: EditTarget,
	table = new LineTable(text),
): TargetRegion {
	switch (target.kind) {
		case "heading":
			return headingRegion(table, facts, target);
		case "block":
			return blockRegion(table, facts, target.id);
		case "frontmatter":
			return frontmatterRegion(table, facts);
		case "oldText":
			return oldTextRegion(table, target.text);
	}
}

/** `A > B > C` for a heading, from the headings above it. */
export function headingPath(headings: readonly HeadingFact[], index: number): string {
	return ancestry(headings, index)
		.map((position) => headings[position]?.text ?? "")
		.join(" > ");
}

/** Indexes of the heading and the headings it is nested in, outermost first. */
function ancestry(headings: readonly HeadingFact[], index: number): number[] {
	const chain = [index];
	let level = headings[index]?.level ?? 1;
	for (let position = index - 1; position >= 0 && level > 1; position--) {
		const heading = headings[position];
		if (heading && heading.level < level) {
			chain.unshift(position);
			level = heading.level;
		}
	}
	return chain;
}

/** The line where the section of heading `index` ends (exclusive): the next heading of the same or a higher level. */
export function sectionEndLine(headings: readonly HeadingFact[], index: number, lineCount: number): number {
	const level = headings[index]?.level ?? 1;
	for (let position = index + 1; position < headings.length; position++) {
		const heading = headings[position];
		if (heading && heading.level <= level) return heading.line;
	}
	return lineCount;
}

function headingRegion(
	table: LineTable,
	facts: NoteFacts,
	target: Extract<EditTarget, { kind: "heading" }>,
): TargetRegion {
	const headings = facts.headings;
	const last = target.parts[target.parts.length - 1] ?? "";
	const matches: number[] = [];
	headings.forEach((heading, index) => {
		if (headingKey(heading.text) !== last) return;
		const chainKeys = ancestry(headings, index)
			.slice(0, -1)
			.map((position) => headingKey(headings[position]?.text ?? ""));
		let from = 0;
		for (const part of target.parts.slice(0, -1)) {
			const found = chainKeys.indexOf(part, from);
			if (found < 0) return;
			from = found + 1;
		}
		matches.push(index);
	});
	if (matches.length === 0) {
		const known = headings.slice(0, 40).map((_, index) => `"${headingPath(headings, index)}"`);
		const list =
			known.length === 0
				? "the note has no headings"
				: `its headings: ${known.join(", ")}${headings.length > 40 ? ", …" : ""}`;
		throw new TargetError(`no heading "${target.spelled}" in the note (${list})`);
	}
	if (matches.length > 1) {
		const where = matches
			.map((index) => `"${headingPath(headings, index)}" (line ${(headings[index]?.line ?? 0) + 1})`)
			.join(", ");
		throw new TargetError(
			`heading "${target.spelled}" is ambiguous: it matches ${where}; give a longer path like "Parent > Heading" or use {"oldText": …}`,
		);
	}
	const index = matches[0] ?? 0;
	const heading = headings[index];
	const endLine = sectionEndLine(headings, index, table.count);
	const outerStart = table.starts[heading.line] ?? 0;
	const outerEnd = endLine < table.count ? (table.starts[endLine] ?? table.text.length) : table.text.length;
	const innerStart =
		heading.endLine + 1 < table.count ? (table.starts[heading.endLine + 1] ?? outerEnd) : table.text.length;
	const innerEnd = Math.max(innerStart, endOfLastNonBlankLine(table, heading.endLine + 1, endLine, outerEnd));
	let replaceStart = innerStart;
	for (
		let line = heading.endLine + 1;
		line < endLine && (table.starts[line] ?? innerEnd) < innerEnd && table.line(line).trim() === "";
		line++
	) {
		replaceStart = table.starts[line + 1] ?? innerEnd;
	}
	return {
		kind: "heading",
		label: `heading "${headingPath(headings, index)}" (line ${heading.line + 1})`,
		outerStart,
		outerEnd,
		innerStart,
		innerEnd,
		afterEnd: outerEnd,
		replaceStart: Math.min(replaceStart, innerEnd),
		lineWise: true,
		heading,
	};
}

/** Offset just after the line end of the last non-blank line in [from, to); `fallback` when all are blank. */
function endOfLastNonBlankLine(table: LineTable, from: number, to: number, fallback: number): number {
	for (let line = to - 1; line >= from; line--) {
		if (table.line(line).trim() !== "")
			return line + 1 < table.count ? (table.starts[line + 1] ?? fallback) : table.text.length;
	}
	return from < table.count ? (table.starts[from] ?? fallback) : fallback;
}

const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s/;
const HEADING_LINE = /^ {0,3}#{1,6}(?:\s|$)/;

function blockRegion(table: LineTable, facts: NoteFacts, id: string): TargetRegion {
	const wanted = id.toLowerCase();
	const found = facts.blockIds.filter((block) => block.id.toLowerCase() === wanted);
	if (found.length === 0) {
		const known = facts.blockIds.slice(0, 30).map((block) => `^${block.id}`);
		throw new TargetError(
			`no block ^${id} in the note (${known.length === 0 ? "the note has no block ids" : `its block ids: ${known.join(", ")}`})`,
		);
	}
	if (found.length > 1) {
		throw new TargetError(
			`block ^${id} is ambiguous: the note has it ${found.length} times (lines ${found.map((block) => block.line + 1).join(", ")}); use {"oldText": …} instead`,
		);
	}
	const line = found[0]?.line ?? 0;
	let first = line;
	const own = table.line(line);
	const idOnItsOwn = own.trim().toLowerCase() === `^${wanted}`;
	if (idOnItsOwn || !LIST_ITEM.test(own)) {
		const floor = facts.frontmatter ? facts.frontmatter.endLine + 1 : 0;
		while (first - 1 >= floor) {
			const above = table.line(first - 1);
			if (above.trim() === "" || HEADING_LINE.test(above)) break;
			first--;
			if (LIST_ITEM.test(above) && !idOnItsOwn) break;
		}
	}
	const outerStart = table.starts[first] ?? 0;
	const outerEnd = line + 1 < table.count ? (table.starts[line + 1] ?? table.text.length) : table.text.length;
	return {
		kind: "block",
		label: `block ^${id} (line ${first + 1}${first === line ? "" : `-${line + 1}`})`,
		outerStart,
		outerEnd,
		innerStart: outerStart,
		innerEnd: outerEnd,
		afterEnd: outerEnd,
		replaceStart: outerStart,
		lineWise: true,
		blockId: found[0]?.id ?? id,
	};
}

function frontmatterRegion(table: LineTable, facts: NoteFacts): TargetRegion {
	const frontmatter = facts.frontmatter;
	if (!frontmatter) throw new TargetError("the note has no frontmatter (use set_properties to add properties)");
	const end = frontmatter.endLine;
	const outerEnd = end + 1 < table.count ? (table.starts[end + 1] ?? table.text.length) : table.text.length;
	return {
		kind: "frontmatter",
		label: `frontmatter (lines 1-${end + 1})`,
		outerStart: 0,
		outerEnd,
		innerStart: table.starts[1] ?? 0,
		innerEnd: table.starts[end] ?? 0,
		afterEnd: outerEnd,
		replaceStart: table.starts[1] ?? 0,
		lineWise: true,
	};
}

function oldTextRegion(table: LineTable, wanted: string): TargetRegion {
	const text = table.text;
	const first = text.indexOf(wanted);
	if (first < 0) {
		const hint = text.toLowerCase().includes(wanted.toLowerCase())
			? " (it occurs with different upper/lower case)"
			: "";
		throw new TargetError(
			`oldText not found in the note${hint}; it must match the note's text exactly, white space included`,
		);
	}
	const second = text.indexOf(wanted, first + 1);
	if (second >= 0) {
		const lines: number[] = [];
		for (let at = first; at >= 0 && lines.length < 10; at = text.indexOf(wanted, at + 1))
			lines.push(table.lineAt(at) + 1);
		throw new TargetError(
			`oldText is ambiguous: it occurs more than once (lines ${lines.join(", ")}); include more surrounding text so it matches once`,
		);
	}
	const end = first + wanted.length;
	const lastLine = table.lineAt(Math.max(first, end - 1));
	const afterEnd = lastLine + 1 < table.count ? (table.starts[lastLine + 1] ?? text.length) : text.length;
	return {
		kind: "oldText",
		label: `oldText at line ${table.lineAt(first) + 1}`,
		outerStart: first,
		outerEnd: end,
		innerStart: first,
		innerEnd: end,
		afterEnd,
		replaceStart: first,
		lineWise: false,
	};
}
