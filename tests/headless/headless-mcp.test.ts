import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HeadlessMcp, MCP_SERVER_NAME } from "../../src/headless/headless-mcp";
import { ToolRegistry } from "../../src/protocol/tool-registry";
import { VaultToolServer } from "../../src/vault-tools/serve/vault-tool-server";
import { makeTempDir } from "../helpers/temp-dir";

const temp = makeTempDir("headless-mcp-unit");
afterAll(() => temp.remove());
const dist = join(temp.path, "dist");
const vault = join(temp.path, "My Vault");

function mcp(overrides: Partial<ConstructorParameters<typeof HeadlessMcp>[0]> = {}) {
	return new HeadlessMcp({
		vaultPath: vault,
		server: new VaultToolServer({ registry: new ToolRegistry() }),
		port: 0,
		homeDir: join(temp.path, "home"),
		privateFolders: ["Private"],
		privateTags: ["secret"],
		scriptPath: join(dist, "headless.cjs"),
		nodePath: "/usr/bin/node",
		env: {},
		...overrides,
	});
}

function command(host: HeadlessMcp, name: string) {
	const found = host.commands().find(([candidate]) => candidate === name)?.[1];
	if (!found) throw new Error(`no command ${name}`);
	return found;
}

beforeAll(() => {
	mkdirSync(dist, { recursive: true });
	writeFileSync(join(dist, "cli.cjs"), "");
});

describe("HeadlessMcp", () => {
	it("prints the stdio configuration: node, the cli.cjs beside the host, the vault and the host's privacy options", () => {
		expect(JSON.parse(mcp().configLine("stdio"))).toEqual({
			mcpServers: { [MCP_SERVER_NAME]: { type: "stdio", command: "/usr/bin/node", args: [join(dist, "cli.cjs"), "mcp", "--vault", vault, "--private-folder", "Private", "--private-tag", "secret"] } },
		});
	});

	it("says to build first when the package's command is missing", () => {
		expect(() => mcp({ scriptPath: join(temp.path, "elsewhere", "headless.cjs") }).configLine("stdio")).toThrow(`the package's command ${join(temp.path, "elsewhere", "cli.cjs")} is missing; run "npm run build" first`);
	});

	it("refuses the HTTP configuration while the endpoint is off, pointing to stdio", () => {
		const host = mcp();
		expect(() => host.configLine("http")).toThrow(/^the MCP HTTP endpoint is off \(.*\); use "mcp-config stdio"$/);
		expect(host.statusLine()).toMatch(/^MCP \(vault tools\) over HTTP is off: .*\. "mcp-config stdio" still works\.$/);
	});

	it("serves HTTP with a token and prints its configuration, and rotation replaces the token", async () => {
		const host = mcp();
		try {
			const status = await host.start();
			expect(status.state).toBe("listening");
			const first = JSON.parse(host.configLine("http")) as { mcpServers: { obsidian: { url: string; headers: { Authorization: string } } } };
			expect(first.mcpServers.obsidian.url).toBe(status.url);
			expect(first.mcpServers.obsidian.headers.Authorization).toBe(`Bearer ${host.token.current()}`);
			expect(await command(host, "mcp-token").run(["rotate"])).toBe(`New token written to ${host.token.path}; the old one no longer works. Run "mcp-config http" for the new configuration.`);
			const second = JSON.parse(host.configLine("http")) as typeof first;
			expect(second.mcpServers.obsidian.headers.Authorization).not.toBe(first.mcpServers.obsidian.headers.Authorization);
			expect(await command(host, "mcp-status").run([])).toMatch(/^MCP \(vault tools\): http:\/\/127\.0\.0\.1:\d+\/mcp \(token in .*\); "mcp-config" prints Claude Code's configuration\n0 calls; 0 refused; clients: none yet$/);
		} finally {
			await host.stop();
		}
	});

	it("answers wrong command arguments with the usage", () => {
		const host = mcp();
		expect(() => command(host, "mcp-config").run(["ftp"])).toThrow("usage: mcp-config [stdio|http]");
		expect(() => command(host, "mcp-config").run(["stdio", "extra"])).toThrow("usage: mcp-config [stdio|http]");
		expect(() => command(host, "mcp-token").run([])).toThrow("usage: mcp-token rotate");
	});
});
