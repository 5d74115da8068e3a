import type { DiffLine } from "../shared/word-diff";

/** Changed lines with their surrounding context; `hiddenBefore` unchanged lines are folded away before it. */
export interface DiffHunk {
	hiddenBefore: number;
	lines: DiffLine[];
}

export interface HunkLayout {
	hunks: DiffHunk[];
	/** Unchanged lines folded away after the last hunk. */
	hiddenAfter: number;
}

/** Groups a line diff into hunks with `context` unchanged lines around each change. */
export function groupHunks(lines: readonly DiffLine[], context = 3): HunkLayout {
	const changed = lines.map((line) => line.kind !== "context");
	const visible = lines.map((_, index) => {
		for (let near = Math.max(0, index - context); near <= Math.min(lines.length - 1, index + context); near++) {
			if (changed[near]) return true;
		}
		return false;
	});
	const hunks: DiffHunk[] = [];
	let hidden = 0;
	let current: DiffHunk | undefined;
	lines.forEach((line, index) => {
		if (!visible[index]) {
			current = undefined;
			hidden++;
			return;
		}
		if (!current) {
			current = { hiddenBefore: hidden, lines: [] };
			hunks.push(current);
			hidden = 0;
		}
		current.lines.push(line);
	});
	return { hunks, hiddenAfter: hidden };
}

/** One row of the side-by-side layout: the current note on the left, the proposal on the right. */
export interface SideBySideRow {
	left?: DiffLine;
	right?: DiffLine;
}

/** Pairs each block of removed lines with the added lines that follow it, row by row. */
export function toSideBySide(lines: readonly DiffLine[]): SideBySideRow[] {
	const rows: SideBySideRow[] = [];
	let removed: DiffLine[] = [];
	let added: DiffLine[] = [];
	const flush = (): void => {
		for (let i = 0; i < Math.max(removed.length, added.length); i++)
			rows.push({ left: removed[i], right: added[i] });
		removed = [];
		added = [];
	};
	for (const line of lines) {
		if (line.kind === "removed") {
			if (added.length > 0) flush();
			removed.push(line);
		} else if (line.kind === "added") {
			added.push(line);
		} else {
			flush();
			rows.push({ left: line, right: line });
		}
	}
	flush();
	return rows;
}
