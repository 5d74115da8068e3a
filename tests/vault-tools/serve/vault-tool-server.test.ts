import { ErrorCode, JsonRpcError, type JsonObject } from "../../../src/protocol/json-rpc";
import type { ToolDefinition } from "../../../src/protocol/mcp-types";
import { ToolRegistry } from "../../../src/protocol/tool-registry";
import { VaultToolServer } from "../../../src/vault-tools/serve/vault-tool-server";

/** A tool answering with text that JSON must escape (quotes, a newline, a backslash, a tab, non-ASCII, an emoji). */
const echo: ToolDefinition = {
	name: "echo",
	description: "Answers its text.",
	inputSchema: { type: "object", properties: { text: { type: "string" } } },
	call: (args) => Promise.resolve({ content: [{ type: "text", text: String(args.text) }] }),
};

const refuses: ToolDefinition = {
	name: "refuses",
	description: "Throws a protocol error.",
	inputSchema: { type: "object" },
	call: () => Promise.reject(new JsonRpcError(ErrorCode.InvalidParams, "Invalid params for refuses: no")),
};

function serverWith(...tools: ToolDefinition[]): VaultToolServer {
	const registry = new ToolRegistry();
	for (const tool of tools) registry.register(tool);
	return new VaultToolServer({ registry });
}

/** What a kept session (stdio) answers to one request, as the text it writes. */
async function sessionAnswer(server: VaultToolServer, method: string, params: JsonObject): Promise<string> {
	const sent: string[] = [];
	const session = server.session({ id: 5, send: (text) => sent.push(text) });
	await session.handleMessage(
		JSON.stringify({
			jsonrpc: "2.0",
			id: 1,
			method: "initialize",
			params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
		}),
	);
	await session.handleMessage(JSON.stringify({ jsonrpc: "2.0", id: 2, method, params }));
	session.dispose();
	return sent[1] ?? "";
}

const context = () => ({ sessionId: 9, signal: new AbortController().signal });

describe("VaultToolServer.request (the relay's way in)", () => {
	it("gives the result as the JSON text the server wrote, byte for byte what a session answers in its result", async () => {
		const server = serverWith(echo);
		const text = 'a "quoted" line\nwith \\ a\ttab, é and 🦊';
		const relayed = await server.request("tools/call", { name: "echo", arguments: { text } }, context());
		const direct = await sessionAnswer(server, "tools/call", { name: "echo", arguments: { text } });
		expect(relayed.joined('{"jsonrpc":"2.0","id":2,"result":', "}").toString("utf8")).toBe(direct);
		expect(relayed.parse()).toEqual({ content: [{ type: "text", text }] });
	});

	it("throws the same JSON-RPC error a session answers: invalid params, an unknown method", async () => {
		const server = serverWith(refuses);
		const invalid = { name: 3 };
		const answered = JSON.parse(await sessionAnswer(server, "tools/call", invalid)) as {
			error: { message: string };
		};
		await expect(server.request("tools/call", invalid, context())).rejects.toMatchObject({
			code: ErrorCode.InvalidParams,
			message: answered.error.message,
		});
		const unknown = server.request("no/such/method", {}, context());
		await expect(unknown).rejects.toBeInstanceOf(JsonRpcError);
		await expect(unknown).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
		expect(JSON.parse(await sessionAnswer(server, "no/such/method", {}))).toMatchObject({
			error: { code: ErrorCode.MethodNotFound },
		});
	});

	it("passes a tool's failure on as the same isError result", async () => {
		const server = serverWith(refuses);
		const relayed = await server.request("tools/call", { name: "refuses", arguments: {} }, context());
		expect(relayed.joined('{"jsonrpc":"2.0","id":2,"result":', "}").toString("utf8")).toBe(
			await sessionAnswer(server, "tools/call", { name: "refuses", arguments: {} }),
		);
		expect(relayed.parse()).toMatchObject({ isError: true });
	});
});
