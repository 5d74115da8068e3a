/** Text with every line break as "\n", as CodeMirror holds it (it splits on "\r\n", "\r" and "\n"). */
export function toLf(text: string): string {
	return text.replace(/\r\n?/g, "\n");
}

/** Whether two texts are the same apart from their line-ending style (an editor's text against its file). */
export function sameText(a: string, b: string): boolean {
	return a === b || toLf(a) === toLf(b);
}
