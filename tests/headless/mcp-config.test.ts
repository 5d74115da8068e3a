import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer as createNetServer } from "node:net";
import { join, resolve } from "node:path";
import { mcpTokenDirectory } from "../../src/headless/mcp-token-file";
import { VAULT_TOOL_NAMES } from "../../src/vault-tools/create-vault-tools";
import { defaultVaultToolsPort } from "../../src/vault-tools/serve/vault-tools-port";
import { HeadlessProcess } from "../helpers/headless-process";
import { makeTempDir } from "../helpers/temp-dir";
import { FIXTURE_TIMEOUT_MS, WAIT_TIMEOUT_MS } from "../helpers/fixture-timeout";

interface ServerEntry {
	type: string;
	url?: string;
	headers?: { Authorization: string };
	command?: string;
	args?: string[];
}

async function commandLine(host: HeadlessProcess, line: string, pattern: RegExp): Promise<string> {
	const before = host.stdout.length;
	host.send(line);
	return host.waitFor(() => pattern.exec(host.stdout.slice(before))?.[1], `the answer to "${line}"`, WAIT_TIMEOUT_MS);
}

async function mcpConfig(host: HeadlessProcess, kind: "stdio" | "http"): Promise<ServerEntry> {
	const line = await commandLine(host, `mcp-config ${kind}`, /^(\{"mcpServers".*\})$/m);
	const parsed = JSON.parse(line) as { mcpServers: Record<string, ServerEntry> };
	expect(Object.keys(parsed.mcpServers)).toEqual(["obsidian"]);
	const entry = parsed.mcpServers.obsidian;
	if (!entry) throw new Error("no obsidian entry");
	return entry;
}

function status(url: string, authorization: string): Promise<number> {
	return new Promise((resolveStatus, reject) => {
		const req = httpRequest(url, { method: "POST", headers: { Authorization: authorization, "Content-Type": "application/json" } }, (res) => {
			res.resume();
			resolveStatus(res.statusCode ?? 0);
		});
		req.on("error", reject);
		req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }));
	});
}

