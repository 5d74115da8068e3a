import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import { join } from "node:path";
import { connectHeaders, type HttpServerConfig } from "../helpers/headers-helper";
import { HeadlessProcess } from "../helpers/headless-process";
import { makeTempDir } from "../helpers/temp-dir";

function post(url: string, headers: Record<string, string>): Promise<number> {
	return new Promise((resolve, reject) => {
		// A fresh socket each time: the server behind the port changes during a test.
		const req = httpRequest(url, { method: "POST", agent: false, headers: { ...headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream" } }, (res) => {
			res.resume();
			resolve(res.statusCode ?? 0);
		});
		req.on("error", reject);
		req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }));
	});
}

/** A program that took the port while the bridge is off: it keeps every Authorization header it is sent. */
async function squat(port: number): Promise<{ captured: string[]; close: () => Promise<void> }> {
	const captured: string[] = [];
	const server: Server = createServer((req, res) => {
		if (req.headers.authorization !== undefined) captured.push(req.headers.authorization);
		req.resume();
		res.writeHead(200, { "Content-Type": "application/json" }).end('{"jsonrpc":"2.0","id":1,"result":{}}');
	});
	await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
	return { captured, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function freePort(): Promise<number> {
	const probe = createServer();
	const port = await new Promise<number>((resolve) => probe.listen(0, "127.0.0.1", () => resolve((probe.address() as { port: number }).port)));
	await new Promise((resolve) => probe.close(resolve));
	return port;
}

async function httpEntry(host: HeadlessProcess): Promise<HttpServerConfig> {
	const before = host.stdout.length;
	host.send("mcp-config http");
	const line = await host.waitFor(() => /^(\{"mcpServers".*\})$/m.exec(host.stdout.slice(before))?.[1], "the mcp-config http line", 10_000);
	const entry = (JSON.parse(line) as { mcpServers: Record<string, HttpServerConfig | undefined> }).mcpServers["obsidian-http"];
	if (!entry) throw new Error(`no obsidian entry in ${line}`);
	return entry;
}

/**
 * Issue 15 finding 5: the vault tools' HTTP port is fixed per vault, so while the bridge is off any local program
 * can listen on it and collect the `Authorization: Bearer …` Claude Code sends. Run against the built headless
 * host (dist/headless.cjs) with the configuration `mcp-config http` prints, used as Claude Code 2.1.330 uses it
 * (`connectHeaders`: static headers plus what its `headersHelper` prints, run at every connect).
 */
describe("a program squatting the vault tools' HTTP port while the bridge is off", () => {
	jest.setTimeout(60_000);
	let temp: { path: string; remove: () => void };
	let home: string;
	let vault: string;
	let port: number;
	const hosts: HeadlessProcess[] = [];

	beforeEach(async () => {
		temp = makeTempDir("http-squatter");
		home = join(temp.path, "home");
		vault = join(temp.path, "My vault");
		mkdirSync(home);
		mkdirSync(vault);
		writeFileSync(join(vault, "note.md"), "# Note\n");
		port = await freePort();
	});

	afterEach(() => {
		for (const host of hosts.splice(0)) host.kill();
		temp.remove();
	});

	const startHost = async (): Promise<HeadlessProcess> => {
		const host = await HeadlessProcess.start({ vault, home, args: ["--mcp-port", String(port)] });
		hosts.push(host);
		await host.waitForOutput(/(MCP \(vault tools\): http:\/\/127\.0\.0\.1:\d+\/mcp)/);
		return host;
	};

	it("holds only a token the restarted bridge refuses (401), while the saved configuration connects again", async () => {
		const first = await startHost();
		const entry = await httpEntry(first);
		const session = await connectHeaders(entry, home);
		expect(await post(entry.url, session)).toBe(200);
		await first.quit();

		// A Claude Code session that connected before keeps sending what it has: the squatter gets that token.
		const squatter = await squat(port);
		await post(entry.url, session);
		await squatter.close();
		expect(squatter.captured).toEqual([expect.stringMatching(/^Bearer \S+$/) as unknown]);
		const [stolen = ""] = squatter.captured;

		await startHost();
		expect(await post(entry.url, { Authorization: stolen })).toBe(401);
		// The same saved entry, on the next connect (Claude Code runs the helper again after a 401).
		expect(await post(entry.url, await connectHeaders(entry, home))).toBe(200);
	});

	it("gets no token from a client that connects while the bridge is off", async () => {
		const first = await startHost();
		const entry = await httpEntry(first);
		await first.quit();

		const squatter = await squat(port);
		await post(entry.url, await connectHeaders(entry, home));
		await squatter.close();
		expect(squatter.captured).toEqual([]);
	});
});
