import { isUtf8 } from "node:buffer";

/**
 * Reading a note's tags from its bytes (UTF-8) without decoding all of it: most notes have no `#` in their body that
 * can start a tag (headings, `[[Note#Heading]]` links), and then only the frontmatter is decoded; in the others only
 * the lines with a `#` are, where code and comments cannot span lines. Each test here errs towards "may be a tag" or
 * "may span lines": the caller then decodes the whole text and reads it as before.
 */

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const HASH = 0x23;
const FENCE = Buffer.from("\n---");

/**
 * ASCII bytes after a `#` that start no tag: white space and the punctuation `TAG_START` (note-tags.ts) excludes.
 * Any other byte, and every byte outside ASCII (another script, or white space such as U+3000), may start one.
 */
const ENDS_TAG = new Uint8Array(128);
for (const character of "\t\n\v\f\r !\"#$%&'()*+,.:;<=>?@[\\]^`{|}~") ENDS_TAG[character.charCodeAt(0)] = 1;

/** ASCII white space as `\s` reads it (the rest of `\s` is outside ASCII). */
const SPACE = new Uint8Array(128);
for (const character of "\t\n\v\f\r ") SPACE[character.charCodeAt(0)] = 1;

/**
 * The last characters of what `CodeMask` blanks out within a line (a code span's backtick, a comment's `%%` or
 * `-->`): right before a `#`, such a character may be white space once masked.
 */
const MAY_BE_MASKED = new Uint8Array(128);
for (const character of "`%>") MAY_BE_MASKED[character.charCodeAt(0)] = 1;

/** A note's frontmatter lines as `noteHead` gives them, decoded, and where its body starts (in bytes). */
export interface BytesHead {
	/** Every line up to and including the closing `---`; empty when the note has no frontmatter. */
	lines: string[];
	/** Offset of the body's first byte (0 without a frontmatter). */
	bodyOffset: number;
}

/**
 * The frontmatter of a note's bytes and where its body starts; undefined when the bytes are not read this way (not
 * UTF-8, or with a `\r`, which ends lines too): the caller decodes the text.
 */
export function headOfBytes(bytes: Buffer): BytesHead | undefined {
	if (bytes.includes(CARRIAGE_RETURN) || !isUtf8(bytes)) return undefined;
	const none: BytesHead = { lines: [], bodyOffset: 0 };
	const firstEnd = lineEndAt(bytes, 0);
	// `findFrontmatter`: a first line `---` (and white space), closed by the next such line.
	if (firstEnd >= bytes.length || bytes.toString("utf8", 0, firstEnd).trimEnd() !== "---") return none;
	for (let fence = bytes.indexOf(FENCE, firstEnd); fence >= 0; fence = bytes.indexOf(FENCE, fence + 1)) {
		const end = lineEndAt(bytes, fence + 1);
		if (bytes.toString("utf8", fence + 1, end).trimEnd() !== "---") continue;
		// Ends at a line break (or the end), so it decodes as that part of the whole text does.
		return { lines: bytes.toString("utf8", 0, end).split("\n"), bodyOffset: Math.min(end + 1, bytes.length) };
	}
	return none;
}

/** Where a note's body starts and its frontmatter ends (`headOfBytes`), found without decoding anything. */
export interface BytesHeadSpan {
	/** Offset of the body's first byte (0 without a frontmatter). */
	bodyOffset: number;
	/** The line of the frontmatter's closing `---`; -1 without a frontmatter. */
	endLine: number;
	/** Whether the frontmatter's YAML may have a `tags` or `tag` key (`tag` in any case, or an escape). */
	mayHoldTagKey: boolean;
}

/**
 * The frontmatter `headOfBytes` finds, told in bytes alone (a tags overview of every note decodes no frontmatter
 * that cannot hold a tag key); undefined where `headOfBytes` answers undefined, or where a line that may be a fence
 * ends in bytes outside ASCII (white space to `trimEnd` or not: `headOfBytes` decodes it).
 */
