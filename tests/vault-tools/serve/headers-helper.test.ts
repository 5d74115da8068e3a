import { headersHelperCommand, httpServerEntry } from "../../../src/vault-tools/serve/headers-helper";

describe("the package's mcp-headers as a headersHelper (a host with its own token)", () => {
	it("quotes only the words that need it, for the shell Claude Code runs the helper in", () => {
		expect(headersHelperCommand(["/usr/bin/node", "/opt/cli.cjs"], '/My "$vault"', 4100)).toBe(
			'/usr/bin/node /opt/cli.cjs mcp-headers --vault "/My \\"\\$vault\\"" --port 4100',
		);
		expect(httpServerEntry("http://127.0.0.1:4100/mcp", ["claude-code-bridge"], "/v", 4100)).toEqual({
			type: "http",
			url: "http://127.0.0.1:4100/mcp",
			headersHelper: "claude-code-bridge mcp-headers --vault /v --port 4100",
		});
	});
});
