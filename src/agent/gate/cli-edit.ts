/**
 * Claude Code's Edit and MultiEdit, as the CLI applies them to a file's text (read from CLI 2.1.330): the same
 * matching (exact, else with curly quotes read as straight ones), the same replacement and the same refusals, in
 * the CLI's own words. The gate uses it to show the user exactly the text the CLI would write.
 */

/** One replacement, as the tools' input spells it. */
export interface CliEdit {
	old_string: string;
	new_string: string;
	replace_all?: boolean;
}

export type CliEditResult = { ok: true; text: string } | { ok: false; message: string };

/** The CLI's words when the file to edit does not exist; the gate says the same of a file Claude may not see. */
export const FILE_MISSING = "File does not exist.";
/** The CLI's words when old_string is not in the file. */
export const NOT_FOUND = "String to replace not found in file.";
const NOT_APPLIED = "String not found in file. Failed to apply edit.";
const FILE_EXISTS = "Cannot create new file - file already exists.";
const NO_CHANGE = "No changes to make: old_string and new_string are exactly the same.";
const SAME_TEXT = "Original and edited file match exactly. Failed to apply edit.";
const SUBSTRING_OF_EARLIER = "Cannot edit file: old_string is a substring of a new_string from a previous edit.";

/**
 * What the CLI does to an Edit's new_string in a file that is not Markdown (`.md`, `.mdx`): it removes the white
 * space at the end of each line.
 */
export function newStringAsCliWritesIt(path: string, newString: string): string {
	if (/\.(md|mdx)$/i.test(path)) return newString;
	return newString
		.split(/(\r\n|\n|\r)/)
		.map((part, index) => (index % 2 === 0 ? part.replace(/\s+$/, "") : part))
		.join("");
}

/** The text the CLI edits: it reads a file with CRLF line ends as LF (and writes them back as CRLF). */
export function cliView(diskText: string): string {
	return diskText.replaceAll("\r\n", "\n");
}

/**
 * Applies edits in order to `content` (the CLI's view of the file, or undefined when there is no file) as the CLI
 * does, or says why the CLI would refuse them.
 */
export function applyCliEdits(content: string | undefined, edits: readonly CliEdit[]): CliEditResult {
	if (edits.length === 0) return { ok: false, message: NO_CHANGE };
	let text = content ?? "";
	const earlierNewStrings: string[] = [];
	for (const [index, edit] of edits.entries()) {
		if (edit.old_string === edit.new_string) return { ok: false, message: NO_CHANGE };
		if (edit.old_string === "") {
			// An empty old_string creates the file; the CLI allows it on an existing file only when that is blank.
			if (index === 0 && content !== undefined && content.trim() !== "")
				return { ok: false, message: FILE_EXISTS };
			text = edit.new_string;
			earlierNewStrings.push(edit.new_string);
			continue;
		}
		if (content === undefined && index === 0) return { ok: false, message: FILE_MISSING };
		const withoutTrailingNewline = edit.old_string.replace(/\n+$/, "");
		if (
			withoutTrailingNewline !== "" &&
			earlierNewStrings.some((earlier) => earlier.includes(withoutTrailingNewline))
		)
			return { ok: false, message: SUBSTRING_OF_EARLIER };
		const actual = actualOldString(text, edit.old_string);
		if (actual === undefined) return { ok: false, message: `${NOT_FOUND}\nString: ${edit.old_string}` };
		const newString = actual === edit.old_string ? edit.new_string : withQuoteStyle(actual, edit.new_string);
		if (edit.replace_all !== true && occursTwice(text, actual)) {
			return {
				ok: false,
				message: `Found ${text.split(actual).length - 1} matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: ${edit.old_string}`,
			};
		}
		const before = text;
		text = replaceLikeCli(text, actual, newString, edit.replace_all === true);
		if (text === before) return { ok: false, message: NOT_APPLIED };
		earlierNewStrings.push(edit.new_string);
	}
	if (content !== undefined && text === content) return { ok: false, message: SAME_TEXT };
	return { ok: true, text };
}

/**
 * The CLI's replacement: the first occurrence (or all); a deletion of a string that does not end a line takes the
 * line end after it too, when the file holds it followed by one.
 */
export function replaceLikeCli(content: string, oldString: string, newString: string, replaceAll: boolean): string {
	const replace = (search: string): string =>
		replaceAll ? content.replaceAll(search, () => newString) : content.replace(search, () => newString);
	if (newString === "" && !oldString.endsWith("\n") && content.includes(`${oldString}\n`))
		return replace(`${oldString}\n`);
	return replace(oldString);
}

/** The CLI's uniqueness test: a second occurrence after the end of the first. */
function occursTwice(content: string, search: string): boolean {
	const first = content.indexOf(search);
	return first !== -1 && content.indexOf(search, first + search.length) !== -1;
}

const LEFT_SINGLE = "\u2018";
const RIGHT_SINGLE = "\u2019";
const LEFT_DOUBLE = "\u201C";
const RIGHT_DOUBLE = "\u201D";

