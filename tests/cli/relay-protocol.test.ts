import { RELAY_CALL_METHOD, RELAY_CLIENT_NAME, RELAY_REQUEST_METHOD, SERVER_INFO } from "../../src/cli/relay-protocol";
import { EncodedJson } from "../../src/protocol/encoded-json";
import { vaultToolRelayMethods } from "../../src/vault-tools/serve/relay-methods";

describe("the stdio server's relay protocol", () => {
	it("calls methods the bridge serves on its IDE channel", () => {
		const served = vaultToolRelayMethods(
			{ request: () => Promise.resolve(EncodedJson.ofJsonText("{}")) },
			() => ({}),
		);
		expect(served.has(RELAY_CALL_METHOD)).toBe(true);
		expect(served.has(RELAY_REQUEST_METHOD)).toBe(true);
		expect(RELAY_CALL_METHOD).not.toBe(RELAY_REQUEST_METHOD);
	});

	it("names the relay and the server with the wire values a running bridge expects", () => {
		expect(RELAY_CLIENT_NAME).toBe("claude-code-bridge-vault-relay");
		expect(SERVER_INFO.name).toBe("obsidian-vault-tools");
	});
});
