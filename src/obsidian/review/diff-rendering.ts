import { groupHunks, toSideBySide } from "../../review/diff-layout";
import type { DiffLine } from "../../shared/word-diff";

export type DiffLayoutMode = "unified" | "side-by-side";

/**
 * Draws a line diff with word highlights: hunks with three lines of context, folded unchanged lines between; each
 * fold is a button that calls `showAll`, after which the caller draws it again with `expanded`.
 */
export function renderDiff(
	parent: HTMLElement,
	lines: readonly DiffLine[],
	mode: DiffLayoutMode,
	folds: { expanded?: boolean; showAll?: () => void } = {},
): void {
	const table = parent.createDiv({ cls: ["ccb-diff", `ccb-diff-${mode}`] });
	if (lines.every((line) => line.kind === "context")) {
		table.createDiv({ cls: "ccb-diff-empty", text: "No changes: the proposal is the same as the note." });
		return;
	}
	if (mode === "side-by-side") {
		const labels = table.createDiv({ cls: ["ccb-diff-row", "ccb-diff-labels"] });
		labels.createDiv({ cls: "ccb-diff-label", text: "Before" });
		labels.createDiv({ cls: "ccb-diff-label", text: "After" });
	}
	const { hunks, hiddenAfter } =
		folds.expanded === true
			? { hunks: [{ hiddenBefore: 0, lines: [...lines] }], hiddenAfter: 0 }
			: groupHunks(lines);
	for (const hunk of hunks) {
		if (hunk.hiddenBefore > 0) renderFold(table, hunk.hiddenBefore, folds.showAll);
		if (mode === "unified") hunk.lines.forEach((line) => renderUnifiedLine(table, line));
		else toSideBySide(hunk.lines).forEach((row) => renderSideBySideRow(table, row.left, row.right));
	}
	if (hiddenAfter > 0) renderFold(table, hiddenAfter, folds.showAll);
}

function renderFold(parent: HTMLElement, count: number, showAll: (() => void) | undefined): void {
	const fold = parent.createEl("button", {
		cls: "ccb-diff-fold",
		text: count === 1 ? "1 unchanged line" : `${count} unchanged lines`,
	});
	if (showAll) fold.addEventListener("click", showAll);
}

const SIGNS = { context: " ", added: "+", removed: "−" } as const;

function renderUnifiedLine(parent: HTMLElement, line: DiffLine): void {
	const row = parent.createDiv({ cls: ["ccb-diff-line", `ccb-diff-${line.kind}`] });
	row.createSpan({ cls: "ccb-diff-number", text: line.oldNumber === undefined ? "" : String(line.oldNumber) });
	row.createSpan({ cls: "ccb-diff-number", text: line.newNumber === undefined ? "" : String(line.newNumber) });
	row.createSpan({ cls: "ccb-diff-sign", text: SIGNS[line.kind] });
	renderText(row, line);
}

function renderSideBySideRow(parent: HTMLElement, left: DiffLine | undefined, right: DiffLine | undefined): void {
	const row = parent.createDiv({ cls: "ccb-diff-row" });
	renderHalf(row, left, "old");
	renderHalf(row, left === right ? left : right, "new");
}

function renderHalf(row: HTMLElement, line: DiffLine | undefined, side: "old" | "new"): void {
	const half = row.createDiv({ cls: ["ccb-diff-half", line ? `ccb-diff-${line.kind}` : "ccb-diff-blank"] });
	if (!line) return;
	const number = side === "old" ? line.oldNumber : line.newNumber;
	half.createSpan({ cls: "ccb-diff-number", text: number === undefined ? "" : String(number) });
	renderText(half, line);
}

function renderText(parent: HTMLElement, line: DiffLine): void {
	const text = parent.createSpan({ cls: "ccb-diff-text" });
	for (const segment of line.segments) {
		if (segment.kind === "equal") text.createSpan({ text: segment.text });
		else text.createSpan({ cls: `ccb-diff-word-${segment.kind}`, text: segment.text });
	}
}
