import { isAscii } from "node:buffer";

/**
 * Tells from a note's text alone, without scanning its links, that none of them can lead to one file (`target`), so
 * that a vault's first backlinks question scans only the notes that may link to it. A link leads to a file only when
 * the last part of its link path (backslashes read as slashes, `.` and `..` parts resolved) is one of the file's name
 * keys in any case: its name, or a note's name without `.md` (`LinkResolver`). That last part is the link path's own,
 * or, for a link path of `./` or `../` parts, a part of the linking note's folder. So a note whose path does not hold
 * the target's shortest name key (lower-cased) can link to it only if its text holds that key: as written (a
 * wikilink's path, a Markdown link's undecodable path), or percent-encoded (a Markdown link's path, decoded once).
 * Only plain ASCII is judged: a name key or a note with any other character is always a candidate (lower-casing
 * outside ASCII can make ASCII letters: the Kelvin sign is a `k`).
 */
export class LinkTargetFilter {
	/** The target's shortest name key, lower-cased; undefined when it cannot be judged (every note is a candidate). */
	private readonly key: string | undefined;
	/** The key in any case, as written. */
	private readonly written: RegExp | undefined;
	/** The key in any case, each of its characters as written or percent-encoded. */
	private readonly encoded: RegExp | undefined;
	/** The key's character codes, and its first (up to) two characters in every case, as bytes to look for. */
	private readonly keyCodes: Uint8Array | undefined;
	private readonly keyStarts: Buffer[] = [];

	/** The target's name keys (`LinkResolver`): its name lower-cased, and a note's without `.md`. */
	private readonly nameKeys: ReadonlySet<string>;

	constructor(readonly target: string) {
		const fullName = target.slice(target.lastIndexOf("/") + 1).toLowerCase();
		this.nameKeys = new Set(fullName.endsWith(".md") ? [fullName, fullName.slice(0, -3)] : [fullName]);
		const name = target.slice(target.lastIndexOf("/") + 1).toLowerCase();
		const key = name.endsWith(".md") ? name.slice(0, -3) : name;
		if (key === "" || !/^[\x20-\x7e]+$/.test(key) || /[\\/%]/.test(key)) return;
		this.key = key;
		this.written = new RegExp(escapeRegExp(key), "i");
		this.encoded = new RegExp([...key].map(encodedCharacter).join(""), "i");
		this.keyCodes = Buffer.from(key, "latin1");
		const cases = (character: string): string[] => [...new Set([character, character.toUpperCase()])];
		const [first = "", second = ""] = key;
		for (const one of cases(first))
			for (const two of second === "" ? [""] : cases(second))
				this.keyStarts.push(Buffer.from(one + two, "latin1"));
	}

	/**
	 * Whether one of these link paths leads to the target, as `resolve` (the note's link resolution now) says; only
	 * those whose last part may name the target are resolved.
	 */
	leadsTo(linkpaths: readonly string[], resolve: (linkpath: string) => string | undefined): boolean {
		for (const linkpath of linkpaths)
			if (mayLeadTo(linkpath, this.nameKeys) && resolve(linkpath) === this.target) return true;
		return false;
	}

	/** Whether a link in the note at `source` may lead to the target (false: none can); reads nothing. */
	mayLinkFromPath(source: string): boolean {
		return this.key === undefined || source === this.target || source.toLowerCase().includes(this.key);
	}

	/** Whether a link in a note with these bytes (UTF-8) may lead to the target, wherever the note is. */
	mayLinkFromBytes(bytes: Buffer): boolean {
		if (!isAscii(bytes)) return true;
		// Plain ASCII: one byte a character, looked through without making a string of the note (a first pass over a
		// vault reads every note: its texts as strings were most of that pass's garbage).
		const { key, keyCodes, encoded } = this;
		if (key === undefined || keyCodes === undefined || encoded === undefined) return true;
		for (const start of this.keyStarts)
			for (let at = bytes.indexOf(start); at >= 0; at = bytes.indexOf(start, at + 1))
				if (holdsKeyAt(bytes, at, keyCodes)) return true;
		// Spelt with an escape: as `mayLinkFromAscii`, on the few characters around each `%`.
		const reach = key.length * 3;
		for (let at = bytes.indexOf(PERCENT); at >= 0; at = bytes.indexOf(PERCENT, at + 1)) {
			if (NON_ASCII_ESCAPE.test(bytes.toString("latin1", at, at + 3))) return true;
			if (encoded.test(bytes.toString("latin1", Math.max(0, at - reach), at + reach))) return true;
		}
		return false;
	}

	/** `mayLinkFromBytes` of a note's text. */
	mayLinkFromText(text: string): boolean {
		return /[^\p{ASCII}]/u.test(text) || this.mayLinkFromAscii(text);
	}

	private mayLinkFromAscii(text: string): boolean {
		const { key, written, encoded } = this;
		if (key === undefined || written === undefined || encoded === undefined || written.test(text)) return true;
		// Spelt with an escape, the key is within three times its length of one of its `%` (a few in most notes).
		const reach = key.length * 3;
		for (let at = text.indexOf("%"); at >= 0; at = text.indexOf("%", at + 1)) {
			// An escape of a byte outside ASCII may decode to a character that lower-cases to an ASCII letter.
			if (NON_ASCII_ESCAPE.test(text.slice(at, at + 3))) return true;
			if (encoded.test(text.slice(Math.max(0, at - reach), at + reach))) return true;
		}
		return false;
	}
}

/**
 * Whether a link path may lead to a file with these name keys: its last part (backslashes read as slashes) lower-cased
 * is one of them, or it has no last part of its own (empty, `.`, `..`, a slash at its end: resolving decides).
 */
export function mayLeadTo(linkpath: string, keys: ReadonlySet<string>): boolean {
	const wanted = linkpath.replace(/\\/g, "/");
	const last = wanted.slice(wanted.lastIndexOf("/") + 1);
	return last === "" || last === "." || last === ".." || keys.has(last.toLowerCase());
}

const NON_ASCII_ESCAPE = /^%[89a-f][0-9a-f]$/i;
const PERCENT = 0x25;
const UPPER_A = 0x41;
const UPPER_Z = 0x5a;
/** Set in an ASCII capital letter's code, it is the small letter. */
const CASE_BIT = 0x20;

/** Whether the ASCII bytes at `at` are the (lower-cased) key in any case, as the key's `i` pattern matches it. */
function holdsKeyAt(bytes: Buffer, at: number, key: Uint8Array): boolean {
	if (at + key.length > bytes.length) return false;
	for (let index = 0; index < key.length; index++) {
		const byte = bytes[at + index] ?? 0;
		const lower = byte >= UPPER_A && byte <= UPPER_Z ? byte | CASE_BIT : byte;
		if (lower !== key[index]) return false;
	}
	return true;
}

/** One character of the key as a Markdown link's path may spell it (matched in any case): itself or its escape. */
function encodedCharacter(character: string): string {
	const code = character.charCodeAt(0);
	const spellings = [escapeRegExp(character), `%${hex(code)}`];
	const upper = character.toUpperCase();
	if (upper !== character) spellings.push(`%${hex(upper.charCodeAt(0))}`);
	return `(?:${spellings.join("|")})`;
}

function escapeRegExp(text: string): string {
	return text.replace(/[\\^$.*+?()[\]{}|-]/g, "\\$&");
}

function hex(code: number): string {
	return code.toString(16).padStart(2, "0");
}
