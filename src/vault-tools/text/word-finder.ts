/** Letters from the most to the least frequent in English prose. */
const LETTERS_BY_FREQUENCY = "etaoinshrdlcumwfgypbvkjxqz";
/** Patterns of up to this many bytes are found with a memchr of their first byte (longer ones by Boyer-Moore-Horspool). */
const SHORT_PATTERN = 6;

/** How common a character is in the texts searched (higher is more common). */
export type Commonness = (character: string) => number;

/** In English prose: letters by their frequency; digits as common as mid-frequency letters; anything else rare. */
export function englishCommonness(character: string): number {
	const rank = LETTERS_BY_FREQUENCY.indexOf(character);
	if (rank >= 0) return LETTERS_BY_FREQUENCY.length - rank;
	return character >= "0" && character <= "9" ? LETTERS_BY_FREQUENCY.length / 2 : 0;
}

/**
 * In these texts (a sample of the notes searched): how often the character's first UTF-8 byte occurs, which is where
 * a search for a piece starting with it stops. A vault has its own words ("budget" in every note makes "b" common).
 */
export function sampledCommonness(texts: readonly Buffer[]): Commonness {
	const counts = new Uint32Array(256);
	for (const text of texts) for (let at = 0; at < text.length; at++) counts[text[at]]++;
	return (character) => counts[Buffer.from(character, "utf8")[0]] ?? 0;
}

/** How common the word's rarest character is (lower: rarer, so fewer places where a search for it must look). */
export function rarity(word: string, commonness: Commonness = englishCommonness): number {
	let rarest = Infinity;
	for (let index = 0; index < word.length; index++) rarest = Math.min(rarest, commonness(word.charAt(index)));
	return rarest;
}

/**
 * `bytes.indexOf(word, from)` over UTF-8 text (a note's search text), faster over many notes: it looks for a short
 * piece of the word that starts at its rarest letter (Node skips to each occurrence of that byte with memchr) and
 * checks the whole word around each one. Over 37 MB of prose, "sentences" is found in about a fifth of the time
 * this way ("ces").
 */
export function wordFinder(
	word: string,
	commonness: Commonness = englishCommonness,
): (bytes: Buffer, from: number) => number {
	let offset = 0;
	for (let index = 1; index < word.length; index++)
		if (commonness(word.charAt(index)) < commonness(word.charAt(offset))) offset = index;
	const wordBytes = Buffer.from(word, "utf8");
	const piece = Buffer.from(word.slice(offset), "utf8").subarray(0, SHORT_PATTERN);
	const pieceOffset = Buffer.byteLength(word.slice(0, offset), "utf8");
	if (pieceOffset === 0 && piece.length === wordBytes.length)
		return (bytes, from) => bytes.indexOf(wordBytes, Math.max(0, from));
	return (bytes, from) => {
		for (
			let at = bytes.indexOf(piece, Math.max(0, from) + pieceOffset);
			at >= 0;
			at = bytes.indexOf(piece, at + 1)
		) {
			const start = at - pieceOffset;
			if (start + wordBytes.length > bytes.length) return -1;
			if (holdsAt(bytes, start, wordBytes)) return start;
		}
		return -1;
	};
}

/**
 * Whether `bytes` holds `word` at `start` (a word is a few bytes). Not `Buffer.compare` with offsets: that reads
 * `arguments`, an allocation on every call, and a common word is checked at nearly every note's every line.
 */
function holdsAt(bytes: Buffer, start: number, word: Buffer): boolean {
	for (let index = 0; index < word.length; index++) if (bytes[start + index] !== word[index]) return false;
	return true;
}
