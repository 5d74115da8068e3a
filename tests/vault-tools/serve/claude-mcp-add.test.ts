import {
	HTTP_SERVER_NAME,
	STDIO_SERVER_NAME,
	allowedToolsRule,
	httpAddLine,
	stdioAddLine,
} from "../../../src/vault-tools/serve/claude-mcp-add";

describe("the claude mcp add lines for the vault tools", () => {
	it("never use one name for both transports, and each has its permission rule", () => {
		expect(STDIO_SERVER_NAME).not.toBe(HTTP_SERVER_NAME);
		expect([allowedToolsRule(STDIO_SERVER_NAME), allowedToolsRule(HTTP_SERVER_NAME)]).toEqual([
			"mcp__obsidian",
			"mcp__obsidian-http",
		]);
	});

	// tests/headless/mcp-config.test.ts runs the POSIX lines in a shell, with a stand-in claude that records its arguments.
	it('run in the vault folder with scope local; POSIX shells get double quotes with $, `, \\ and " escaped', () => {
		expect(
			stdioAddLine(
				["claude-code-bridge"],
				["mcp", "--vault", '/Notes/My "$HOME" vault'],
				'/Notes/My "$HOME" vault',
				"linux",
			),
		).toBe(
			'cd "/Notes/My \\"\\$HOME\\" vault" && claude mcp add --scope local obsidian -- claude-code-bridge mcp --vault "/Notes/My \\"\\$HOME\\" vault"',
		);
	});

	it("PowerShell gets single quotes (doubled inside) and ; between the commands; the HTTP JSON goes through stdin", () => {
		expect(
			stdioAddLine(
				["C:\\node\\node.exe", "C:\\cbb\\cli.cjs"],
				["mcp", "--vault", "C:\\Ann's vault"],
				"C:\\Ann's vault",
				"win32",
			),
		).toBe(
			"cd 'C:\\Ann''s vault'; claude mcp add --scope local obsidian -- 'C:\\node\\node.exe' 'C:\\cbb\\cli.cjs' mcp --vault 'C:\\Ann''s vault'",
		);
		const entry = {
			type: "http" as const,
			url: "http://127.0.0.1:24000/mcp",
			headersHelper: "claude-code-bridge mcp-headers --vault C:\\v --port 24000",
		};
		expect(httpAddLine(entry, "C:\\v", "win32")).toBe(
			`cd 'C:\\v'; '${JSON.stringify(entry)}' | claude mcp add-json --scope local obsidian-http -`,
		);
	});
});
