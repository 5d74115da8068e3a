/** The VS Code language id for a note's file name. */
export function languageIdFor(path: string): string {
	const extension = /\.([^./]+)$/.exec(path)?.[1]?.toLowerCase();
	switch (extension) {
		case "md":
		case "markdown":
			return "markdown";
		case "canvas":
		case "json":
			return "json";
		case "css":
			return "css";
		case "js":
			return "javascript";
		default:
			return "plaintext";
	}
}
