import fc from "fast-check";
import type { JsonRpcId } from "../../src/protocol/json-rpc";

/**
 * Random WebSocket frames for fuzzing the JSON-RPC layer: anything at all (checked only against invariants
 * that hold whatever a frame is), and messages that are well formed by construction, built from the
 * definitions of JSON-RPC 2.0 and MCP (checked against what those definitions promise). Which answer a
 * malformed frame gets is pinned by hand in tests/integration/json-rpc-spec-examples.test.ts.
 */

/** One frame as a client sends it: a text frame, or a binary frame (the server decodes it as UTF-8). */
export type Frame = { kind: "text"; text: string } | { kind: "binary"; bytes: Uint8Array };

/** Keys that name Object.prototype members or the prototype itself: a naive `obj[key]` finds something. */
export const PROTOTYPE_KEYS = [
	"__proto__",
	"constructor",
	"prototype",
	"toString",
	"hasOwnProperty",
	"valueOf",
	"__defineGetter__",
];

/** Methods the bridge knows, notifications it handles, and names that only look like something. */
const METHODS = [
	"ping",
	"initialize",
	"tools/list",
	"tools/call",
	"files/read",
	"resources/list",
	"resources/read",
	"workspace/selection",
	"notifications/initialized",
	"notifications/cancelled",
	"ide_connected",
	"no/such/method",
	"test/echo",
	"Ping",
	"ping ",
	"",
	...PROTOTYPE_KEYS,
];

const TOOL_NAMES = [
	"getDiagnostics",
	"openFile",
	"getOpenEditors",
	"getWorkspaceFolders",
	"checkDocumentDirty",
	"saveDocument",
	"getCurrentSelection",
	"getLatestSelection",
	"executeCode",
	...PROTOTYPE_KEYS,
];

const ARGUMENT_NAMES = [
	"uri",
	"filePath",
	"path",
	"startLine",
	"endLine",
	"startText",
	"endText",
	"makeFrontmost",
	"cursor",
	"name",
	"pid",
	"requestId",
	"protocolVersion",
	"clientInfo",
	...PROTOTYPE_KEYS,
];

const PATHS = [
	"note.md",
	"Folder with spaces/ünïcode 📝.md",
	"../outside.md",
	"/etc/passwd",
	"file:///etc/passwd",
	"file://%2e%2e/%2e%2e/etc/passwd",
	"%2e%2e%2fsecret.md",
	".config-folder/app.json",
	"C:\\Windows\\win.ini",
	"\u0000",
	"",
	"file://",
	"file:///",
];

/** Id literals that trip naive code: zero, negative zero, floats, unsafe and overflowing numbers, odd strings. */
const ODD_ID_LITERALS = [
	"0",
	"-0",
	"-1",
	"1.5",
	"2.0",
	"1e21",
	"1e400",
	"-1e400",
	"9007199254740991",
	"-9007199254740991",
	"9007199254740992",
	"9007199254740993",
	'""',
	'"0"',
	'"__proto__"',
	'"constructor"',
	'"prototype"',
	'"✻ ünïcode ⧉"',
	'"e\\u0301"',
	'"\\u00e9"',
	'"\\ud800"',
	'"😀"',
	"null",
	"true",
	"{}",
	"[]",
	'{"__proto__":1}',
];

function nested(open: string, close: string, depth: number): string {
	return open.repeat(depth) + close.repeat(depth);
}

/** Any JSON value as text, including deep nesting (up to 12k levels) and prototype keys. */
const jsonText: fc.Arbitrary<string> = fc.oneof(
	{ arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)), weight: 6 },
	{ arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }).map((text) => JSON.stringify(text)), weight: 2 },
	{ arbitrary: fc.integer({ min: 1, max: 12_000 }).map((depth) => nested("[", "]", depth)), weight: 1 },
	{
		arbitrary: fc
			.integer({ min: 1, max: 12_000 })
			.map((depth) => '{"a":'.repeat(depth) + "null" + "}".repeat(depth)),
		weight: 1,
	},
	{ arbitrary: fc.constantFrom(...ODD_ID_LITERALS), weight: 2 },
	{
		arbitrary: fc
			.array(fc.tuple(fc.constantFrom(...PROTOTYPE_KEYS), fc.jsonValue({ maxDepth: 2 })), {
				minLength: 1,
				maxLength: 3,
			})
			.map(
				(pairs) =>
					`{${pairs.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(",")}}`,
			),
		weight: 2,
	},
);

