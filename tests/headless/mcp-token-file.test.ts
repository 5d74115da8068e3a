import { createHash } from "node:crypto";
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArguments } from "../../src/headless/arguments";
import { ArgumentError } from "../../src/shared/command-line";
import {
	MCP_TOKEN_ENV,
	McpTokenEnvironmentError,
	removeLegacyTokenFile,
	tokenFromEnvironment,
} from "../../src/headless/mcp-token-file";
import { httpTokenDirectory } from "../../src/vault-tools/serve/http-token-record";
import { VAULT_TOOLS_PORT_RANGE, defaultVaultToolsPort } from "../../src/vault-tools/serve/vault-tools-port";
import { makeTempDir } from "../helpers/temp-dir";

describe("the headless host's token sources", () => {
	const temp = makeTempDir("mcp-token");
	afterAll(() => temp.remove());

	it("takes CLAUDE_CODE_BRIDGE_MCP_TOKEN when set (blank counts as unset), and refuses a short or spaced one without repeating it", () => {
		expect(tokenFromEnvironment({})).toBeUndefined();
		expect(tokenFromEnvironment({ [MCP_TOKEN_ENV]: "  " })).toBeUndefined();
		expect(tokenFromEnvironment({ [MCP_TOKEN_ENV]: ` ${"e".repeat(40)} ` })).toBe("e".repeat(40));
		for (const bad of ["short-secret", `${"a".repeat(20)} ${"b".repeat(20)}`]) {
			let thrown: unknown;
			try {
				tokenFromEnvironment({ [MCP_TOKEN_ENV]: bad });
			} catch (error) {
				thrown = error;
			}
			expect(thrown).toBeInstanceOf(McpTokenEnvironmentError);
			expect((thrown as Error).message).toBe(`${MCP_TOKEN_ENV} must be at least 32 characters without spaces`);
		}
	});

	it("removes the long-lived token file earlier versions kept for the vault, and no other file", () => {
		const home = join(temp.path, "home");
		const vault = join(temp.path, "vault");
		mkdirSync(vault);
		const directory = httpTokenDirectory(home);
		mkdirSync(directory, { recursive: true });
		// Earlier versions named it by the vault's id: the first 16 hex digits of the SHA-256 of its real path.
		const own = join(
			directory,
			`${createHash("sha256").update(realpathSync(vault), "utf8").digest("hex").slice(0, 16)}.token`,
		);
		const otherVault = join(directory, "0123456789abcdef.token");
		const record = join(directory, "4100.json");
		for (const file of [own, otherVault, record]) writeFileSync(file, "x");
		removeLegacyTokenFile(home, vault);
		expect([own, otherVault, record].map((file) => existsSync(file))).toEqual([false, true, true]);
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
		expect(parseArguments(["--vault", "v", "--mcp-port", "24001"]).mcpPort).toBe(24001);
		expect(parseArguments(["--vault", "v"]).mcpPort).toBeUndefined();
		expect(() => parseArguments(["--vault", "v", "--mcp-port", "70000"])).toThrow(ArgumentError);
		expect(() => parseArguments(["--vault", "v", "--mcp-port", "x"])).toThrow(
			'--mcp-port must be a whole number from 1 to 65535, not "x"',
		);
	});
});
