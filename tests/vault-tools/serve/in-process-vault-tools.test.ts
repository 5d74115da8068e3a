import { InProcessVaultTools, noInProcessServers } from "../../../src/vault-tools/serve/in-process-vault-tools";
import type { ToolCallContext, ToolResult } from "../../../src/protocol/mcp-types";
import { ToolRegistry } from "../../../src/protocol/tool-registry";
import { VaultToolServer } from "../../../src/vault-tools/serve/vault-tool-server";

/** A server with one tool that waits until released (or cancelled). */
function slowServer() {
	const registry = new ToolRegistry();
	let release: () => void = () => undefined;
	const released = new Promise<void>((resolve) => (release = resolve));
	registry.register({
		name: "wait",
		description: "waits",
		inputSchema: { type: "object" },
		call: async (_args, context: ToolCallContext): Promise<ToolResult> => {
			await Promise.race([released, new Promise((resolve) => context.signal.addEventListener("abort", resolve))]);
			return { content: [{ type: "text", text: context.signal.aborted ? "cancelled" : "done" }] };
		},
	});
	return { server: new VaultToolServer({ registry }), release };
}

const call = (id: number | string) => ({
	jsonrpc: "2.0",
	id,
	method: "tools/call",
	params: { name: "wait", arguments: {} },
});

describe("InProcessVaultTools", () => {
	it("answers each request with its own response, also when they overlap, and a notification with nothing", async () => {
		const { server, release } = slowServer();
		const tools = new InProcessVaultTools(server);
		expect(await tools.handle("obsidian", { jsonrpc: "2.0", method: "notifications/initialized" })).toBeUndefined();
		const slow = tools.handle("obsidian", call(1));
		expect(await tools.handle("obsidian", { jsonrpc: "2.0", id: 2, method: "ping" })).toEqual({
			jsonrpc: "2.0",
			id: 2,
			result: {},
		});
		expect(await tools.handle("obsidian", call(1))).toMatchObject({ id: 1, error: { code: -32600 } });
		release();
		expect(await slow).toMatchObject({ id: 1, result: { content: [{ text: "done" }] } });
	});

	it("tells its recorder the conversation turn a call came in with", async () => {
		const { server, release } = slowServer();
		release();
		const seen: (string | undefined)[] = [];
		const tools: InProcessVaultTools = new InProcessVaultTools(server, {
			started: () => void seen.push(tools.turn),
		});
		await tools.handle("obsidian", call(1), "t-1");
		await tools.handle("obsidian", call(2), "t-2");
		expect(seen).toEqual(["t-1", "t-2"]);
	});

	it("a request to another server is answered that it does not run here; with no vault tools, none runs", async () => {
		const { server } = slowServer();
		expect(
			await new InProcessVaultTools(server).handle("github", { jsonrpc: "2.0", id: 7, method: "tools/list" }),
		).toMatchObject({ id: 7, error: { code: -32601 } });
		const none = noInProcessServers();
		expect(none.names()).toEqual([]);
		expect(await none.handle("obsidian", { jsonrpc: "2.0", id: 8, method: "tools/list" })).toMatchObject({
			id: 8,
			error: { code: -32601, message: 'No MCP server named "obsidian" runs in the panel' },
		});
	});

	it("when the CLI session ends, a running call is cancelled and answered with an error", async () => {
		const { server } = slowServer();
		const tools = new InProcessVaultTools(server);
		const running = tools.handle("obsidian", call("x"));
		await new Promise((resolve) => setImmediate(resolve));
		tools.dispose();
		expect(await running).toMatchObject({
			id: "x",
			error: { message: "Internal error: the vault tools gave no answer (the session ended)" },
		});
	});
});
