/**
 * A regular expression made the first time it is asked for, from its source. For patterns with Unicode property
 * classes (`\p{L}`): V8 checks every regex literal when it parses main.js, even in code that never runs at load, and
 * for such a class that check builds ICU's character sets, 0.1 to 0.8 ms per literal (issue 31: plugin load). A
 * string costs nothing until it is used. One RegExp is kept, as a module-level literal would be.
 */
export function lazyRegExp(source: string, flags: string): () => RegExp {
	let made: RegExp | undefined;
	return () => (made ??= new RegExp(source, flags));
}
