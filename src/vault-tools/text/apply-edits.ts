import { factsFromText } from "../../vault/notes/note-facts";
import type { YamlCodec } from "../../shared/yaml-codec";
import { LineTable } from "../../vault/markdown/line-table";
import { TargetError, locateTarget, parseTarget, type EditTarget, type TargetRegion } from "./edit-targets";
import { describeError } from "../../shared/describe-error";

export const EDIT_OPERATIONS = ["replace", "append", "prepend", "insert_after", "delete"] as const;
export type EditOperation = (typeof EDIT_OPERATIONS)[number];

export interface NoteEdit {
	target: EditTarget;
	op: EditOperation;
	content: string;
}

export interface AppliedEdit {
	label: string;
	op: EditOperation;
}

/** Reads the `edits` argument; throws TargetError with the edit's number for anything malformed. */
export function parseEdits(value: unknown): NoteEdit[] {
	if (!Array.isArray(value) || value.length === 0)
		throw new TargetError('"edits" must be a non-empty array of {target, op, content}');
	return value.map((item: unknown, index) => {
		const where = `edit ${index + 1}`;
		if (typeof item !== "object" || item === null || Array.isArray(item))
			throw new TargetError(`${where} must be an object {target, op, content}`);
		const record = item as Record<string, unknown>;
		const op = record.op;
		if (typeof op !== "string" || !(EDIT_OPERATIONS as readonly string[]).includes(op)) {
			throw new TargetError(`${where}: "op" must be one of ${EDIT_OPERATIONS.join(", ")}`);
		}
		const content = record.content ?? (op === "delete" ? "" : undefined);
		if (typeof content !== "string")
			throw new TargetError(`${where}: "content" must be a string (it may be "" only for replace and delete)`);
		if (content === "" && op !== "delete" && op !== "replace")
			throw new TargetError(`${where}: "content" is empty, so ${op} would change nothing`);
		try {
			return { target: parseTarget(record.target), op: op as EditOperation, content };
		} catch (error) {
			if (error instanceof TargetError) throw new TargetError(`${where}: ${error.message}`);
			throw error;
		}
	});
}

/**
 * Applies edits one after the other, each to the result of the one before, and returns the new text. Any edit
 * whose target is missing or ambiguous throws TargetError, so a caller that applies the result only on success
 * changes nothing. Bytes outside the targets are kept exactly; inserted content takes the note's line ends.
 */
export function applyEdits(
	text: string,
	edits: readonly NoteEdit[],
	yaml: YamlCodec,
): { text: string; applied: AppliedEdit[] } {
	let current = text;
	const applied: AppliedEdit[] = [];
	edits.forEach((edit, index) => {
		try {
			const table = new LineTable(current);
			const region = locateTarget(current, factsFromText("", current, yaml), edit.target, table);
			current = applyOne(table, region, edit, yaml);
			applied.push({ label: region.label, op: edit.op });
		} catch (error) {
			if (error instanceof TargetError)
				throw new TargetError(edits.length > 1 ? `edit ${index + 1}: ${error.message}` : error.message);
			throw error;
		}
	});
	return { text: current, applied };
}

function applyOne(table: LineTable, region: TargetRegion, edit: NoteEdit, yaml: YamlCodec): string {
	const text = table.text;
	const eol = table.lineEnd;
	const content = edit.content.replace(/\r\n|\r|\n/g, eol);
	let result: string;
	if (!region.lineWise) {
		switch (edit.op) {
			case "replace":
				result = splice(text, region.outerStart, region.outerEnd, content);
				break;
			case "delete":
				result = splice(text, region.outerStart, region.outerEnd, "");
				break;
			case "append":
				result = splice(text, region.outerEnd, region.outerEnd, content);
				break;
			case "prepend":
				result = splice(text, region.outerStart, region.outerStart, content);
				break;
			case "insert_after":
				result = insertLines(text, region.afterEnd, content, eol);
				break;
		}
		return result;
	}
	switch (edit.op) {
		case "replace":
			result = replaceLines(table, region, content, eol);
			break;
		case "delete":
			result = splice(text, region.outerStart, region.outerEnd, "");
			break;
		case "append":
			result = insertLines(text, region.kind === "block" ? region.afterEnd : region.innerEnd, content, eol);
			break;
		case "prepend":
			result = insertLines(text, region.kind === "block" ? region.outerStart : region.innerStart, content, eol);
			break;
		case "insert_after":
			result = insertLines(text, region.afterEnd, content, eol);
			break;
	}
	if (region.kind === "frontmatter" && edit.op !== "delete") checkFrontmatterStillParses(result, yaml);
	return result;
}

