/** Letters from the most to the least frequent in English prose. */
const LETTERS_BY_FREQUENCY = "etaoinshrdlcumwfgypbvkjxqz";
/** Patterns of up to this many characters V8 finds with a memchr of their first character (longer ones by Boyer-Moore-Horspool). */
const SHORT_PATTERN = 6;

/** How common a character is in prose (higher is more common): letters by English frequency; digits as common as mid-frequency letters; anything else rare. */
function commonness(character: string): number {
	const rank = LETTERS_BY_FREQUENCY.indexOf(character);
	if (rank >= 0) return LETTERS_BY_FREQUENCY.length - rank;
	return character >= "0" && character <= "9" ? LETTERS_BY_FREQUENCY.length / 2 : 0;
}

/**
 * `text.indexOf(word, from)`, faster over many notes: it looks for a short piece of the word that starts at its
 * rarest letter (V8 skips to each occurrence of that letter with memchr) and checks the whole word around each
 * one. Over 37 MB of prose, "sentences" is found in about a fifth of the time this way ("ces").
 */
export function wordFinder(word: string): (text: string, from: number) => number {
	let offset = 0;
	for (let index = 1; index < word.length; index++) if (commonness(word.charAt(index)) < commonness(word.charAt(offset))) offset = index;
	const piece = word.slice(offset, offset + SHORT_PATTERN);
	if (offset === 0 && piece === word) return (text, from) => text.indexOf(word, from);
	return (text, from) => {
		for (let at = text.indexOf(piece, Math.max(0, from) + offset); at >= 0; at = text.indexOf(piece, at + 1)) {
			if (text.startsWith(word, at - offset)) return at - offset;
		}
		return -1;
	};
}
