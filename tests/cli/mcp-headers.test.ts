import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { NoTokenError, mcpHeadersLine } from "../../src/cli/mcp-headers";
import { McpTokenEnvironmentError } from "../../src/headless/mcp-token-file";
import { writeHttpTokenRecord } from "../../src/vault-tools/serve/http-token-record";
import { makeTempDir } from "../helpers/temp-dir";

const TOKEN = "b".repeat(64);
const OWN = "c".repeat(40);

describe("claude-code-bridge mcp-headers: the headers Claude Code's headersHelper gets", () => {
	const temp = makeTempDir("mcp-headers");
	const home = join(temp.path, "home");
	const vault = join(temp.path, "vault");
	const other = join(temp.path, "other vault");
	const link = join(temp.path, "vault link");

	beforeAll(() => {
		for (const folder of [home, vault, other]) mkdirSync(folder);
		symlinkSync(vault, link);
		writeHttpTokenRecord(home, { pid: process.pid, port: 4100, vault, token: TOKEN });
		writeHttpTokenRecord(home, { pid: process.pid, port: 4200, vault });
	});
	afterAll(() => temp.remove());

	it("prints the running bridge's token for that port and vault (the vault by any path to it)", () => {
		expect(mcpHeadersLine(vault, 4100, home, {})).toBe(`{"Authorization":"Bearer ${TOKEN}"}`);
		expect(mcpHeadersLine(link, 4100, home, {})).toBe(`{"Authorization":"Bearer ${TOKEN}"}`);
	});

	it("gives nothing for a port that serves another vault", () => {
		expect(() => mcpHeadersLine(other, 4100, home, {})).toThrow(
			new NoTokenError(
				`No token for http://127.0.0.1:4100/mcp: that port serves the vault ${vault}, not ${other}.`,
			),
		);
	});

	it("for a bridge using the user's own token, gives that token from its own environment, or says to set it", () => {
		expect(mcpHeadersLine(vault, 4200, home, { CLAUDE_CODE_BRIDGE_MCP_TOKEN: OWN })).toBe(
			`{"Authorization":"Bearer ${OWN}"}`,
		);
		expect(() => mcpHeadersLine(vault, 4200, home, {})).toThrow(
			/the bridge uses its own token from CLAUDE_CODE_BRIDGE_MCP_TOKEN; set the same value for Claude Code\.$/,
		);
	});

	it("refuses a bad CLAUDE_CODE_BRIDGE_MCP_TOKEN as an input error, without repeating it", () => {
		expect(() => mcpHeadersLine(vault, 4100, home, { CLAUDE_CODE_BRIDGE_MCP_TOKEN: "tiny-secret" })).toThrow(
			McpTokenEnvironmentError,
		);
		expect(() => mcpHeadersLine(vault, 4100, home, { CLAUDE_CODE_BRIDGE_MCP_TOKEN: "tiny-secret" })).not.toThrow(
			/tiny-secret/,
		);
	});
});