describe("the headless host's MCP endpoint and mcp-config", () => {
	const temp = makeTempDir("headless-mcp");
	const home = join(temp.path, "home");
	const vault = join(temp.path, "vault");
	let host: HeadlessProcess & { port: number };

	beforeAll(async () => {
		mkdirSync(home);
		mkdirSync(join(vault, "Notes"), { recursive: true });
		mkdirSync(join(vault, "Private"));
		writeFileSync(join(vault, "Notes/Alpha.md"), "# Alpha\n\nAlpha links to [[Beta]].\n");
		writeFileSync(join(vault, "Notes/Beta.md"), "# Beta\n");
		writeFileSync(join(vault, "Private/Secret.md"), "# Secret\n\nAlpha secret.\n");
		host = await HeadlessProcess.start({ vault, home, args: ["--private-folder", "Private"] });
	}, FIXTURE_TIMEOUT_MS);

	afterAll(async () => {
		await host?.quit();
		temp.remove();
	});

	it("serves HTTP on the vault's default port, and mcp-config http is one line a client can use as is", async () => {
		const expectedPort = defaultVaultToolsPort(realpathSync(vault));
		expect(host.stdout).toContain(`MCP (vault tools): http://127.0.0.1:${expectedPort}/mcp`);
		const entry = await mcpConfig(host, "http");
		expect(entry).toEqual({ type: "http", url: `http://127.0.0.1:${expectedPort}/mcp`, headers: { Authorization: expect.stringMatching(/^Bearer [0-9a-f]{64}$/) as unknown } });
		const tokenFiles = readdirSync(mcpTokenDirectory(home));
		expect(tokenFiles).toEqual([expect.stringMatching(/^[0-9a-f]{16}\.token$/) as unknown]);
		const tokenFile = join(mcpTokenDirectory(home), tokenFiles[0] ?? "");
		expect(`Bearer ${readFileSync(tokenFile, "utf8").trim()}`).toBe(entry.headers?.Authorization);
		expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
		expect(statSync(mcpTokenDirectory(home)).mode & 0o777).toBe(0o700);

		const client = new Client({ name: "mcp-config-test", version: "1.0.0" });
		await client.connect(new StreamableHTTPClientTransport(new URL(entry.url ?? ""), { requestInit: { headers: entry.headers ?? {} } }));
		expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([...VAULT_TOOL_NAMES]);
		const search = (await client.callTool({ name: "search", arguments: { query: "alpha" } })) as { content: { text: string }[] };
		expect(search.content[0]?.text).toMatch(/^Notes\/Alpha\.md:1: # Alpha/m);
		expect(search.content[0]?.text).not.toContain("Private");
		await client.close();
	});

	it("mcp-config stdio runs the package's command for this vault with the host's privacy options", async () => {
		const entry = await mcpConfig(host, "stdio");
		expect(entry).toEqual({ type: "stdio", command: process.execPath, args: [resolve(__dirname, "../../dist/cli.cjs"), "mcp", "--vault", vault, "--private-folder", "Private"] });
		const client = new Client({ name: "mcp-config-test", version: "1.0.0" });
		await client.connect(new StdioClientTransport({ command: entry.command ?? "", args: entry.args ?? [], env: { PATH: process.env.PATH ?? "", HOME: home }, stderr: "ignore" }));
		const search = (await client.callTool({ name: "search", arguments: { query: "alpha" } })) as { content: { text: string }[] };
		expect(search.content[0]?.text).toMatch(/^Notes\/Alpha\.md:1: # Alpha/m);
		expect(search.content[0]?.text).not.toContain("Private");
		await client.close();
	});

	it("mcp-token rotate: the old token gets 401 at once, mcp-config http prints the new one", async () => {
		const before = await mcpConfig(host, "http");
		const url = before.url ?? "";
		expect(await status(url, before.headers?.Authorization ?? "")).toBe(200);
		await commandLine(host, "mcp-token rotate", /^(New token written to .*)$/m);
		expect(await status(url, before.headers?.Authorization ?? "")).toBe(401);
		const after = await mcpConfig(host, "http");
		expect(after.headers?.Authorization).not.toBe(before.headers?.Authorization);
		expect(await status(url, after.headers?.Authorization ?? "")).toBe(200);
	});

	it("answers a wrong mcp-config kind with its usage, and the host keeps running", async () => {
		host.send("mcp-config sse");
		await host.waitForOutput(/(usage: mcp-config \[stdio\|http\])/, 5000, "stderr");
		expect((await host.status()).state).toBe("listening");
	});
});

describe("the headless host with its MCP port taken", () => {
	it("says the endpoint is off and why, keeps serving the IDE channel, and mcp-config http says so", async () => {
		const temp = makeTempDir("headless-mcp-taken");
		const home = join(temp.path, "home");
		const vault = join(temp.path, "vault");
		mkdirSync(home);
		mkdirSync(vault);
		const blocker = createNetServer();
		const taken = await new Promise<number>((resolveListen) => blocker.listen(0, "127.0.0.1", () => resolveListen((blocker.address() as { port: number }).port)));
		const host = await HeadlessProcess.start({ vault, home, args: ["--mcp-port", String(taken)] });
		try {
			expect(host.stdout).toContain(`MCP (vault tools) over HTTP is off: Port ${taken} is in use by another program`);
			host.send("mcp-config http");
			await host.waitForOutput(/(the MCP HTTP endpoint is off \(Port \d+ is in use)/, 5000, "stderr");
			expect((await mcpConfig(host, "stdio")).type).toBe("stdio");
			expect((await host.status()).state).toBe("listening");
		} finally {
			await host.quit();
			await new Promise<void>((resolveClose) => blocker.close(() => resolveClose()));
			temp.remove();
		}
	});
});
