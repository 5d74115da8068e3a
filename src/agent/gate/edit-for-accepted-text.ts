import { replaceLikeCli, type CliEdit } from "./cli-edit";

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