export function headSpanOfBytes(bytes: Buffer): BytesHeadSpan | undefined {
	if (bytes.includes(CARRIAGE_RETURN) || !isUtf8(bytes)) return undefined;
	const none: BytesHeadSpan = { bodyOffset: 0, endLine: -1, mayHoldTagKey: false };
	const firstEnd = lineEndAt(bytes, 0);
	if (firstEnd >= bytes.length) return none;
	const first = isFenceLine(bytes, 0, firstEnd);
	if (first !== true) return first === false ? none : undefined;
	for (let fence = bytes.indexOf(FENCE, firstEnd); fence >= 0; fence = bytes.indexOf(FENCE, fence + 1)) {
		const end = lineEndAt(bytes, fence + 1);
		const closing = isFenceLine(bytes, fence + 1, end);
		if (closing === undefined) return undefined;
		if (!closing) continue;
		let endLine = 0;
		for (let feed = bytes.indexOf(NEWLINE); feed >= 0 && feed <= fence; feed = bytes.indexOf(NEWLINE, feed + 1))
			endLine++;
		return {
			bodyOffset: Math.min(end + 1, bytes.length),
			endLine,
			mayHoldTagKey: mayHoldTagKeyBytes(bytes, firstEnd + 1, fence),
		};
	}
	return none;
}

/** ASCII white space as `trimEnd` reads it (no line break: a line holds none). */
const TRIMMED = new Uint8Array(128);
for (const character of "\t\v\f ") TRIMMED[character.charCodeAt(0)] = 1;
const DASH = 0x2d;

/** Whether the line `start`-`end` is `---` once `trimEnd` ran; undefined when its end is not ASCII (it may be white space). */
function isFenceLine(bytes: Buffer, start: number, end: number): boolean | undefined {
	if (end - start < 3 || bytes[start] !== DASH || bytes[start + 1] !== DASH || bytes[start + 2] !== DASH)
		return false;
	for (let at = start + 3; at < end; at++) {
		const byte = bytes[at] ?? 0;
		if (byte >= 0x80) return undefined;
		if (TRIMMED[byte] !== 1) return false;
	}
	return true;
}

/** `/tag/i.test(yaml) || yaml.includes("\\")` of the bytes `start`-`end` (UTF-8: no ASCII byte is part of another character). */
function mayHoldTagKeyBytes(bytes: Buffer, start: number, end: number): boolean {
	for (let at = start; at < end; at++) {
		const byte = bytes[at] ?? 0;
		if (byte === BACKSLASH) return true;
		if (
			(byte | CASE_BIT) === LOWER_T &&
			at + 2 < end &&
			((bytes[at + 1] ?? 0) | CASE_BIT) === LOWER_A &&
			((bytes[at + 2] ?? 0) | CASE_BIT) === LOWER_G
		)
			return true;
	}
	return false;
}

const BACKSLASH = 0x5c;
/** Set in an ASCII letter's code, it is the lower-case letter. */
const CASE_BIT = 0x20;
const LOWER_T = 0x74;
const LOWER_A = 0x61;
const LOWER_G = 0x67;

/**
 * Whether a `#` from `offset` on (line starts at `offset`) may start a tag once the note's lines are masked
 * (`CodeMask`) and read by `tagsInLine`: false means none can, wherever code and comments are. `TAG_START` needs the
 * `#` after a line start, white space, or a `#` with no white space between; and a character after it that is not
 * white space or punctuation. Masking only blanks characters out, so it can add white space only right before the
 * `#` (the end of a code span or comment there).
 */
export function mayHoldInlineTag(bytes: Buffer, offset: number): boolean {
	for (let at = bytes.indexOf(HASH, offset); at >= 0; at = bytes.indexOf(HASH, at + 1))
		if (mayStartTag(bytes, at, offset)) return true;
	return false;
}

/** Whether the `#` at `at` may start a tag once masked (`mayHoldInlineTag`); `lineStart`: where its line starts. */
function mayStartTag(bytes: Buffer, at: number, lineStart: number): boolean {
	const after = bytes[at + 1];
	if (after === undefined || (after < 0x80 && ENDS_TAG[after] === 1)) return false;
	return at === lineStart || mayFollowTagStart(bytes, at);
}

