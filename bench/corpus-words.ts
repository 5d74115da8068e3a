/**
 * What the generated bench vaults are written with: a small vocabulary for their prose and titles, and the
 * deterministic sequence that picks from it (the same linear congruential generator in every corpus, so a count
 * always makes the same bytes).
 */
export const PROSE_WORDS = [
	"garden",
	"river",
	"project",
	"meeting",
	"idea",
	"review",
	"draft",
	"summer",
	"budget",
	"travel",
	"reading",
	"notes",
	"plan",
	"question",
	"answer",
	"design",
	"system",
	"people",
	"weekly",
	"archive",
];

/** Integers from a linear congruential generator started at `seed`. */
export function lcg(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state * 1103515245 + 12345) % 2147483648;
		return state;
	};
}
