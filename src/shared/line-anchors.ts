import { diffArrays } from "diff";

/** A stretch of lines in both texts, or only in the old one, or only in the new one. */
export interface LineRun {
	kind: "same" | "removed" | "added";
	lines: string[];
}

/**
 * Compares two texts' lines keeping every line that occurs once in each text, in the same order, as unchanged
 * (patience diff's anchors), then the lines between two anchors with jsdiff's diffArrays. A plain shortest diff
 * may match a run of blank lines instead of a paragraph that did not change, and show the paragraph as deleted
 * and added again; a paragraph a writer did not touch is never part of a change here. Between two anchors, more
 * than `maxEdits` line edits are shown as all lines there replaced.
 */
export function compareLines(before: readonly string[], after: readonly string[], maxEdits: number): LineRun[] {
	const runs: LineRun[] = [];
	const push = (kind: LineRun["kind"], lines: readonly string[]): void => {
		if (lines.length === 0) return;
		const last = runs[runs.length - 1];
		if (last?.kind === kind) last.lines.push(...lines);
		else runs.push({ kind, lines: [...lines] });
	};
	let oldAt = 0;
	let newAt = 0;
	for (const [oldAnchor, newAnchor] of [...anchors(before, after), [before.length, after.length] as const]) {
		const oldPart = before.slice(oldAt, oldAnchor);
		const newPart = after.slice(newAt, newAnchor);
		const changes = diffArrays(oldPart, newPart, { maxEditLength: maxEdits });
		if (changes) {
			for (const change of changes)
				push(change.added ? "added" : change.removed ? "removed" : "same", change.value);
		} else {
			push("removed", oldPart);
			push("added", newPart);
		}
		if (oldAnchor < before.length) push("same", [before[oldAnchor] ?? ""]);
		oldAt = oldAnchor + 1;
		newAt = newAnchor + 1;
	}
	return runs;
}

/**
 * The lines found exactly once in each text (blank lines aside), as [old index, new index], in one order in both,
 * keeping as much text as can be kept that way: a paragraph outweighs a short line that moved across it.
 */
function anchors(before: readonly string[], after: readonly string[]): [number, number][] {
	const counts = new Map<string, { old: number; new: number; newIndex: number }>();
	before.forEach((line) => {
		const count = counts.get(line) ?? { old: 0, new: 0, newIndex: -1 };
		count.old++;
		counts.set(line, count);
	});
	after.forEach((line, index) => {
		const count = counts.get(line);
		if (!count) return;
		count.new++;
		count.newIndex = index;
	});
	const pairs: Anchor[] = [];
	before.forEach((line, index) => {
		const count = counts.get(line);
		const weight = line.trim().length;
		if (count && count.old === 1 && count.new === 1 && weight > 0)
			pairs.push({ oldIndex: index, newIndex: count.newIndex, weight });
	});
	return heaviestIncreasing(pairs, after.length).map((pair) => [pair.oldIndex, pair.newIndex]);
}

interface Anchor {
	oldIndex: number;
	newIndex: number;
	weight: number;
}

/**
 * Of pairs in old order, the run whose new indexes increase too with the most weight: each pair extends the
 * heaviest run ending at a smaller new index, found in a Fenwick tree of the best run ending at each new index.
 */
function heaviestIncreasing(pairs: readonly Anchor[], size: number): Anchor[] {
	const tree: { weight: number; pair: number }[] = Array.from({ length: size + 1 }, () => ({ weight: 0, pair: -1 }));
	const previous: number[] = [];
	const total: number[] = [];
	let best = -1;
	pairs.forEach((pair, index) => {
		let heaviest = { weight: 0, pair: -1 };
		for (let at = pair.newIndex; at > 0; at -= at & -at) if (tree[at].weight > heaviest.weight) heaviest = tree[at];
		previous[index] = heaviest.pair;
		total[index] = heaviest.weight + pair.weight;
		for (let at = pair.newIndex + 1; at <= size; at += at & -at)
			if (total[index] > tree[at].weight) tree[at] = { weight: total[index], pair: index };
		if (best < 0 || total[index] > total[best]) best = index;
	});
	const run: Anchor[] = [];
	for (let index = best; index >= 0; index = previous[index]) run.unshift(pairs[index]);
	return run;
}
