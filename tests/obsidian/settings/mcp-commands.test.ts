import { httpAddCommand, httpConfigJson, maskToken, MCP_SERVER_NAME, stdioAddCommand, stdioConfigJson } from "../../../src/obsidian/settings/mcp-commands";

describe("the settings' MCP commands", () => {
	it("adds the stdio server named obsidian, quoting the vault path for each platform's shell", () => {
		expect(MCP_SERVER_NAME).toBe("obsidian");
		expect(stdioAddCommand("/Users/me/My $Vault", "darwin")).toBe('claude mcp add obsidian -- claude-code-bridge mcp --vault "/Users/me/My \\$Vault"');
		expect(stdioAddCommand("C:\\Users\\me\\Bob's Vault", "win32")).toBe("claude mcp add obsidian -- claude-code-bridge mcp --vault 'C:\\Users\\me\\Bob''s Vault'");
	});

	it("adds the HTTP endpoint with its bearer token as a quoted header", () => {
		expect(httpAddCommand("http://127.0.0.1:27125/mcp", "abc123", "linux")).toBe('claude mcp add --transport http obsidian http://127.0.0.1:27125/mcp --header "Authorization: Bearer abc123"');
	});

	it("writes the same servers as .mcp.json, the path unquoted inside JSON", () => {
		expect(JSON.parse(stdioConfigJson('/v/"quoted" vault'))).toEqual({ mcpServers: { obsidian: { type: "stdio", command: "claude-code-bridge", args: ["mcp", "--vault", '/v/"quoted" vault'] } } });
		expect(JSON.parse(httpConfigJson("http://127.0.0.1:1/mcp", "tok"))).toEqual({ mcpServers: { obsidian: { type: "http", url: "http://127.0.0.1:1/mcp", headers: { Authorization: "Bearer tok" } } } });
	});

	it("masks every copy of the token down to its first four characters", () => {
		const token = "0123456789abcdef";
		expect(maskToken(`a ${token} b ${token}`, token)).toBe("a 0123… b 0123…");
		expect(maskToken("no token here", token)).toBe("no token here");
	});
});
