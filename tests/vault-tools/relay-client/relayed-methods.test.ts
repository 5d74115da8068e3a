import { ErrorCode, JsonRpcError, type JsonObject } from "../../../src/protocol/json-rpc";
import type { MethodHandler } from "../../../src/protocol/mcp-session";
import { RelayClosedError, type RelayConnection } from "../../../src/vault-tools/relay-client/relay-connection";
import { relayedMethods } from "../../../src/vault-tools/relay-client/relayed-methods";

const context = { sessionId: 1, signal: new AbortController().signal };

function setup(
	connection: { request(method: string, params: JsonObject, signal?: AbortSignal): Promise<unknown> } | undefined,
) {
	const logs: string[] = [];
	const local = new Map<string, MethodHandler>([["resources/list", (params) => ({ from: "folder", params })]]);
	const methods = relayedMethods({
		local,
		relay: { current: () => Promise.resolve(connection as RelayConnection | undefined) },
		requestMethod: "vaultTools/request",
		log: (message) => logs.push(message),
	});
	const call = (params: JsonObject) => {
		const handler = methods.get("resources/list");
		if (!handler) throw new Error("resources/list is not served");
		return Promise.resolve(handler(params, context));
	};
	return { methods, logs, call };
}

describe("relayedMethods", () => {
	it("serves exactly the local methods", () => {
		expect([...setup(undefined).methods.keys()]).toEqual(["resources/list"]);
	});

	it("answers from the folder when no bridge runs", async () => {
		expect(await setup(undefined).call({ cursor: "c" })).toEqual({ from: "folder", params: { cursor: "c" } });
	});

	it("asks the bridge through the request method, passing the call's signal", async () => {
		const sent: unknown[] = [];
		const { call } = setup({
			request: (method, params, signal) => {
				sent.push([method, params, signal]);
				return Promise.resolve({ from: "bridge" });
			},
		});
		expect(await call({ a: 1 })).toEqual({ from: "bridge" });
		expect(sent).toEqual([["vaultTools/request", { method: "resources/list", params: { a: 1 } }, context.signal]]);
	});

	it("falls back to the folder when the bridge goes away or does not serve the method, and says so", async () => {
		const gone = setup({
			request: () => Promise.reject(new RelayClosedError("the bridge closed the connection", true)),
		});
		expect(await gone.call({})).toEqual({ from: "folder", params: {} });
		expect(gone.logs).toEqual(["resources/list: the bridge closed the connection; answering from the folder"]);
		const old = setup({
			request: () => Promise.reject(new JsonRpcError(ErrorCode.MethodNotFound, "Method not found")),
		});
		expect(await old.call({})).toEqual({ from: "folder", params: {} });
	});

	it("passes the bridge's other errors through", async () => {
		const { call, logs } = setup({ request: () => Promise.reject(new JsonRpcError(-32602, "bad uri")) });
		await expect(call({})).rejects.toThrow("bad uri");
		expect(logs).toEqual([]);
	});
});
