import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ArgumentError, parseArguments } from "../../src/headless/arguments";
import { MCP_TOKEN_ENV, McpTokenFile } from "../../src/headless/mcp-token-file";
import { VAULT_TOOLS_PORT_RANGE, defaultVaultToolsPort } from "../../src/vault-tools/serve/vault-tools-port";
import { makeTempDir } from "../helpers/temp-dir";

describe("the headless MCP token file", () => {
	const temp = makeTempDir("mcp-token");
	const home = join(temp.path, "home");
	const vault = join(temp.path, "vault");
	mkdirSync(home);
	mkdirSync(vault);

	afterAll(() => temp.remove());

	it("is made once, outside the vault, kept across restarts, and replaced by rotate", () => {
		const first = new McpTokenFile(home, vault, {});
		const token = first.current();
		expect(token).toMatch(/^[0-9a-f]{64}$/);
		expect(first.path.startsWith(`${home}/`)).toBe(true);
		expect(first.path.startsWith(`${vault}/`)).toBe(false);
		expect(new McpTokenFile(home, vault, {}).current()).toBe(token);
		const rotated = first.rotate();
		expect(rotated).not.toBe(token);
		expect(readFileSync(first.path, "utf8").trim()).toBe(rotated);
		expect(new McpTokenFile(home, vault, {}).current()).toBe(rotated);
		expect(new McpTokenFile(home, join(temp.path, "other"), {}).path).not.toBe(first.path);
	});

	it("refuses to keep the token in the vault (a home folder inside it) and says how to give one", () => {
		const insideHome = join(vault, "home-in-vault");
		mkdirSync(insideHome);
		expect(() => new McpTokenFile(insideHome, vault, {}).current()).toThrow(`the home folder is inside the vault, so the token file would sync with the notes; set ${MCP_TOKEN_ENV} instead`);
		expect(() => new McpTokenFile(vault, vault, {}).current()).toThrow(/inside the vault/);
		expect(existsSync(join(insideHome, ".claude-code-bridge"))).toBe(false);
		expect(new McpTokenFile(insideHome, vault, { [MCP_TOKEN_ENV]: "f".repeat(40) }).current()).toBe("f".repeat(40));
	});

	it("takes the token from the environment when set, and then refuses to rotate it", () => {
		const fromEnv = new McpTokenFile(home, vault, { [MCP_TOKEN_ENV]: "e".repeat(40) });
		expect(fromEnv.current()).toBe("e".repeat(40));
		expect(fromEnv.source).toBe("environment");
		expect(() => fromEnv.rotate()).toThrow(`the token comes from ${MCP_TOKEN_ENV}`);
		expect(() => new McpTokenFile(home, vault, { [MCP_TOKEN_ENV]: "short" }).current()).toThrow(/at least 32 characters/);
	});
});

describe("the vault tools' HTTP port", () => {
	it("is derived from the vault path: the same every time, inside the documented range", () => {
		const port = defaultVaultToolsPort("/vaults/Work");
		expect(defaultVaultToolsPort("/vaults/Work")).toBe(port);
		expect(port).toBeGreaterThanOrEqual(VAULT_TOOLS_PORT_RANGE.first);
		expect(port).toBeLessThan(VAULT_TOOLS_PORT_RANGE.first + VAULT_TOOLS_PORT_RANGE.count);
		expect(defaultVaultToolsPort("/vaults/Home")).not.toBe(port);
	});

	it("can be chosen with --mcp-port", () => {
		expect(parseArguments(["--mcp-port", "24001"]).mcpPort).toBe(24001);
		expect(parseArguments([]).mcpPort).toBeUndefined();
		expect(() => parseArguments(["--mcp-port", "70000"])).toThrow(ArgumentError);
		expect(() => parseArguments(["--mcp-port", "x"])).toThrow('--mcp-port must be a whole number from 1 to 65535, not "x"');
	});
});
