/** Splits text into lines the way CodeMirror and LSP count them: `\r\n`, `\n` and `\r` each end a line. */
export function splitLines(text: string): string[] {
	return text.split(/\r\n|\r|\n/);
}