function replaceLines(table: LineTable, region: TargetRegion, content: string, eol: string): string {
	const text = table.text;
	if (
		region.kind === "heading" &&
		region.heading &&
		repeatsHeading(content, region.heading.text, region.heading.level)
	) {
		// The content brings its own heading line: it replaces the whole section, not just the body below it.
		return replaceRange(
			text,
			region.outerStart,
			trimTrailingBlankLines(table, region.outerStart, region.outerEnd),
			content,
			eol,
		);
	}
	let replacement = content;
	if (
		region.kind === "block" &&
		region.blockId !== undefined &&
		!new RegExp(`(?:^|\\s)\\^${region.blockId}\\s*$`, "i").test(content.trimEnd())
	) {
		// Keep the block id, so links to ^id still resolve.
		const ownLine = table.line(table.lineAt(Math.max(region.outerStart, region.outerEnd - 1))).trim();
		replacement = ownLine.startsWith("^")
			? `${content.replace(/(?:\r\n|\r|\n)+$/, "")}${eol}^${region.blockId}`
			: `${content.replace(/\s+$/, "")} ^${region.blockId}`;
	}
	return replaceRange(text, region.replaceStart, region.innerEnd, replacement, eol);
}

function repeatsHeading(content: string, headingText: string, level: number): boolean {
	const firstLine = content.split(/\r\n|\r|\n/, 1)[0] ?? "";
	const match = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/.exec(firstLine);
	return match?.[1]?.length === level && (match[2] ?? "").trim() === headingText.trim();
}

function trimTrailingBlankLines(table: LineTable, from: number, to: number): number {
	let end = to;
	for (let line = to > from ? table.lineAt(to - 1) : -1; line >= 0; line--) {
		const start = table.starts[line] ?? 0;
		if (start < from || table.line(line).trim() !== "") break;
		end = start;
	}
	return end;
}

/** Replaces [start, end) with whole lines of content: ends with a line end when the replaced text did. */
function replaceRange(text: string, start: number, end: number, content: string, eol: string): string {
	if (start === end) return content === "" ? text : insertLines(text, start, content, eol);
	const replacedEndedWithBreak = end > start ? /[\r\n]$/.test(text.slice(start, end)) : end < text.length;
	let block = content.replace(/(?:\r\n|\r|\n)$/, "");
	if (content !== "" && replacedEndedWithBreak) block += eol;
	if (start > 0 && !/[\r\n]$/.test(text.slice(0, start)) && block !== "") block = eol + block;
	return splice(text, start, end, block);
}

/** Inserts content as whole lines at a line start (or at the end of the text). */
function insertLines(text: string, at: number, content: string, eol: string): string {
	let block = content.replace(/(?:\r\n|\r|\n)$/, "");
	const atLineStart = at === 0 || /[\r\n]$/.test(text.slice(0, at));
	if (!atLineStart) block = eol + block;
	if (at < text.length) block += eol;
	else if (atLineStart && text !== "" && at === text.length) block += eol;
	return splice(text, at, at, block);
}

function splice(text: string, start: number, end: number, insert: string): string {
	return text.slice(0, start) + insert + text.slice(end);
}

function checkFrontmatterStillParses(text: string, codec: YamlCodec): void {
	const facts = factsFromText("", text, codec);
	if (!facts.frontmatter) throw new TargetError("the edit would leave the note without a closed frontmatter block");
	const yaml = new LineTable(text);
	const lines: string[] = [];
	for (let line = 1; line < facts.frontmatter.endLine; line++) lines.push(yaml.line(line));
	try {
		codec.parse(lines.join("\n"));
	} catch (error) {
		throw new TargetError(
			`the edit would make the frontmatter invalid YAML (${describeError(error).split("\n", 1)[0] ?? ""})`,
		);
	}
}
