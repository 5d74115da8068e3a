import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import fc from "fast-check";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { createServer as createNetServer } from "node:net";
import { dirname, join } from "node:path";
import type { McpHttpServer } from "../../../src/server/http/mcp-http-server";
import { VAULT_TOOL_NAMES } from "../../../src/vault-tools/create-vault-tools";
import { createVaultToolsHttpServer } from "../../../src/vault-tools/serve/http-endpoint";
import { startAssembledBridge, type AssembledBridge } from "../../helpers/assembled-bridge";
import { pollUntil, waitUntil } from "../../helpers/wait-until";
import { FIXTURE_TIMEOUT_MS } from "../../helpers/fixture-timeout";

const TOKEN = "a".repeat(64);

interface CallResult {
	content: { type: string; text: string }[];
	isError?: boolean;
	structuredContent?: unknown;
}

interface RawAnswer {
	status: number;
	headers: IncomingHttpHeaders;
	body: string;
}

interface RawOptions {
	method?: string;
	path?: string;
	headers?: Record<string, string>;
	body?: string | Buffer;
}

function raw(port: number, options: RawOptions): Promise<RawAnswer> {
	return rawAbortable(port, options).answer;
}

/** A request whose client can give up (the socket is destroyed, as when a fetch is aborted). */
function rawAbortable(port: number, options: RawOptions): { answer: Promise<RawAnswer>; abort: () => void } {
	let abort = (): void => undefined;
	const answer = new Promise<RawAnswer>((resolve, reject) => {
		const req = httpRequest(
			{
				host: "127.0.0.1",
				port,
				method: options.method ?? "POST",
				path: options.path ?? "/mcp",
				headers: options.headers ?? {},
			},
			(res) => {
				let body = "";
				res.setEncoding("utf8");
				res.on("data", (chunk: string) => (body += chunk));
				res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
			},
		);
		req.on("error", reject);
		req.end(options.body);
		abort = () => req.destroy(new Error("the client gave up"));
	});
	return { answer, abort };
}

const PING = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
const GOOD = {
	Authorization: `Bearer ${TOKEN}`,
	"Content-Type": "application/json",
	Accept: "application/json, text/event-stream",
};

function textOf(result: unknown): string {
	return (result as CallResult).content.map((block) => block.text).join("\n");
}

