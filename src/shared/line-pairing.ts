import { wordTokens } from "./word-tokens";

/**
 * A step through a block of replaced lines: one old line reworded into one new line (`paired`), or old lines that
 * went and new lines that came with no line like them on the other side (either may be empty).
 */
export interface LineGroup {
	paired: boolean;
	removed: string;
	added: string;
}

/** Lines sharing less of their words than this are not one line reworded. */
const MIN_SIMILARITY = 0.3;
/** Blocks bigger than this (old lines × new lines) are not paired. */
const MAX_PAIRINGS = 2_500;

/**
 * Pairs each old line of a replaced block with the new line that rewords it, keeping their order and pairing the
 * most words overall (each line's words weighed by their length): in "- b / - c" becoming "- c, then d" the line
 * "- b" went and "- c" was reworded. Lines are given with their line breaks. Undefined for blocks too big to pair.
 */
export function pairLines(removed: readonly string[], added: readonly string[]): LineGroup[] | undefined {
	if (removed.length * added.length > MAX_PAIRINGS) return undefined;
	const oldWords = removed.map(weighedWords);
	const newWords = added.map(weighedWords);
	const rows = removed.length + 1;
	const columns = added.length + 1;
	// best[i][j]: the most similarity pairing the first i old lines with the first j new lines can reach.
	const best: number[][] = Array.from({ length: rows }, () => new Array<number>(columns).fill(0));
	const similar: number[][] = Array.from({ length: rows }, () => new Array<number>(columns).fill(0));
	for (let i = 1; i < rows; i++) {
		for (let j = 1; j < columns; j++) {
			const similarity = dice(oldWords[i - 1], newWords[j - 1]);
			similar[i][j] = similarity;
			const paired = similarity >= MIN_SIMILARITY ? best[i - 1][j - 1] + similarity : -1;
			best[i][j] = Math.max(best[i - 1][j], best[i][j - 1], paired);
		}
	}
	const steps: LineGroup[] = [];
	let i = removed.length;
	let j = added.length;
	const unpaired = (line: string, side: "removed" | "added"): void => {
		const first = steps[0];
		if (first && !first.paired) first[side] = line + first[side];
		else
			steps.unshift({
				paired: false,
				removed: side === "removed" ? line : "",
				added: side === "added" ? line : "",
			});
	};
	while (i > 0 || j > 0) {
		const here = best[i][j];
		const similarity = similar[i][j];
		if (i > 0 && j > 0 && similarity >= MIN_SIMILARITY && here === best[i - 1][j - 1] + similarity) {
			steps.unshift({ paired: true, removed: removed[i - 1], added: added[j - 1] });
			i--;
			j--;
		} else if (j > 0 && (i === 0 || here === best[i][j - 1])) {
			unpaired(added[j - 1], "added");
			j--;
		} else {
			unpaired(removed[i - 1], "removed");
			i--;
		}
	}
	return steps;
}

/** A line's words (spaces trimmed), each counted with its length. */
function weighedWords(line: string): Map<string, number> {
	const words = new Map<string, number>();
	for (const token of wordTokens(line)) {
		const word = token.trim();
		if (word !== "") words.set(word, (words.get(word) ?? 0) + word.length);
	}
	return words;
}

/** How much of two lines' words they share, from 0 to 1 (Dice's coefficient, weighed by length). */
function dice(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
	let total = 0;
	let shared = 0;
	for (const [word, weight] of a) {
		total += weight;
		shared += Math.min(weight, b.get(word) ?? 0);
	}
	for (const weight of b.values()) total += weight;
	return total === 0 ? 1 : (2 * shared) / total;
}
