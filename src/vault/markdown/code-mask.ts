/** The characters that can start an escape, a code span or a comment (`%%`, `<!--`). */
const MAY_NEED_MASKING = /[\\`%<]/;
const SPECIAL = /[\\`%<]/g;

/**
 * Finds the parts of a note where link syntax is not a link: fenced code blocks, inline code spans, and
 * comments (`%% … %%` and `<!-- … -->`, both of which may span lines). Masked characters become spaces so
 * every other character keeps its UTF-16 offset.
 */
export class CodeMask {
	private fence: { marker: string; length: number } | undefined;
	private comment: "%%" | "-->" | undefined;

	/** `maskComments: false` leaves comments as text (privacy's tag reader counts a tag written in a comment). */
	constructor(private readonly options: { maskComments?: boolean } = {}) {}

	/** The line with code and comments blanked out, or undefined when the whole line is inside a fenced block. */
	maskLine(line: string): string | undefined {
		if (this.comment === undefined) {
			if (this.fence) {
				if (this.closesFence(line)) this.fence = undefined;
				return undefined;
			}
			// A fence needs three backticks or tildes in a row: most lines are not looked at further.
			const opening =
				line.includes("```") || line.includes("~~~")
					? /^[ \t]*(?:>[ \t]?)*(`{3,}|~{3,})(.*)$/.exec(line)
					: null;
			if (opening?.[1] && !(opening[1].startsWith("`") && opening[2]?.includes("`"))) {
				this.fence = { marker: opening[1].charAt(0), length: opening[1].length };
				return undefined;
			}
		}
		return this.maskInline(line);
	}

	/** Whether a comment is still open at the end of the lines seen so far. */
	get inComment(): boolean {
		return this.comment !== undefined;
	}

	private closesFence(line: string): boolean {
		const closing = /^[ \t]*(?:>[ \t]?)*(`{3,}|~{3,})[ \t]*$/.exec(line)?.[1];
		return closing !== undefined && closing.charAt(0) === this.fence?.marker && closing.length >= this.fence.length;
	}

	private maskInline(line: string): string {
		// Most lines hold nothing to mask: no escape, code span or comment can start without one of these.
		if (this.comment === undefined && !MAY_NEED_MASKING.test(line)) return line;
		const masked = new MaskedLine(line);
		let index = 0;
		while (index < line.length) {
			if (this.comment !== undefined) {
				const end = line.indexOf(this.comment, index);
				const stop = end < 0 ? line.length : end + this.comment.length;
				masked.blank(index, stop);
				if (end >= 0) this.comment = undefined;
				index = stop;
				continue;
			}
			// Every other character is left as it is: go straight to the next one that may start something.
			SPECIAL.lastIndex = index;
			const next = SPECIAL.exec(line);
			if (!next) break;
			index = next.index;
			const char = line.charAt(index);
			if (char === "\\") {
				index += 2;
			} else if (char === "`") {
				index = this.maskCodeSpan(line, masked, index);
			} else if (this.options.maskComments === false) {
				index++;
			} else if (line.startsWith("%%", index)) {
				this.comment = "%%";
				masked.blank(index, index + 2);
				index += 2;
			} else if (line.startsWith("<!--", index)) {
				this.comment = "-->";
				masked.blank(index, index + 4);
				index += 4;
			} else {
				index++;
			}
		}
		return masked.text();
	}

	/** A run of N backticks opens a span that the next run of exactly N closes; unmatched runs are literal. */
	private maskCodeSpan(line: string, masked: MaskedLine, start: number): number {
		let runEnd = start;
		while (line.charAt(runEnd) === "`") runEnd++;
		const run = runEnd - start;
		let search = runEnd;
		while (search < line.length) {
			const next = line.indexOf("`", search);
			if (next < 0) break;
			let nextEnd = next;
			while (line.charAt(nextEnd) === "`") nextEnd++;
			if (nextEnd - next === run) {
				masked.blank(start, nextEnd);
				return nextEnd;
			}
			search = nextEnd;
		}
		return runEnd;
	}
}

/** A line with ranges blanked out, left to right: the text between them is copied once. */
class MaskedLine {
	private done = "";
	private copiedTo = 0;

	constructor(private readonly line: string) {}

	blank(from: number, to: number): void {
		this.done += this.line.slice(this.copiedTo, from) + " ".repeat(to - from);
		this.copiedTo = to;
	}

	text(): string {
		return this.copiedTo === 0 ? this.line : this.done + this.line.slice(this.copiedTo);
	}
}
