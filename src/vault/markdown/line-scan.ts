/**
 * Reading a note's body only at the lines that can hold what is looked for (a `#` for tags, a `[` for links),
 * without splitting the whole text into lines: most lines of prose hold neither, and reading every note of a
 * large vault is mostly this.
 */

/**
 * Whether `CodeMask` masks each line of the text as if it were alone: no fence (three backticks or tildes) and no
 * comment (`%%`, `<!--`) can carry over from one line to the next, and every line ends with `\n` (no `\r`, which
 * `splitLines` also counts as a line end).
 */
export function masksLineByLine(text: string): boolean {
	return (
		!text.includes("```") &&
		!text.includes("~~~") &&
		!text.includes("%%") &&
		!text.includes("<!--") &&
		!text.includes("\r")
	);
}

/** The text's first lines, as far as `findFrontmatter` reads them, and where the line after them starts. */
export interface NoteHead {
	/** The first line, or (when it is a `---` fence) every line up to and including the next fence line. */
	lines: string[];
	/** Offset of the line after `lines` (the text's length when they are all of it). */
	bodyOffset: number;
}

/**
 * The lines `findFrontmatter` needs to find the frontmatter (it gives the same answer on them as on every line of
 * the text), for a text that `masksLineByLine`. Without a closing fence every line is read.
 */
export function noteHead(text: string): NoteHead {
	const lines: string[] = [];
	let start = 0;
	while (start <= text.length) {
		const end = lineEnd(text, start);
		const line = text.slice(start, end);
		lines.push(line);
		start = end + 1;
		if (lines.length === 1 ? line.trimEnd() !== "---" : line.trimEnd() === "---") break;
	}
	return { lines, bodyOffset: Math.min(start, text.length) };
}

/**
 * Calls `each` with every line, from the one starting at `offset` (numbered `line`) to the end, that holds
 * `character`, and its number, in order. The text must `masksLineByLine` (lines end at `\n` only).
 */
export function eachLineHolding(
	text: string,
	character: string,
	offset: number,
	line: number,
	each: (text: string, line: number) => void,
): void {
	let counted = offset;
	let number = line;
	for (let found = text.indexOf(character, offset); found >= 0;) {
		const start = found === 0 ? 0 : text.lastIndexOf("\n", found - 1) + 1;
		for (let feed = text.indexOf("\n", counted); feed >= 0 && feed < start; feed = text.indexOf("\n", feed + 1))
			number++;
		const end = lineEnd(text, found);
		each(text.slice(start, end), number);
		if (end >= text.length) return;
		counted = end + 1;
		number++;
		found = text.indexOf(character, end + 1);
	}
}

function lineEnd(text: string, from: number): number {
	const end = text.indexOf("\n", from);
	return end < 0 ? text.length : end;
}
