import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LATEST_PROTOCOL_VERSION as SDK_LATEST } from "@modelcontextprotocol/sdk/types.js";
import { SERVER_INFO } from "../../src/ide/server-info";
import { SUPPORTED_PROTOCOL_VERSIONS } from "../../src/protocol/mcp-types";
import { ToolRegistry } from "../../src/protocol/tool-registry";
import { startBridge, type BridgeFixture } from "../helpers/bridge-fixture";
import { AuthenticatedWebSocketTransport } from "../helpers/sdk-ws-transport";
import { connectOrThrow, type TestClient } from "../helpers/test-client";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

let bridge: BridgeFixture;
let tools: ToolRegistry;
const clients: TestClient[] = [];

beforeEach(async () => {
	tools = new ToolRegistry();
	bridge = await startBridge({ tools });
}, FIXTURE_TIMEOUT_MS);

afterEach(async () => {
	await Promise.all(clients.splice(0).map((client) => client.close()));
	await bridge?.stop();
});

async function open(): Promise<TestClient> {
	const client = await connectOrThrow(bridge.port, { token: bridge.token });
	clients.push(client);
	return client;
}

describe("the MCP handshake as Claude Code performs it", () => {
	it("answers initialize with the client's version, tools capability and serverInfo, then serves tools/list", async () => {
		const client = await open();
		// The CLI sends initialize, then initialized, ide_connected and tools/list without waiting.
		client.send({
			jsonrpc: "2.0",
			id: 0,
			method: "initialize",
			params: {
				protocolVersion: "2025-11-25",
				capabilities: {
					roots: { listChanged: true },
					elicitation: {},
					extensions: { "io.modelcontextprotocol/tasks": {} },
				},
				clientInfo: { name: "claude-code", title: "Claude Code", version: "2.1.330" },
			},
		});
		client.notify("notifications/initialized");
		client.notify("ide_connected", { pid: 31337 });
		client.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });

		const initialize = await client.waitForAnswer(0);
		expect(initialize.result).toEqual({
			protocolVersion: "2025-11-25",
			capabilities: { tools: { listChanged: true } },
			serverInfo: SERVER_INFO,
		});
		expect((await client.waitForAnswer(1)).result).toEqual({ tools: [] });
		expect(client.messages).toHaveLength(2);
		expect(bridge.host.status().clients).toEqual([
			expect.objectContaining({ pid: 31337, clientName: "claude-code", clientVersion: "2.1.330" }),
		]);
	});

	it.each(SUPPORTED_PROTOCOL_VERSIONS.map((version) => [version]))("echoes supported version %s", async (version) => {
		const client = await open();
		expect((await client.initialize(version)).result).toMatchObject({ protocolVersion: version });
	});

	it("answers its newest version when the client asks for one it does not know", async () => {
		const client = await open();
		expect((await client.initialize("1999-01-01")).result).toMatchObject({
			protocolVersion: SUPPORTED_PROTOCOL_VERSIONS[0],
		});
	});

	it("refuses a second initialize on the same connection", async () => {
		const client = await open();
		await client.initialize();
		expect((await client.request("initialize", { protocolVersion: "2025-11-25" })).error?.code).toBe(-32600);
	});

	it("lists registered tools with their schemas and sends tools/list_changed when they change", async () => {
		const client = await open();
		await client.initialize();
		tools.register({
			name: "getDiagnostics",
			description: "test tool",
			inputSchema: { type: "object", properties: { uri: { type: "string" } }, additionalProperties: false },
			call: () => Promise.resolve({ content: [{ type: "text", text: "[]" }] }),
		});
		await client.waitForNotification("notifications/tools/list_changed");
		expect((await client.request("tools/list")).result).toEqual({
			tools: [
				{
					name: "getDiagnostics",
					description: "test tool",
					inputSchema: {
						type: "object",
						properties: { uri: { type: "string" } },
						additionalProperties: false,
					},
				},
			],
		});
		expect((await client.request("tools/call", { name: "getDiagnostics", arguments: {} })).result).toEqual({
			content: [{ type: "text", text: "[]" }],
		});
	});
});

describe("the official MCP SDK client", () => {
	it("completes initialize, ping and tools/list", async () => {
		const client = new Client({ name: "sdk-conformance", version: "1.0.0" });
		await client.connect(new AuthenticatedWebSocketTransport(`ws://127.0.0.1:${bridge.port}`, bridge.token));
		try {
			expect(client.getServerVersion()).toEqual(SERVER_INFO);
			expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: true } });
			expect(await client.ping()).toEqual({});
			expect(await client.listTools()).toEqual({ tools: [] });
			expect(SUPPORTED_PROTOCOL_VERSIONS).toContain(SDK_LATEST);
		} finally {
			await client.close();
		}
	});
});