function straightQuotes(text: string): string {
	return text
		.replaceAll(LEFT_SINGLE, "'")
		.replaceAll(RIGHT_SINGLE, "'")
		.replaceAll(LEFT_DOUBLE, '"')
		.replaceAll(RIGHT_DOUBLE, '"');
}

/** The text in the file old_string stands for: itself, else the span that matches it with curly quotes read as straight. */
function actualOldString(content: string, oldString: string): string | undefined {
	if (content.includes(oldString)) return oldString;
	const at = straightQuotes(content).indexOf(straightQuotes(oldString));
	return at === -1 ? undefined : content.substring(at, at + oldString.length);
}

let letter: RegExp | undefined;

/**
 * Whether `text` holds a letter of any script. The pattern is made on first use, as src/shared/lazy-regexp.ts does:
 * V8 checks a `\p{…}` literal's classes when it parses main.js, which costs plugin load.
 */
function hasLetter(text: string): boolean {
	return (letter ??= new RegExp(String.raw`\p{L}`, "u")).test(text);
}

/** new_string in the file's quote style, when old_string matched only with its curly quotes read as straight. */
function withQuoteStyle(actual: string, newString: string): string {
	let result = newString;
	if (actual.includes(LEFT_DOUBLE) || actual.includes(RIGHT_DOUBLE))
		result = curlyQuotes(result, '"', () => undefined, LEFT_DOUBLE, RIGHT_DOUBLE);
	// An apostrophe between two letters (as in "don't") is a right quote.
	const apostrophe = (before: string | undefined, after: string | undefined): string | undefined =>
		before !== undefined && after !== undefined && hasLetter(before) && hasLetter(after) ? RIGHT_SINGLE : undefined;
	if (actual.includes(LEFT_SINGLE) || actual.includes(RIGHT_SINGLE))
		result = curlyQuotes(result, "'", apostrophe, LEFT_SINGLE, RIGHT_SINGLE);
	return result;
}

/** Straight quotes made curly: an opening one at a line start or after a space, an opening bracket or a dash. */
function curlyQuotes(
	text: string,
	quote: string,
	special: (before: string | undefined, after: string | undefined) => string | undefined,
	opening: string,
	closing: string,
): string {
	const characters = [...text];
	return characters
		.map((character, index) => {
			if (character !== quote) return character;
			const before = characters[index - 1];
			return special(before, characters[index + 1]) ?? (opensQuote(before) ? opening : closing);
		})
		.join("");
}

function opensQuote(before: string | undefined): boolean {
	return before === undefined || [" ", "\t", "\n", "\r", "(", "[", "{", "\u2014", "\u2013"].includes(before);
}

/**
 * One Edit that makes the CLI turn `current` (its view of the file) into exactly `accepted`: old_string is a span
 * of `current` that occurs there once and covers every difference, widened by whole lines until the CLI's
 * replacement cannot pick another place or take a line end it should not. Undefined when there is nothing to change.
 */
export function editForAcceptedText(current: string, accepted: string): CliEdit | undefined {
	if (current === accepted) return undefined;
	// An empty file: the CLI writes new_string as the whole text.
	if (current === "") return { old_string: "", new_string: accepted };
	let prefix = 0;
	const shorter = Math.min(current.length, accepted.length);
	while (prefix < shorter && current[prefix] === accepted[prefix]) prefix++;
	let suffix = 0;
	while (suffix < shorter - prefix && current[current.length - 1 - suffix] === accepted[accepted.length - 1 - suffix])
		suffix++;
	// The changed span, widened to whole lines: easier to read in the transcript, and usually unique at once.
	let start = lineStart(current, prefix);
	let end = lineEnd(current, current.length - suffix);
	for (;;) {
		const edit = {
			old_string: current.slice(start, end),
			new_string: accepted.slice(start, accepted.length - (current.length - end)),
		};
		if (appliesHere(current, start, edit)) return edit;
		start = start === 0 ? 0 : lineStart(current, start - 1);
		end = end === current.length ? end : lineEnd(current, end + 1);
	}
}

/** The CLI would replace exactly this span: non-empty, found nowhere else (overlapping matches included), same result. */
function appliesHere(current: string, start: number, edit: CliEdit): boolean {
	if (
		edit.old_string === "" ||
		current.indexOf(edit.old_string) !== start ||
		current.indexOf(edit.old_string, start + 1) !== -1
	)
		return false;
	const expected = current.slice(0, start) + edit.new_string + current.slice(start + edit.old_string.length);
	return replaceLikeCli(current, edit.old_string, edit.new_string, false) === expected;
}

function lineStart(text: string, index: number): number {
	return index === 0 ? 0 : text.lastIndexOf("\n", index - 1) + 1;
}

/** The index of the line end at or after `index` (the line's "\n" excluded), or the text's end. */
function lineEnd(text: string, index: number): number {
	const at = text.indexOf("\n", index);
	return at === -1 ? text.length : at;
}
