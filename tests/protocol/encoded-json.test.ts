import fc from "fast-check";
import { EncodedJson, jsonStringOfUtf8 } from "../../src/protocol/encoded-json";
import { McpSession, type MethodHandler } from "../../src/protocol/mcp-session";
import { ToolRegistry } from "../../src/protocol/tool-registry";

const utf8 = (text: string): Buffer => Buffer.from(text, "utf8");

describe("jsonStringOfUtf8", () => {
	it("gives the UTF-8 bytes of JSON.stringify(text) for any well-formed text", () => {
		fc.assert(
			fc.property(fc.string({ unit: "binary" }), (text) => {
				expect(jsonStringOfUtf8(utf8(text)).equals(utf8(JSON.stringify(text)))).toBe(true);
			}),
			{ numRuns: 500 },
		);
	});

	it("escapes every control character, quote and backslash as JSON.stringify does, and copies the rest", () => {
		const every =
			Array.from({ length: 0x80 }, (_unused, code) => String.fromCharCode(code)).join("") +
			"é😀\u2028\u2029\uFEFF";
		expect(jsonStringOfUtf8(utf8(every)).toString("utf8")).toBe(JSON.stringify(every));
	});

	it("reads a Uint8Array view at an offset without copying beyond it", () => {
		const backing = utf8('xx"a\nb"yy');
		const view = new Uint8Array(backing.buffer, backing.byteOffset + 2, 5);
		expect(jsonStringOfUtf8(view).toString("utf8")).toBe(JSON.stringify('"a\nb"'));
	});
});

describe("EncodedJson", () => {
	it("objectWithText appends the text as the last field", () => {
		const text = 'line "one"\r\n\ttwo 👩‍💻\n';
		const encoded = EncodedJson.objectWithText({ path: "a.md", size: 3 }, "text", utf8(text));
		expect(encoded.joined("", "").toString("utf8")).toBe(JSON.stringify({ path: "a.md", size: 3, text }));
		expect(EncodedJson.objectWithText({}, "text", utf8("")).parse()).toEqual({ text: "" });
	});

	it("within wraps the value", () => {
		const inner = EncodedJson.objectWithText({ uri: "file:///a.md" }, "text", utf8("x"));
		expect(inner.within('{"contents":[', "]}").parse()).toEqual({ contents: [{ uri: "file:///a.md", text: "x" }] });
	});
});

describe("McpSession with an encoded answer", () => {
	const text = "note text, é\n";
	const methods = new Map<string, MethodHandler>([
		["files/read", () => EncodedJson.objectWithText({ path: "a.md" }, "text", utf8(text))],
	]);
	const request = JSON.stringify({ jsonrpc: "2.0", id: "r1", method: "files/read", params: {} });

	function session(
		maxOutgoingBytes: number,
		withBytes: boolean,
	): { sent: string[]; bytes: Buffer[]; session: McpSession } {
		const sent: string[] = [];
		const bytes: Buffer[] = [];
		const created = new McpSession({
			id: 1,
			send: (message) => sent.push(message),
			...(withBytes ? { sendBytes: (message: Buffer) => bytes.push(message) } : {}),
			serverInfo: { name: "test", version: "1" },
			tools: new ToolRegistry(),
			methods,
			maxOutgoingBytes,
		});
		return { sent, bytes, session: created };
	}

	it("writes the answer's bytes through sendBytes, as the same JSON-RPC response", () => {
		const { sent, bytes, session: under } = session(1024, true);
		void under.handleMessage(request);
		expect(sent).toEqual([]);
		expect(bytes.map((message) => JSON.parse(message.toString("utf8")) as unknown)).toEqual([
			{ jsonrpc: "2.0", id: "r1", result: { path: "a.md", text } },
		]);
	});

	it("decodes it for a transport that only sends text", () => {
		const { sent, session: under } = session(1024, false);
		void under.handleMessage(request);
		expect(sent.map((message) => JSON.parse(message) as unknown)).toEqual([
			{ jsonrpc: "2.0", id: "r1", result: { path: "a.md", text } },
		]);
	});

	it("answers an encoded result over the outgoing limit with the same error as any other result", () => {
		const { sent, bytes, session: under } = session(40, true);
		void under.handleMessage(request);
		expect(bytes).toEqual([]);
		expect(sent.map((message) => JSON.parse(message) as unknown)).toEqual([
			{
				jsonrpc: "2.0",
				id: "r1",
				error: {
					code: -32603,
					message: "Result too large: it exceeds the 40 bytes message limit; ask for less",
				},
			},
		]);
	});
});