function objectText(pairs: readonly (readonly [string, string])[]): string {
	return `{${pairs.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(",")}}`;
}

/** A params object that a real handler might act on: known argument names with plausible or hostile values. */
const paramsText: fc.Arbitrary<string> = fc.oneof(
	fc
		.array(
			fc.tuple(
				fc.constantFrom(...ARGUMENT_NAMES),
				fc.oneof(
					fc.constantFrom(...PATHS).map((path) => JSON.stringify(path)),
					jsonText,
				),
			),
			{ maxLength: 4 },
		)
		.map(objectText),
	fc
		.tuple(
			fc.constantFrom(...TOOL_NAMES),
			fc.array(
				fc.tuple(
					fc.constantFrom(...ARGUMENT_NAMES),
					fc.oneof(
						fc.constantFrom(...PATHS).map((path) => JSON.stringify(path)),
						jsonText,
					),
				),
				{ maxLength: 3 },
			),
		)
		.map(([name, args]) =>
			objectText([
				["name", JSON.stringify(name)],
				["arguments", objectText(args)],
			]),
		),
	jsonText,
);

const idText: fc.Arbitrary<string> = fc.oneof(
	fc.constantFrom(...ODD_ID_LITERALS),
	fc.integer().map(String),
	fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
	fc.string({ unit: "grapheme", maxLength: 20 }).map((text) => JSON.stringify(text)),
	jsonText,
);

const methodText: fc.Arbitrary<string> = fc.oneof(
	{ arbitrary: fc.constantFrom(...METHODS).map((method) => JSON.stringify(method)), weight: 6 },
	{ arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }).map((method) => JSON.stringify(method)), weight: 1 },
	{ arbitrary: jsonText, weight: 1 },
);

/** A message shaped like JSON-RPC, with each member present, missing or wrong, and extra prototype keys. */
export const messageText: fc.Arbitrary<string> = fc
	.record({
		jsonrpc: fc.option(fc.constantFrom('"2.0"', '"2.0"', '"2.0"', '"2.0"', '"1.0"', "2", "null", '"2.0 "'), {
			nil: undefined,
			freq: 8,
		}),
		id: fc.option(idText, { nil: undefined, freq: 3 }),
		method: fc.option(methodText, { nil: undefined, freq: 8 }),
		params: fc.option(paramsText, { nil: undefined, freq: 2 }),
		result: fc.option(jsonText, { nil: undefined, freq: 10 }),
		error: fc.option(jsonText, { nil: undefined, freq: 12 }),
		extra: fc.array(fc.tuple(fc.constantFrom(...PROTOTYPE_KEYS), jsonText), { maxLength: 2 }),
	})
	.map(({ jsonrpc, id, method, params, result, error, extra }) => {
		const pairs: [string, string][] = [];
		if (jsonrpc !== undefined) pairs.push(["jsonrpc", jsonrpc]);
		if (id !== undefined) pairs.push(["id", id]);
		if (method !== undefined) pairs.push(["method", method]);
		if (params !== undefined) pairs.push(["params", params]);
		if (result !== undefined) pairs.push(["result", result]);
		if (error !== undefined) pairs.push(["error", error]);
		pairs.push(...extra);
		return objectText(pairs);
	});

/** Byte sequences that are not UTF-8: lone continuation bytes, overlong forms, surrogates, 0xFF. */
const INVALID_UTF8: readonly number[][] = [
	[0xff],
	[0x80],
	[0xc3, 0x28],
	[0xc0, 0xaf],
	[0xed, 0xa0, 0x80],
	[0xf4, 0x90, 0x80, 0x80],
	[0xe2, 0x82],
];

