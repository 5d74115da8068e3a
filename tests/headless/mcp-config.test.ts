import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer as createNetServer } from "node:net";
import { join, resolve } from "node:path";
import { VAULT_TOOL_NAMES } from "../../src/vault-tools/create-vault-tools";
import { VAULT_TOOLS_INSTRUCTIONS } from "../../src/vault-tools/instructions";
import {
	headersFileName,
	httpTokenDirectory,
	httpTokenRecordPath,
} from "../../src/vault-tools/serve/http-token-record";
import { defaultVaultToolsPort } from "../../src/vault-tools/serve/vault-tools-port";
import { connectHeaders, runHeadersHelper, type HttpServerConfig } from "../helpers/headers-helper";
import { HeadlessProcess } from "../helpers/headless-process";
import { makeTempDir } from "../helpers/temp-dir";
import { FIXTURE_TIMEOUT_MS, WAIT_TIMEOUT_MS } from "../helpers/fixture-timeout";

interface ServerEntry {
	type: string;
	url?: string;
	headersHelper?: string;
	command?: string;
	args?: string[];
}

const CLI = resolve(__dirname, "../../dist/cli.cjs");

function httpConfig(entry: ServerEntry): HttpServerConfig {
	if (entry.type !== "http" || entry.url === undefined)
		throw new Error(`not an HTTP entry: ${JSON.stringify(entry)}`);
	return {
		type: "http",
		url: entry.url,
		...(entry.headersHelper !== undefined ? { headersHelper: entry.headersHelper } : {}),
	};
}

async function commandLine(host: HeadlessProcess, line: string, pattern: RegExp): Promise<string> {
	const before = host.stdout.length;
	host.send(line);
	return host.waitFor(() => pattern.exec(host.stdout.slice(before))?.[1], `the answer to "${line}"`, WAIT_TIMEOUT_MS);
}

/** The JSON for one session that `mcp-config <kind>` prints: either way under the one name, `obsidian`. */
async function mcpConfig(host: HeadlessProcess, kind: "stdio" | "http"): Promise<ServerEntry> {
	const line = await commandLine(host, `mcp-config ${kind}`, /^(\{"mcpServers".*\})$/m);
	const parsed = JSON.parse(line) as { mcpServers: Record<string, ServerEntry> };
	const name = "obsidian";
	expect(Object.keys(parsed.mcpServers)).toEqual([name]);
	const entry = parsed.mcpServers[name];
	if (!entry) throw new Error(`no ${name} entry`);
	return entry;
}

/**
 * Runs a printed `cd … && claude mcp …` line in a POSIX shell with a stand-in `claude` on the PATH that records the
 * folder it ran in and its arguments, exactly as the shell handed them over.
 */
function runPastedLine(line: string, dir: string): { cwd: string; argv: string[] } {
	const bin = join(dir, "bin");
	mkdirSync(bin, { recursive: true });
	const record = join(dir, "claude-call.json");
	writeFileSync(
		join(bin, "claude"),
		`#!${process.execPath}\nrequire("fs").writeFileSync(${JSON.stringify(record)}, JSON.stringify({ cwd: process.cwd(), argv: process.argv.slice(2) }));\n`,
		{ mode: 0o755 },
	);
	const run = spawnSync("sh", ["-c", line], { env: { PATH: `${bin}:${process.env.PATH ?? ""}` }, encoding: "utf8" });
	if (run.status !== 0) throw new Error(`the line failed: ${run.stderr}`);
	return JSON.parse(readFileSync(record, "utf8")) as { cwd: string; argv: string[] };
}

// Each test starts processes (the host, the helper, the stdio server): a hang guard sized for a loaded machine.
jest.setTimeout(60_000);

