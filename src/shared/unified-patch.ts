import { compareLines } from "./line-anchors";

interface PatchLine {
	mark: " " | "-" | "+";
	text: string;
	/** The last line of a text that does not end with a line break. */
	unterminated: boolean;
}

/** More line edits than this between two unchanged unique lines show as the whole stretch replaced. */
const MAX_LINE_EDITS = 2_000;

/**
 * A unified diff of two texts (as `diff -u` and git print it), with `context` unchanged lines around each change, for
 * showing a planned change to a settings file before it is written. Lines are compared as the review compares them
 * (`compareLines`), so the patch shows the same change the writer would mark.
 */
export function unifiedPatch(name: string, before: string, after: string, oldLabel = "", context = 3): string {
	const oldLines = linesOf(before);
	const newLines = linesOf(after);
	const lines: PatchLine[] = [];
	for (const run of compareLines(oldLines, newLines, MAX_LINE_EDITS))
		for (const text of run.lines) {
			const unterminated = text.endsWith(NO_LINE_BREAK);
			lines.push({
				mark: run.kind === "same" ? " " : run.kind === "removed" ? "-" : "+",
				text: unterminated ? text.slice(0, -1) : text,
				unterminated,
			});
		}
	const header = [`--- ${name}${oldLabel === "" ? "" : `\t${oldLabel}`}`, `+++ ${name}`];
	return [...header, ...hunks(lines, context)].join("\n") + "\n";
}

/**
 * Marks a last line without a line break, so that it differs from the same words with one: diff shows that line as
 * changed, with its "No newline" note.
 */
const NO_LINE_BREAK = "\uffff";

function linesOf(text: string): string[] {
	if (text === "") return [];
	const lines = text.split("\n");
	if (text.endsWith("\n")) lines.pop();
	else lines[lines.length - 1] += NO_LINE_BREAK;
	return lines;
}

function hunks(lines: readonly PatchLine[], context: number): string[] {
	const changed = lines.flatMap((line, index) => (line.mark === " " ? [] : [index]));
	const out: string[] = [];
	let index = 0;
	while (index < changed.length) {
		const first = changed[index] ?? 0;
		let last = first;
		while (index + 1 < changed.length && (changed[index + 1] ?? 0) - last <= 2 * context + 1)
			last = changed[++index] ?? last;
		index++;
		const start = Math.max(0, first - context);
		const end = Math.min(lines.length, last + context + 1);
		const before = lines.slice(0, start);
		const hunk = lines.slice(start, end);
		const oldStart = before.filter((line) => line.mark !== "+").length;
		const newStart = before.filter((line) => line.mark !== "-").length;
		const oldCount = hunk.filter((line) => line.mark !== "+").length;
		const newCount = hunk.filter((line) => line.mark !== "-").length;
		out.push(`@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`);
		for (const line of hunk) {
			out.push(`${line.mark}${line.text}`);
			if (line.unterminated) out.push("\\ No newline at end of file");
		}
	}
	return out;
}

/** A hunk's range as diff prints it: the first line (1-based; the line before for an empty range) and the count. */
function range(start: number, count: number): string {
	return count === 0 ? `${start},0` : `${start + 1},${count}`;
}
