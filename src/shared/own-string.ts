/** V8 copies a substring shorter than this; a longer one is a view that keeps its whole parent string alive. */
const SHORTEST_VIEW = 13;

/**
 * A string equal to `text` that keeps no longer string alive. In V8 a substring of 13 or more characters (a slice, a
 * regular expression's match, a `split` part) is a view into the string it was cut from: one link path or tag kept
 * from a note keeps the note's whole text in memory, which over a 100k-note vault is the size of the vault again.
 * Slicing a concatenation makes V8 flatten it into a new string first, so the result is a view into that small copy.
 */
export function ownString(text: string): string {
	return text.length < SHORTEST_VIEW ? text : ` ${text}`.slice(1);
}

/**
 * `value` with every string in it made an `ownString`, arrays and plain objects changed in place (a parsed YAML value,
 * which nothing else holds yet). Dates and other objects are left as they are.
 */
export function ownStrings<T>(value: T): T {
	if (typeof value === "string") return ownString(value) as T;
	if (Array.isArray(value)) {
		for (let index = 0; index < value.length; index++) value[index] = ownStrings(value[index] as unknown);
		return value;
	}
	if (value !== null && typeof value === "object" && isPlainObject(value)) {
		const record = value as Record<string, unknown>;
		for (const key of Object.keys(record)) record[key] = ownStrings(record[key]);
	}
	return value;
}

function isPlainObject(value: object): boolean {
	const prototype: unknown = Object.getPrototypeOf(value);
	return prototype === Object.prototype || prototype === null;
}
