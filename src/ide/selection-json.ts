import type { JsonObject } from "../protocol/json-rpc";

/**
 * The `selection_changed` notification for a snapshot as JSON text: the bytes `JSON.stringify` gives for it,
 * written out directly. It is sent for every selection, and the generic encoder was about a tenth of the headless
 * host's time per push. Undefined for params of any other shape (another key, another key order, a number JSON
 * would write as `null`): the caller then encodes them the generic way.
 */
export function selectionChangedJson(params: JsonObject): string | undefined {
	if (!isPlainObject(params) || !hasKeys(params, SNAPSHOT_KEYS)) return undefined;
	const { text, filePath, fileUrl, selection } = params;
	if (
		typeof text !== "string" ||
		typeof filePath !== "string" ||
		typeof fileUrl !== "string" ||
		!isPlainObject(selection) ||
		!hasKeys(selection, RANGE_KEYS)
	)
		return undefined;
	const { start, end, isEmpty } = selection;
	if (!isPosition(start) || !isPosition(end) || typeof isEmpty !== "boolean") return undefined;
	return `${HEAD}${JSON.stringify(text)},"filePath":${jsonOfPath(filePath, fileUrl)},"selection":{"start":{"line":${start.line},"character":${start.character}},"end":{"line":${end.line},"character":${end.character}},"isEmpty":${isEmpty}}}}`;
}

const HEAD = '{"jsonrpc":"2.0","method":"selection_changed","params":{"text":';
const SNAPSHOT_KEYS = ["text", "filePath", "fileUrl", "selection"];
const RANGE_KEYS = ["start", "end", "isEmpty"];
const POSITION_KEYS = ["line", "character"];

/** The last note's path and URL as JSON (`"…","fileUrl":"…"`): selections follow each other in one note. */
let lastPath = { filePath: "", fileUrl: "", json: "" };

function jsonOfPath(filePath: string, fileUrl: string): string {
	if (lastPath.filePath !== filePath || lastPath.fileUrl !== fileUrl)
		lastPath = { filePath, fileUrl, json: `${JSON.stringify(filePath)},"fileUrl":${JSON.stringify(fileUrl)}` };
	return lastPath.json;
}

function isPosition(value: unknown): value is { line: number; character: number } {
	// A finite number is written by a template literal as JSON.stringify writes it (-0 as 0, 1e21 as 1e+21).
	return (
		isPlainObject(value) &&
		hasKeys(value, POSITION_KEYS) &&
		Number.isFinite(value.line) &&
		Number.isFinite(value.character)
	);
}

/** An object literal's kind of object: no `toJSON` or other behaviour of its own that JSON.stringify would follow. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
	if (typeof value !== "object" || value === null) return false;
	const prototype: unknown = Object.getPrototypeOf(value);
	return prototype === Object.prototype || prototype === null;
}

/** Exactly these own enumerable keys, in this order (JSON.stringify writes them in the object's order). */
function hasKeys(value: object, keys: readonly string[]): boolean {
	const own = Object.keys(value);
	return own.length === keys.length && own.every((key, index) => key === keys[index]);
}
