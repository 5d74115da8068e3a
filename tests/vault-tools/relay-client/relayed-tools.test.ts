import { ErrorCode, JsonRpcError, type JsonObject } from "../../../src/protocol/json-rpc";
import type { ToolDefinition } from "../../../src/protocol/mcp-types";
import { RelayClosedError, type RelayConnection } from "../../../src/vault-tools/relay-client/relay-connection";
import { relayedTools } from "../../../src/vault-tools/relay-client/relayed-tools";

type Request = (method: string, params: JsonObject, signal?: AbortSignal) => Promise<unknown>;
const context = { sessionId: 1, signal: new AbortController().signal };

function localTool(name: string, readOnly: boolean): ToolDefinition {
	return {
		name,
		description: `${name} from the folder`,
		inputSchema: { type: "object" },
		...(readOnly ? { annotations: { readOnlyHint: true } } : {}),
		call: (args) =>
			Promise.resolve({ content: [{ type: "text", text: `folder ${name} ${JSON.stringify(args)}` }] }),
	};
}

function setup(request: Request | undefined) {
	const logs: string[] = [];
	const connection = request && ({ request } as unknown as RelayConnection);
	const tools = relayedTools({
		local: [localTool("search", true), localTool("edit_note", false)],
		relay: { current: () => Promise.resolve(connection) },
		callMethod: "vaultTools/call",
		log: (message) => logs.push(message),
	});
	const named = (name: string): ToolDefinition => {
		const tool = tools.find((candidate) => candidate.name === name);
		if (!tool) throw new Error(`no ${name}`);
		return tool;
	};
	return { tools, logs, call: (name: string, args: JsonObject = {}) => named(name).call(args, context) };
}

describe("relayedTools", () => {
	it("lists the local tools' definitions either way", () => {
		const { tools } = setup(undefined);
		expect(
			tools.map(({ name, description, inputSchema, annotations }) => ({
				name,
				description,
				inputSchema,
				annotations,
			})),
		).toEqual([
			{
				name: "search",
				description: "search from the folder",
				inputSchema: { type: "object" },
				annotations: { readOnlyHint: true },
			},
			{
				name: "edit_note",
				description: "edit_note from the folder",
				inputSchema: { type: "object" },
				annotations: undefined,
			},
		]);
	});

	it("answers from the folder when no bridge runs", async () => {
		expect(await setup(undefined).call("edit_note", { a: 1 })).toEqual({
			content: [{ type: "text", text: 'folder edit_note {"a":1}' }],
		});
	});

	it("forwards a call to the bridge and checks its answer: text blocks only, isError kept", async () => {
		const sent: unknown[] = [];
		const { call } = setup((method, params, signal) => {
			sent.push([method, params, signal]);
			return Promise.resolve({
				content: [
					{ type: "text", text: "from the bridge" },
					{ type: "image", data: "x" },
				],
				isError: true,
				extra: 1,
			});
		});
		expect(await call("search", { query: "q" })).toEqual({
			isError: true,
			content: [
				{ type: "text", text: "from the bridge" },
				{ type: "text", text: '{"type":"image","data":"x"}' },
			],
		});
		expect(sent).toEqual([["vaultTools/call", { name: "search", arguments: { query: "q" } }, context.signal]]);
		expect(await setup(() => Promise.resolve("nonsense")).call("search")).toEqual({
			isError: true,
			content: [{ type: "text", text: "search: the vault's bridge gave an answer that is not a tool result" }],
		});
	});

	it("answers a read from the folder when the bridge goes away mid-call", async () => {
		const { call, logs } = setup(() => Promise.reject(new RelayClosedError("closed", true)));
		expect((await call("search")).content[0]?.text).toBe("folder search {}");
		expect(logs).toEqual(["search: closed; answering from the folder"]);
	});

	it("retries a write from the folder only when it was never sent, else says the outcome is unknown", async () => {
		expect(
			(await setup(() => Promise.reject(new RelayClosedError("not connected", false))).call("edit_note"))
				.content[0]?.text,
		).toBe("folder edit_note {}");
		const lost = await setup(() => Promise.reject(new RelayClosedError("socket closed", true))).call("edit_note");
		expect(lost.isError).toBe(true);
		expect(lost.content[0]?.text).toBe(
			"edit_note: the connection to the vault's bridge was lost during the call (socket closed), so it is not known whether the change was made. Check the note with read_note before trying again.",
		);
	});

	it("uses the folder for reads, and refuses writes, when the bridge does not serve vault tools", async () => {
		const notServed = (): Promise<never> =>
			Promise.reject(new JsonRpcError(ErrorCode.MethodNotFound, "Method not found"));
		expect((await setup(notServed).call("search")).content[0]?.text).toBe("folder search {}");
		const write = await setup(notServed).call("edit_note");
		expect(write.isError).toBe(true);
		expect(write.content[0]?.text).toMatch(
			/^edit_note: the bridge running for this vault does not serve the vault tools/,
		);
	});

	it("answers any other failure of the bridge as an error result naming the tool", async () => {
		expect(await setup(() => Promise.reject(new Error("boom"))).call("search")).toEqual({
			isError: true,
			content: [{ type: "text", text: "search: the vault's bridge could not run the call: boom" }],
		});
	});
});