/** Text and binary frames: mostly JSON-RPC-shaped, plus bare JSON values, truncated JSON, garbage and invalid UTF-8. */
export const frame: fc.Arbitrary<Frame> = fc.oneof(
	{ arbitrary: messageText.map((text): Frame => ({ kind: "text", text })), weight: 12 },
	{ arbitrary: jsonText.map((text): Frame => ({ kind: "text", text })), weight: 2 },
	{
		arbitrary: fc
			.tuple(messageText, fc.nat())
			.map(([text, cut]): Frame => ({ kind: "text", text: text.slice(0, cut % (text.length + 1)) })),
		weight: 1,
	},
	{
		arbitrary: fc.string({ unit: "binary", maxLength: 60 }).map((text): Frame => ({ kind: "text", text })),
		weight: 1,
	},
	{ arbitrary: fc.uint8Array({ maxLength: 60 }).map((bytes): Frame => ({ kind: "binary", bytes })), weight: 1 },
	{
		arbitrary: fc.tuple(messageText, fc.nat(), fc.constantFrom(...INVALID_UTF8)).map(([text, at, bad]): Frame => {
			const bytes = Buffer.from(text, "utf8");
			const cut = at % (bytes.length + 1);
			return {
				kind: "binary",
				bytes: Buffer.concat([bytes.subarray(0, cut), Buffer.from(bad), bytes.subarray(cut)]),
			};
		}),
		weight: 2,
	},
);

/** The text the server sees: text frames go through UTF-8 (lone surrogates become U+FFFD), binary frames are decoded leniently. */
export function receivedText(sent: Frame): string {
	return sent.kind === "text"
		? Buffer.from(sent.text, "utf8").toString("utf8")
		: Buffer.from(sent.bytes).toString("utf8");
}

/** A key that tells ids apart exactly (1 and "1" differ; null is its own key). */
export function idKey(id: JsonRpcId | null): string {
	return id === null ? "null" : `${typeof id}:${String(id)}`;
}

/** An MCP request id: a string or an integer (never null; integers a JS number holds exactly). */
export const requestId: fc.Arbitrary<JsonRpcId> = fc.oneof(
	fc.string({ unit: "grapheme", maxLength: 20 }),
	fc.constantFrom("0", "__proto__", "constructor", "e\u0301"),
	fc.maxSafeInteger(),
	fc.constantFrom(0, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER),
);

const methodName: fc.Arbitrary<string> = fc.oneof(
	{ arbitrary: fc.constantFrom(...METHODS.filter((method) => method !== "")), weight: 4 },
	{ arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }), weight: 1 },
);

/** MCP params: an object (or absent), with any members. */
const paramsObjectText: fc.Arbitrary<string | undefined> = fc.option(
	paramsText.filter((text) => text.startsWith("{")),
	{ nil: undefined, freq: 3 },
);

function withMembers(
	members: [string, string][],
	extra: readonly (readonly [string, string])[],
	order: number,
): string {
	const all = [...members, ...extra];
	const rotated = [...all.slice(order % all.length), ...all.slice(0, order % all.length)];
	return objectText(rotated);
}

const extraMembers = fc.array(fc.tuple(fc.constantFrom(...PROTOTYPE_KEYS), jsonText), { maxLength: 2 });

/** A request as JSON-RPC 2.0 and MCP define it (members in any order, extra members allowed): must get exactly one answer with its id. */
export const wellFormedRequest: fc.Arbitrary<{ id: JsonRpcId; text: string }> = fc
	.record({ id: requestId, method: methodName, params: paramsObjectText, extra: extraMembers, order: fc.nat() })
	.map(({ id, method, params, extra, order }) => {
		const members: [string, string][] = [
			["jsonrpc", '"2.0"'],
			["id", JSON.stringify(id)],
			["method", JSON.stringify(method)],
		];
		if (params !== undefined) members.push(["params", params]);
		return { id, text: withMembers(members, extra, order) };
	});

/** A notification (a request without an id): never answered. */
export const wellFormedNotification: fc.Arbitrary<string> = fc
	.record({ method: methodName, params: paramsObjectText, extra: extraMembers, order: fc.nat() })
	.map(({ method, params, extra, order }) => {
		const members: [string, string][] = [
			["jsonrpc", '"2.0"'],
			["method", JSON.stringify(method)],
		];
		if (params !== undefined) members.push(["params", params]);
		return withMembers(members, extra, order);
	});

/** A response (result or error, with an id, no method): the answer to a request of ours, never answered. */
export const wellFormedResponse: fc.Arbitrary<string> = fc
	.record({
		id: requestId,
		outcome: fc.oneof(
			jsonText.map((result): [string, string] => ["result", result]),
			fc
				.tuple(fc.integer(), fc.string({ maxLength: 20 }))
				.map(([code, message]): [string, string] => ["error", JSON.stringify({ code, message })]),
		),
		extra: extraMembers,
		order: fc.nat(),
	})
	.map(({ id, outcome, extra, order }) =>
		withMembers([["jsonrpc", '"2.0"'], ["id", JSON.stringify(id)], outcome], extra, order),
	);
