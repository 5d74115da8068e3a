const LF = 10;
const CR = 13;

/** Where each line of a text starts and ends, counting `\r\n`, `\n` and `\r` as line ends (as the scanner does). */
export class LineTable {
	/** Offset of the first character of each line. */
	readonly starts: number[] = [0];
	/** Offset just past the last character of each line, before its line end. */
	readonly ends: number[] = [];

	constructor(readonly text: string) {
		// Without a match object per line: a 1 MiB note has tens of thousands of lines, and this runs on every read.
		if (!text.includes("\r")) {
			for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) {
				this.ends.push(at);
				this.starts.push(at + 1);
			}
		} else {
			for (let at = 0; at < text.length; at++) {
				const code = text.charCodeAt(at);
				if (code !== LF && code !== CR) continue;
				this.ends.push(at);
				if (code === CR && text.charCodeAt(at + 1) === LF) at++;
				this.starts.push(at + 1);
			}
		}
		this.ends.push(text.length);
	}

	get count(): number {
		return this.starts.length;
	}

	line(index: number): string {
		return this.text.slice(this.starts[index] ?? 0, this.ends[index] ?? 0);
	}

	/** The 0-based line holding the character at `offset`. */
	lineAt(offset: number): number {
		let low = 0;
		let high = this.starts.length - 1;
		while (low < high) {
			const middle = (low + high + 1) >> 1;
			if ((this.starts[middle] ?? 0) <= offset) low = middle;
			else high = middle - 1;
		}
		return low;
	}

	/** The line end the text uses most: kept when text is inserted. */
	get lineEnd(): string {
		const crlf = this.text.split("\r\n").length - 1;
		const lf = this.text.split("\n").length - 1 - crlf;
		return crlf > lf ? "\r\n" : "\n";
	}
}
