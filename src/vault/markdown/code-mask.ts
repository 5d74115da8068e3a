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
			const opening = /^[ \t]*(?:>[ \t]?)*(`{3,}|~{3,})(.*)$/.exec(line);
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
		const out = line.split("");
		let index = 0;
		while (index < line.length) {
			if (this.comment !== undefined) {
				const end = line.indexOf(this.comment, index);
				const stop = end < 0 ? line.length : end + this.comment.length;
				blank(out, index, stop);
				if (end >= 0) this.comment = undefined;
				index = stop;
				continue;
			}
			const char = line.charAt(index);
			if (char === "\\") {
				index += 2;
			} else if (char === "`") {
				index = this.maskCodeSpan(line, out, index);
			} else if (this.options.maskComments === false) {
				index++;
			} else if (line.startsWith("%%", index)) {
				this.comment = "%%";
				blank(out, index, index + 2);
				index += 2;
			} else if (line.startsWith("<!--", index)) {
				this.comment = "-->";
				blank(out, index, index + 4);
				index += 4;
			} else {
				index++;
			}
		}
		return out.join("");
	}

	/** A run of N backticks opens a span that the next run of exactly N closes; unmatched runs are literal. */
	private maskCodeSpan(line: string, out: string[], start: number): number {
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
				blank(out, start, nextEnd);
				return nextEnd;
			}
			search = nextEnd;
		}
		return runEnd;
	}
}

function blank(chars: string[], from: number, to: number): void {
	for (let i = from; i < to; i++) chars[i] = " ";
}
