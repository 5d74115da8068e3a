/** One text hit as the search tool shows it. */
export interface TextHit {
	path: string;
	/** Where the match starts in the note's search text (UTF-8 bytes). */
	byteAt: number;
	/** Higher is better. */
	score: number;
	/** How many hits its note has (ties between scores: notes with more hits first). */
	noteHits: number;
}

/** The highest score a hit can have (a phrase hit in a note whose path holds the phrase). */
export const MAX_TEXT_SCORE = 3;
/** Hit counts above this tie with it when ranked (a note would need a million matching lines). */
const MAX_RANKED_NOTE_HITS = 2 ** 20 - 1;
/** Hits are numbered below this in the rank key: more than any search can hold in memory. */
const ORDER_LIMIT = 2 ** 31;

/**
 * Text search's hits kept as numbers, not an object each: a common phrase over 100k notes finds a line in every
 * note, and that many objects, all alive until the search ends, cost more in garbage collection than the scan.
 * Ranked like the other modes: score first, then notes with more hits, then the order found (path, then line).
 * Only the page shown is made into objects.
 */
export class TextHitList {
	private readonly paths: string[] = [];
	private readonly notesHits: number[] = [];
	private noteOf = new Int32Array(1024);
	private bytesAt = new Int32Array(1024);
	private scores = new Uint8Array(1024);
	private count = 0;
	private ranked: Float64Array | undefined;

	get length(): number {
		return this.count;
	}

	/** Adds a hit; a note's hits come together, in line order. */
	add(path: string, byteAt: number, score: number): void {
		if (this.count === ORDER_LIMIT) throw new RangeError("too many search hits to rank");
		if (this.paths[this.paths.length - 1] !== path) {
			this.paths.push(path);
			this.notesHits.push(0);
		}
		const note = this.paths.length - 1;
		this.notesHits[note] = (this.notesHits[note] ?? 0) + 1;
		if (this.count === this.noteOf.length) this.grow();
		this.noteOf[this.count] = note;
		this.bytesAt[this.count] = byteAt;
		this.scores[this.count] = Math.min(Math.max(score, 0), MAX_TEXT_SCORE);
		this.count++;
		this.ranked = undefined;
	}

	/** The hits from `start` to `end` (exclusive) in rank order. */
	slice(start: number, end: number): TextHit[] {
		const ranked = this.rank();
		const shown: TextHit[] = [];
		for (let position = Math.max(0, start); position < Math.min(end, this.count); position++) {
			const hit = (ranked[position] ?? 0) % ORDER_LIMIT;
			const note = this.noteOf[hit] ?? 0;
			shown.push({
				path: this.paths[note] ?? "",
				byteAt: this.bytesAt[hit] ?? 0,
				score: this.scores[hit] ?? 0,
				noteHits: this.notesHits[note] ?? 0,
			});
		}
		return shown;
	}

	/**
	 * One number per hit whose numeric order is the rank order: (score from the best down, note hits from the most
	 * down) in the high bits, the order found in the low 31 bits. At most 2 + 20 + 31 bits: exact in a double.
	 */
	private rank(): Float64Array {
		if (this.ranked) return this.ranked;
		const keys = new Float64Array(this.count);
		for (let hit = 0; hit < this.count; hit++) {
			const noteHits = Math.min(this.notesHits[this.noteOf[hit] ?? 0] ?? 0, MAX_RANKED_NOTE_HITS);
			const rank =
				(MAX_TEXT_SCORE - (this.scores[hit] ?? 0)) * (MAX_RANKED_NOTE_HITS + 1) +
				(MAX_RANKED_NOTE_HITS - noteHits);
			keys[hit] = rank * ORDER_LIMIT + hit;
		}
		keys.sort();
		this.ranked = keys;
		return keys;
	}

	private grow(): void {
		const size = this.noteOf.length * 2;
		const noteOf = new Int32Array(size);
		noteOf.set(this.noteOf);
		const bytesAt = new Int32Array(size);
		bytesAt.set(this.bytesAt);
		const scores = new Uint8Array(size);
		scores.set(this.scores);
		[this.noteOf, this.bytesAt, this.scores] = [noteOf, bytesAt, scores];
	}
}