describe("the vault tools over Streamable HTTP (POST /mcp)", () => {
	let fixture: AssembledBridge;
	let http: McpHttpServer;
	let port: number;
	let token = TOKEN;

	beforeAll(async () => {
		fixture = await startAssembledBridge({
			privacy: { folders: ["Private"] },
			populate: (root) => {
				const files: Record<string, string> = {
					"Notes/Alpha.md":
						"---\ntags: [project]\nstatus: open\n---\n# Alpha\n\nAlpha links to [[Beta]].\n\n## Tasks\n\n- one ^task-1\n",
					"Notes/Beta.md": "# Beta\n\nBack to [[Alpha#Tasks]] and [alpha](Alpha.md).\n",
					"Private/Secret.md": "# Secret\n\nAlpha secret, links [[Alpha]]. #project\n",
				};
				for (let index = 0; index < 45; index++)
					files[`Many/Note ${String(index).padStart(2, "0")}.md`] =
						`# Many ${index}\n\nThe word zebra appears here.\n`;
				for (const [path, text] of Object.entries(files)) {
					mkdirSync(dirname(join(root, path)), { recursive: true });
					writeFileSync(join(root, path), text);
				}
			},
		});
		const server = fixture.bridge.vaultTools;
		if (!server) throw new Error("the headless bridge serves no vault tools");
		http = createVaultToolsHttpServer(server, {
			port: 0,
			token: () => token,
			log: (message) => fixture.logs.push(message),
		});
		const status = await http.start();
		if (status.state !== "listening")
			throw new Error(`HTTP endpoint did not start: ${status.error ?? status.state}`);
		port = status.port;
	}, FIXTURE_TIMEOUT_MS);

	afterAll(async () => {
		await http?.stop();
		await fixture?.stop();
	});

	async function sdkClient(): Promise<Client> {
		const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
			requestInit: { headers: { Authorization: `Bearer ${token}` } },
		});
		const client = new Client({ name: "http-test", version: "1.0.0" });
		await client.connect(transport);
		return client;
	}

	/** Calls a tool; a write waiting for review is accepted with `diff accept` (the headless review). */
	async function callAccepting(client: Client, name: string, args: Record<string, unknown>): Promise<CallResult> {
		let settled = false;
		const call = client.callTool({ name, arguments: args }).finally(() => (settled = true));
		await waitUntil(
			async () => settled || (await fixture.command("diff list")) !== "No reviews pending.",
			`${name} to answer or ask for review`,
		);
		if (!settled) await fixture.command("diff accept");
		return (await call) as CallResult;
	}

	it("lists the twelve tools and answers a call to every tool with text (writes after diff accept)", async () => {
		const client = await sdkClient();
		const { tools } = await client.listTools();
		expect(tools.map((tool) => tool.name)).toEqual([...VAULT_TOOL_NAMES]);
		fixture.editor.select("Notes/Alpha.md", { line: 4, character: 0 }, { line: 4, character: 7 });
		const calls: [string, Record<string, unknown>, RegExp][] = [
			["search", { query: "alpha" }, /^Notes\/Alpha\.md:5: # Alpha/m],
			["read_note", { path: "Alpha", section: "Tasks" }, /^Notes\/Alpha\.md \| heading "Alpha > Tasks"/],
			["outline", { path: "Notes/Alpha.md" }, /9: ## Alpha > Tasks/],
			["links", { path: "Alpha", direction: "in" }, /in Notes\/Beta\.md:3: Back to \[\[Alpha#Tasks\]\]/],
			["tags", {}, /#project 1/],
			["properties", { key: "status" }, /Notes\/Alpha\.md:3: open/],
			["list_notes", { folder: "Notes" }, /^Notes\/Alpha\.md\nNotes\/Beta\.md\n/],
			["active_note", {}, /^Open: Notes\/Alpha\.md\nSelection: line 5, column 1 to line 5, column 8:\n# Alpha/],
			["create_note", { path: "Notes/Gamma", content: "# Gamma\n" }, /^Created Notes\/Gamma\.md/],
			[
				"edit_note",
				{ path: "Gamma", edits: [{ target: "Gamma", op: "append", content: "Body." }] },
				/^Applied 1 edit to Notes\/Gamma\.md/,
			],
			["set_properties", { path: "Gamma", set: { status: "draft" } }, /^Updated Notes\/Gamma\.md: set status/],
			[
				"move_note",
				{ path: "Notes/Beta.md", to: "Archive/Beta renamed.md" },
				/^Moved Notes\/Beta\.md to Archive\/Beta renamed\.md; updated 1 link in 1 note\./,
			],
		];
		for (const [name, args, expected] of calls) {
			const result = await callAccepting(client, name, args);
			expect({ name, isError: result.isError ?? false, structured: result.structuredContent }).toEqual({
				name,
				isError: false,
				structured: undefined,
			});
			expect(textOf(result)).toMatch(expected);
		}
		expect(readFileSync(join(fixture.vaultPath, "Notes/Gamma.md"), "utf8")).toBe(
			"---\nstatus: draft\n---\n# Gamma\nBody.\n",
		);
		expect(readFileSync(join(fixture.vaultPath, "Notes/Alpha.md"), "utf8")).toContain(
			"Alpha links to [[Beta renamed]].",
		);
		await client.close();
	});

	it("pages a search to the end, and answers errors as isError or JSON-RPC errors", async () => {
		const client = await sdkClient();
		const seen: string[] = [];
		let cursor: string | undefined;
		for (let page = 0; page < 10; page++) {
			const answer = textOf(
				await client.callTool({
					name: "search",
					arguments: { query: "zebra", limit: 20, ...(cursor ? { cursor } : {}) },
				}),
			);
			seen.push(...answer.split("\n").filter((line) => line.startsWith("Many/")));
			cursor = /cursor "([^"]+)"/.exec(answer)?.[1];
			if (!cursor) break;
		}
		expect(cursor).toBeUndefined();
		expect(new Set(seen).size).toBe(45);
		expect(seen).toHaveLength(45);

		const secret = (await client.callTool({
			name: "read_note",
			arguments: { path: "Private/Secret.md" },
		})) as CallResult;
		expect(secret.isError).toBe(true);
		expect(textOf(secret)).toMatch(/No note "Private\/Secret\.md" in the vault/);
		const outside = (await client.callTool({
			name: "read_note",
			arguments: { path: "../outside.md" },
		})) as CallResult;
		expect(textOf(outside)).toMatch(/refused: Path is outside the vault/);
		await expect(client.callTool({ name: "delete_note", arguments: {} })).rejects.toThrow(
			/Unknown tool: delete_note/,
		);
		const { resources } = await client.listResources();
		expect(resources.map((resource) => resource.uri)).toContain("vault://overview");
		const overview = await client.readResource({ uri: "vault://overview" });
		expect(JSON.stringify(overview)).not.toContain("Private");
		await client.close();
	});

	it("refuses before reading the body: 401, 403 Origin and Host, 404 well-known, 405, 413, 415, 400 version; no CORS headers", async () => {
		const answers: [string, RawAnswer, number][] = [
			["no token", await raw(port, { headers: { "Content-Type": "application/json" }, body: PING }), 401],
			[
				"wrong token",
				await raw(port, { headers: { ...GOOD, Authorization: `Bearer ${"b".repeat(64)}` }, body: PING }),
				401,
			],
			["not bearer", await raw(port, { headers: { ...GOOD, Authorization: TOKEN }, body: PING }), 401],
			[
				"foreign origin",
				await raw(port, { headers: { ...GOOD, Origin: "https://evil.example" }, body: PING }),
				403,
			],
			["foreign host", await raw(port, { headers: { ...GOOD, Host: `evil.example:${port}` }, body: PING }), 403],
			[
				"other port in host",
				await raw(port, { headers: { ...GOOD, Host: `127.0.0.1:${port + 1}` }, body: PING }),
				403,
			],
			[
				"oauth metadata",
				await raw(port, {
					method: "GET",
					path: "/.well-known/oauth-authorization-server",
					headers: { ...GOOD },
				}),
				404,
			],
			[
				"protected resource",
				await raw(port, { method: "GET", path: "/.well-known/oauth-protected-resource/mcp" }),
				404,
			],
			["other path", await raw(port, { path: "/", headers: GOOD, body: PING }), 404],
			["GET", await raw(port, { method: "GET", headers: GOOD }), 405],
			["DELETE", await raw(port, { method: "DELETE", headers: GOOD }), 405],
			["big body", await raw(port, { headers: GOOD, body: Buffer.alloc(1024 * 1024 + 1, 32) }), 413],
			[
				"big chunked body",
				await raw(port, {
					headers: { ...GOOD, "Transfer-Encoding": "chunked" },
					body: Buffer.alloc(1024 * 1024 + 1, 32),
				}),
				413,
			],
			["text body", await raw(port, { headers: { ...GOOD, "Content-Type": "text/plain" }, body: PING }), 415],
			[
				"bad version",
				await raw(port, { headers: { ...GOOD, "MCP-Protocol-Version": "1900-01-01" }, body: PING }),
				400,
			],
		];
		for (const [what, answer, status] of answers) {
			expect({ what, status: answer.status }).toEqual({ what, status });
			expect(Object.keys(answer.headers).filter((name) => name.startsWith("access-control-"))).toEqual([]);
			expect({ what, challenge: answer.headers["www-authenticate"] }).toEqual({
				what,
				challenge: status === 401 ? 'Bearer realm="claude-code-bridge"' : undefined,
			});
		}
		expect(answers.find(([what]) => what === "GET")?.[1].headers.allow).toBe("POST");
		expect(answers.find(([what]) => what === "oauth metadata")?.[1].body).toBe("Not found\n");
		const allowed = await raw(port, {
			headers: { ...GOOD, Origin: `http://127.0.0.1:${port}`, "MCP-Protocol-Version": "2025-11-25" },
			body: PING,
		});
		expect(allowed.status).toBe(200);
		expect(allowed.headers["content-type"]).toBe("application/json");
		expect(JSON.parse(allowed.body)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
	});

	it("answers a notification with 202 and no body, bad JSON and batches with 400", async () => {
		const note = await raw(port, {
			headers: GOOD,
			body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
		});
		expect({ status: note.status, body: note.body }).toEqual({ status: 202, body: "" });
		const bad = await raw(port, { headers: GOOD, body: "{nope" });
		expect(bad.status).toBe(400);
		expect(JSON.parse(bad.body)).toMatchObject({ error: { code: -32700 } });
		const batch = await raw(port, { headers: GOOD, body: `[${PING}]` });
		expect(batch.status).toBe(400);
		expect(JSON.parse(batch.body)).toMatchObject({ error: { code: -32600 } });
	});

	it("answers any body with 200, 202 or 400 and keeps serving", async () => {
		const message = fc.oneof(
			fc.string(),
			fc.json(),
			fc
				.record({
					jsonrpc: fc.constant("2.0"),
					id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
					method: fc.constantFrom("tools/call", "tools/list", "ping", "initialize", "nope"),
					params: fc.anything(),
				})
				.map((value) => JSON.stringify(value)),
		);
		await fc.assert(
			fc.asyncProperty(message, async (body) => {
				const answer = await raw(port, { headers: GOOD, body });
				expect([200, 202, 400]).toContain(answer.status);
				if (answer.status !== 202) expect(() => JSON.parse(answer.body) as unknown).not.toThrow();
			}),
			{ numRuns: 60 },
		);
		expect(JSON.parse((await raw(port, { headers: GOOD, body: PING })).body)).toEqual({
			jsonrpc: "2.0",
			id: 1,
			result: {},
		});
	});

	it("a rotated token applies to the next request", async () => {
		token = "c".repeat(64);
		try {
			expect((await raw(port, { headers: GOOD, body: PING })).status).toBe(401);
			expect(
				(await raw(port, { headers: { ...GOOD, Authorization: `Bearer ${token}` }, body: PING })).status,
			).toBe(200);
		} finally {
			token = TOKEN;
		}
	});

	it("a client that gives up on a write waiting for review withdraws the review; nothing is written", async () => {
		const before = readFileSync(join(fixture.vaultPath, "Notes/Alpha.md"), "utf8");
		const body = JSON.stringify({
			jsonrpc: "2.0",
			id: 7,
			method: "tools/call",
			params: {
				name: "edit_note",
				arguments: { path: "Alpha", edits: [{ target: "Alpha > Tasks", op: "append", content: "- late" }] },
			},
		});
		const call = rawAbortable(port, { headers: GOOD, body });
		await waitUntil(
			async () => (await fixture.command("diff list")).includes("Notes/Alpha.md"),
			"the review of Notes/Alpha.md",
		);
		call.abort();
		await expect(call.answer).rejects.toThrow("the client gave up");
		await waitUntil(
			async () => (await fixture.command("diff list")) === "No reviews pending.",
			"the review to be withdrawn",
		);
		expect(readFileSync(join(fixture.vaultPath, "Notes/Alpha.md"), "utf8")).toBe(before);
	});

	it("past the call limit a write waiting for review is answered as withdrawn, before Claude Code's 60 s", async () => {
		const server = fixture.bridge.vaultTools;
		if (!server) throw new Error("no vault tools");
		const short = createVaultToolsHttpServer(server, { port: 0, token: () => TOKEN, callLimitMs: 300 });
		const started = await short.start();
		try {
			const before = readFileSync(join(fixture.vaultPath, "Notes/Alpha.md"), "utf8");
			const body = JSON.stringify({
				jsonrpc: "2.0",
				id: 8,
				method: "tools/call",
				params: {
					name: "edit_note",
					arguments: { path: "Alpha", edits: [{ target: "Alpha > Tasks", op: "append", content: "- slow" }] },
				},
			});
			const answer = await raw(started.port, { headers: GOOD, body });
			expect(answer.status).toBe(200);
			const parsed = JSON.parse(answer.body) as { result: CallResult };
			expect(textOf(parsed.result)).toMatch(/withdrawn/);
			expect(await fixture.command("diff list")).toBe("No reviews pending.");
			expect(readFileSync(join(fixture.vaultPath, "Notes/Alpha.md"), "utf8")).toBe(before);
		} finally {
			await short.stop();
		}
	});

	it("stopping the endpoint withdraws a write waiting for review and closes its connection", async () => {
		const server = fixture.bridge.vaultTools;
		if (!server) throw new Error("no vault tools");
		const own = createVaultToolsHttpServer(server, { port: 0, token: () => TOKEN });
		const started = await own.start();
		const before = readFileSync(join(fixture.vaultPath, "Notes/Alpha.md"), "utf8");
		const body = JSON.stringify({
			jsonrpc: "2.0",
			id: 9,
			method: "tools/call",
			params: {
				name: "edit_note",
				arguments: { path: "Alpha", edits: [{ target: "Alpha > Tasks", op: "append", content: "- stopped" }] },
			},
		});
		const call = rawAbortable(started.port, { headers: GOOD, body });
		await waitUntil(
			async () => (await fixture.command("diff list")).includes("Notes/Alpha.md"),
			"the review of Notes/Alpha.md",
		);
		await own.stop();
		await expect(call.answer).rejects.toThrow();
		expect(await fixture.command("diff list")).toBe("No reviews pending.");
		expect(readFileSync(join(fixture.vaultPath, "Notes/Alpha.md"), "utf8")).toBe(before);
		expect(own.status()).toMatchObject({ state: "stopped" });
	});

	it("a taken port is an error in the status, never another port", async () => {
		const blocker = createNetServer();
		const taken = await new Promise<number>((resolve) =>
			blocker.listen(0, "127.0.0.1", () => resolve((blocker.address() as { port: number }).port)),
		);
		const server = fixture.bridge.vaultTools;
		if (!server) throw new Error("no vault tools");
		const clash = createVaultToolsHttpServer(server, { port: taken, token: () => TOKEN });
		try {
			const status = await clash.start();
			expect(status).toMatchObject({ state: "failed", port: taken });
			expect(status.error).toMatch(new RegExp(`Port ${taken} is in use`));
			expect(status.url).toBeUndefined();
		} finally {
			await clash.stop();
			await new Promise<void>((resolve) => blocker.close(() => resolve()));
		}
	});

	it("counts calls and refusals in the status", async () => {
		const before = http.status();
		await raw(port, { headers: { ...GOOD, "User-Agent": "claude-code/test" }, body: PING });
		await raw(port, { headers: { "Content-Type": "application/json" }, body: PING });
		const after = await pollUntil(() => {
			const status = http.status();
			return status.calls > before.calls && status.refused > before.refused ? status : undefined;
		}, "the counters");
		expect(after).toMatchObject({
			state: "listening",
			url: `http://127.0.0.1:${port}/mcp`,
			calls: before.calls + 1,
			refused: before.refused + 1,
		});
		expect(after.lastCallAt).toBeInstanceOf(Date);
		expect(after.clients[0]).toEqual({ userAgent: "claude-code/test", lastCallAt: after.lastCallAt });
	});

	it("counts a client's normal protocol probes (GET for a stream, OAuth discovery, a newer protocol version) apart from refusals", async () => {
		const before = http.status();
		expect((await raw(port, { method: "GET", headers: GOOD })).status).toBe(405);
		expect((await raw(port, { method: "GET", path: "/.well-known/oauth-protected-resource/mcp" })).status).toBe(
			404,
		);
		expect(
			(await raw(port, { headers: { ...GOOD, "MCP-Protocol-Version": "2099-01-01" }, body: PING })).status,
		).toBe(400);
		expect((await raw(port, { headers: { "Content-Type": "application/json" }, body: PING })).status).toBe(401);
		const after = await pollUntil(() => {
			const status = http.status();
			return status.refused > before.refused ? status : undefined;
		}, "the counters");
		expect({ probes: after.probes - before.probes, refused: after.refused - before.refused }).toEqual({
			probes: 3,
			refused: 1,
		});
	});
});