/** Whether what comes before the `#` at `at` (not at a line start) may let it start a tag. */
function mayFollowTagStart(bytes: Buffer, at: number): boolean {
	const before = bytes[at - 1] ?? NEWLINE;
	if (before === NEWLINE || before >= 0x80 || SPACE[before] === 1 || MAY_BE_MASKED[before] === 1) return true;
	// `#[^\s#]*#`: another `#` earlier in the same run of characters without white space.
	for (let back = at - 2; back >= 0; back--) {
		const byte = bytes[back] ?? NEWLINE;
		if (byte === HASH || byte >= 0x80) return true;
		if (SPACE[byte] === 1) return false;
	}
	return false;
}

function lineEndAt(bytes: Buffer, from: number): number {
	const end = bytes.indexOf(NEWLINE, from);
	return end < 0 ? bytes.length : end;
}

const COMMENT_OPENINGS = ["%%", "<!--"].map((opening) => Buffer.from(opening));
const BACKTICK_FENCE = Buffer.from("```");
const TILDE_FENCE = Buffer.from("~~~");

/**
 * Whether a comment (`%%`, `<!--`) may open in the bytes' text. Without one, `CodeMask` changes what it carries from
 * line to line only at the lines with three backticks or tildes (a fence opening or closing).
 */
export function mayHoldComment(bytes: Buffer): boolean {
	return COMMENT_OPENINGS.some((opening) => bytes.includes(opening));
}

/**
 * Calls `each` with every line (decoded), from the one starting at byte `offset` (numbered `line`) to the end, that
 * holds a `#` that may start a tag (`mayHoldInlineTag`'s test: not a heading's `#`, nor a link's `[[Note#Part]]`) or
 * three backticks or tildes, and its number, in order: for a text without comments (`mayHoldComment`), the lines
 * that may hold a tag and every line `CodeMask` changes its state at, so that a mask fed these lines alone masks each
 * of them as when fed every line. For bytes `headOfBytes` reads (UTF-8 without `\r`: no
 * `#`, backtick, tilde or line feed is part of another character, and lines end at `\n` only).
 */
export function eachLineHoldingHashOrFence(
	bytes: Buffer,
	offset: number,
	line: number,
	each: (text: string, line: number) => void,
): void {
	let counted = offset;
	let number = line;
	let hash = bytes.indexOf(HASH, offset);
	let backticks = bytes.indexOf(BACKTICK_FENCE, offset);
	let tildes = bytes.indexOf(TILDE_FENCE, offset);
	for (;;) {
		const found = firstFound(firstFound(hash, backticks), tildes);
		if (found < 0) return;
		const start = found === 0 ? 0 : bytes.lastIndexOf(NEWLINE, found - 1) + 1;
		for (
			let feed = bytes.indexOf(NEWLINE, counted);
			feed >= 0 && feed < start;
			feed = bytes.indexOf(NEWLINE, feed + 1)
		)
			number++;
		const end = lineEndAt(bytes, found);
		if (holdsFence(backticks, tildes, end) || mayStartTagBefore(bytes, hash, start, end))
			each(bytes.toString("utf8", start, end), number);
		if (end >= bytes.length) return;
		counted = end + 1;
		number++;
		if (hash >= 0 && hash < counted) hash = bytes.indexOf(HASH, counted);
		if (backticks >= 0 && backticks < counted) backticks = bytes.indexOf(BACKTICK_FENCE, counted);
		if (tildes >= 0 && tildes < counted) tildes = bytes.indexOf(TILDE_FENCE, counted);
	}
}

/** Whether the line ending at `end` holds the first three backticks or tildes found from its start on. */
function holdsFence(backticks: number, tildes: number, end: number): boolean {
	return (backticks >= 0 && backticks < end) || (tildes >= 0 && tildes < end);
}

/** Whether a `#` from `hash` (the first from the line's start on) to the line's `end` may start a tag. */
function mayStartTagBefore(bytes: Buffer, hash: number, lineStart: number, end: number): boolean {
	for (let at = hash; at >= 0 && at < end; at = bytes.indexOf(HASH, at + 1))
		if (mayStartTag(bytes, at, lineStart)) return true;
	return false;
}

/** The smaller of two positions found (-1: not found). */
function firstFound(a: number, b: number): number {
	return a < 0 ? b : b < 0 ? a : Math.min(a, b);
}