function status(url: string, authorization: string): Promise<number> {
	return new Promise((resolveStatus, reject) => {
		const req = httpRequest(
			url,
			{ method: "POST", headers: { Authorization: authorization, "Content-Type": "application/json" } },
			(res) => {
				res.resume();
				resolveStatus(res.statusCode ?? 0);
			},
		);
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

	it("serves HTTP on the vault's default port; mcp-config http holds no token, only the helper that prints the headers file", async () => {
		const expectedPort = defaultVaultToolsPort(realpathSync(vault));
		expect(host.stdout).toContain(
			`MCP (vault tools): http://127.0.0.1:${expectedPort}/mcp (a new token at every start`,
		);
		const entry = await mcpConfig(host, "http");
		expect(entry).toEqual({
			type: "http",
			url: `http://127.0.0.1:${expectedPort}/mcp`,
			headersHelper: `cat "$HOME/.claude-code-bridge/mcp-tokens/${headersFileName(expectedPort, realpathSync(vault))}"`,
		});
		const run = await runHeadersHelper(entry.headersHelper ?? "", entry.url ?? "", home);
		expect(run).toEqual({
			code: 0,
			stdout: expect.stringMatching(/^\{"Authorization":"Bearer [0-9a-f]{64}"\}$/) as unknown,
			stderr: "",
		});
		// The token of this start, 0600 in a 0700 folder under the home folder, and nothing else there.
		expect(readdirSync(httpTokenDirectory(home)).sort()).toEqual(
			[`${expectedPort}.json`, headersFileName(expectedPort, realpathSync(vault))].sort(),
		);
		expect(statSync(httpTokenRecordPath(home, expectedPort)).mode & 0o777).toBe(0o600);
		expect(statSync(httpTokenDirectory(home)).mode & 0o777).toBe(0o700);
		const token = (JSON.parse(run.stdout) as { Authorization: string }).Authorization.slice("Bearer ".length);
		expect(readFileSync(httpTokenRecordPath(home, expectedPort), "utf8")).toContain(token);
		expect(host.stdout + host.stderr).not.toContain(token);

		const client = new Client({ name: "mcp-config-test", version: "1.0.0" });
		await client.connect(
			new StreamableHTTPClientTransport(new URL(entry.url ?? ""), {
				requestInit: { headers: await connectHeaders(httpConfig(entry), home) },
			}),
		);
		expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([...VAULT_TOOL_NAMES]);
		expect(client.getInstructions()).toBe(VAULT_TOOLS_INSTRUCTIONS);
		const search = (await client.callTool({ name: "search", arguments: { query: "alpha" } })) as {
			content: { text: string }[];
		};
		expect(search.content[0]?.text).toMatch(/^Notes\/Alpha\.md:1: # Alpha/m);
		expect(search.content[0]?.text).not.toContain("Private");
		await client.close();
	});

	it("mcp-config stdio runs the package's command for this vault with the host's privacy options", async () => {
		const entry = await mcpConfig(host, "stdio");
		expect(entry).toEqual({
			type: "stdio",
			command: process.execPath,
			args: [CLI, "mcp", "--vault", vault, "--private-folder", "Private"],
		});
		const client = new Client({ name: "mcp-config-test", version: "1.0.0" });
		await client.connect(
			new StdioClientTransport({
				command: entry.command ?? "",
				args: entry.args ?? [],
				env: { PATH: process.env.PATH ?? "", HOME: home },
				stderr: "ignore",
			}),
		);
		expect(client.getInstructions()).toBe(VAULT_TOOLS_INSTRUCTIONS);
		const search = (await client.callTool({ name: "search", arguments: { query: "alpha" } })) as {
			content: { text: string }[];
		};
		expect(search.content[0]?.text).toMatch(/^Notes\/Alpha\.md:1: # Alpha/m);
		expect(search.content[0]?.text).not.toContain("Private");
		await client.close();
	});

	it("mcp-token rotate: the old token gets 401 at once; the same configuration fetches the new one", async () => {
		const config = httpConfig(await mcpConfig(host, "http"));
		const before = await connectHeaders(config, home);
		expect(await status(config.url, before.Authorization ?? "")).toBe(200);
		await commandLine(
			host,
			"mcp-token rotate",
			/^(New token for the MCP HTTP endpoint; the old one no longer works\..*)$/m,
		);
		expect(await status(config.url, before.Authorization ?? "")).toBe(401);
		expect(httpConfig(await mcpConfig(host, "http"))).toEqual(config);
		const after = await connectHeaders(config, home);
		expect(after.Authorization).not.toBe(before.Authorization);
		expect(await status(config.url, after.Authorization ?? "")).toBe(200);
	});

	(process.platform === "win32" ? it.skip : it)(
		"the banner and mcp-config print the settings tab's one line: obsidian, scope local, in the vault, with its rule",
		async () => {
			const answer = await commandLine(
				host,
				"mcp-config",
				/^(Add Claude's vault tools[\s\S]*?until then Claude Code does not fetch the vault tools' key\.)$/m,
			);
			expect(host.stdout).toContain(answer);
			const lines = answer.split("\n");
			expect(lines[0]).toBe(
				"Add Claude's vault tools to Claude Code: run this once (local scope: kept in your own Claude Code configuration, for the vault folder only; nothing is written into the vault):",
			);
			expect(lines[2]).toBe('  then let them run without asking: claude --allowedTools "mcp__obsidian"');
			const http = runPastedLine(lines[1] ?? "", join(temp.path, "paste-http"));
			expect(http.cwd).toBe(realpathSync(vault));
			expect(http.argv.slice(0, 5)).toEqual(["mcp", "add-json", "--scope", "local", "obsidian"]);
			expect(JSON.parse(http.argv[5] ?? "")).toEqual(await mcpConfig(host, "http"));
			expect(http.argv).toHaveLength(6);
		},
	);

	it("mcp-config stdio gives the developers' stdio server under the same name, with the JSON for one session", async () => {
		const answer = await commandLine(
			host,
			"mcp-config stdio",
			/^(The developers' stdio server[\s\S]*\{"mcpServers".*\})$/m,
		);
		expect(answer).toContain("claude mcp add --scope local obsidian -- ");
		expect(answer).toContain("claude mcp remove obsidian -s local");
	});

	it("mcp-status counts a client's protocol probes apart from refusals", async () => {
		const entry = await mcpConfig(host, "http");
		const counts = async (): Promise<{ probes: number; refused: number }> => {
			const answer = await commandLine(host, "mcp-status", /^(\d+ calls[^\n]*)$/m);
			const match =
				/; (\d+) protocol probes \(a client's GET for a stream, OAuth discovery, a newer protocol version: normal\); (\d+) refused; /.exec(
					answer,
				);
			if (!match) throw new Error(`no counts in: ${answer}`);
			return { probes: Number(match[1]), refused: Number(match[2]) };
		};
		const before = await counts();
		await new Promise<void>((resolveGet) =>
			httpRequest(entry.url ?? "", { method: "GET" }, (res) => (res.resume(), resolveGet())).end(),
		);
		expect(await counts()).toEqual({ probes: before.probes + 1, refused: before.refused });
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
		const taken = await new Promise<number>((resolveListen) =>
			blocker.listen(0, "127.0.0.1", () => resolveListen((blocker.address() as { port: number }).port)),
		);
		const host = await HeadlessProcess.start({ vault, home, args: ["--mcp-port", String(taken)] });
		try {
			expect(host.stdout).toContain(
				`MCP (vault tools) is off: port ${taken} is in use by another program. Start with --mcp-port N (a free port) to serve HTTP too.`,
			);
			expect(host.stdout).not.toContain("..");
			expect(host.stdout).toContain("Claude's vault tools: the MCP HTTP endpoint is off (port");
			// Nothing for the helper to hand to whatever holds the port.
			expect(existsSync(httpTokenRecordPath(home, taken))).toBe(false);
			host.send("mcp-config http");
			await host.waitForOutput(
				/(the MCP HTTP endpoint is off \(port \d+ is in use by another program)/,
				5000,
				"stderr",
			);
			expect((await mcpConfig(host, "stdio")).type).toBe("stdio");
			expect((await host.status()).state).toBe("listening");
		} finally {
			await host.quit();
			await new Promise<void>((resolveClose) => blocker.close(() => resolveClose()));
			temp.remove();
		}
	});
});

describe("the headless host's HTTP token record", () => {
	it("is removed when the host quits, so the helper has nothing to give", async () => {
		const temp = makeTempDir("headless-mcp-record");
		const home = join(temp.path, "home");
		const vault = join(temp.path, "vault");
		mkdirSync(home);
		mkdirSync(vault);
		const host = await HeadlessProcess.start({ vault, home });
		try {
			const config = httpConfig(await mcpConfig(host, "http"));
			const port = Number(new URL(config.url).port);
			expect(existsSync(httpTokenRecordPath(home, port))).toBe(true);
			expect(await host.quit()).toBe(0);
			expect(existsSync(httpTokenRecordPath(home, port))).toBe(false);
			const run = await runHeadersHelper(config.headersHelper ?? "", config.url, home);
			expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 1, stdout: "" });
			expect(readdirSync(httpTokenDirectory(home))).toEqual([]);
		} finally {
			host.kill();
			temp.remove();
		}
	});
});
