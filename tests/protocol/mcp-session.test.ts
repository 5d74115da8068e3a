import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { VaultPaths } from "../../src/vault/vault-paths";
import { McpSession } from "../../src/protocol/mcp-session";
import { ToolRegistry } from "../../src/protocol/tool-registry";
import { MAX_OUTGOING_MESSAGE_BYTES } from "../../src/server/limits";
import { VAULT_TOOL_NAMES, createVaultToolRegistry } from "../../src/vault-tools/create-vault-tools";
import { FolderVaultIndex } from "../../src/vault/folder/folder-vault-index";
import { makeTempDir } from "../helpers/temp-dir";
import { VisibleVault } from "../../src/vault/privacy/visible-vault";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";
import { VAULT_TOOLS_INSTRUCTIONS } from "../../src/vault-tools/instructions";
import { libraryYamlCodec } from "../../src/vault/folder/yaml-library-codec";

interface CallResult {
	content: { type: string; text: string }[];
	isError?: boolean;
	structuredContent?: unknown;
}

/** The vault tools served by a real McpSession, reached by the MCP SDK's Client over an in-memory pair. */
async function serve(root: string): Promise<{ client: Client; close: () => Promise<void>; index: FolderVaultIndex }> {
	const index = new FolderVaultIndex({ root, watch: false });
	const tools = createVaultToolRegistry({
		yaml: libraryYamlCodec,
		vault: new VisibleVault({
			index,
			paths: new VaultPaths(root),
			isPrivate: (path) => path.startsWith("Private/"),
		}),
		activeNote: {
			current: () => ({
				path: "Notes/Alpha.md",
				selection: { from: { line: 4, character: 0 }, to: { line: 4, character: 5 }, text: "Alpha" },
			}),
		},
	});
	const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
	const session = new McpSession({
		id: 1,
		send: (text) => void serverSide.send(JSON.parse(text) as JSONRPCMessage),
		serverInfo: { name: "obsidian-vault-tools", version: "test" },
		tools,
		instructions: VAULT_TOOLS_INSTRUCTIONS,
		maxOutgoingBytes: MAX_OUTGOING_MESSAGE_BYTES,
	});
	serverSide.onmessage = (message) => void session.handleMessage(JSON.stringify(message));
	await serverSide.start();
	const client = new Client({ name: "vault-tools-test", version: "1.0.0" });
	await client.connect(clientSide);
	return {
		client,
		index,
		close: async () => {
			await client.close();
			session.dispose();
			index.dispose();
		},
	};
}

function text(result: unknown): string {
	return (result as CallResult).content.map((block) => block.text).join("\n");
}

describe("vault tools through McpSession and the MCP SDK Client", () => {
	const temp = makeTempDir("vault-tools-mcp");
	const root = temp.path;
	let served: Awaited<ReturnType<typeof serve>>;

	beforeAll(async () => {
		const files: Record<string, string> = {
			"Notes/Alpha.md":
				"---\ntags: [project]\nstatus: open\n---\n# Alpha\n\nAlpha links to [[Beta]].\n\n## Tasks\n\n- one ^task-1\n",
			"Notes/Beta.md": "# Beta\n\nBack to [[Alpha#Tasks]] and [alpha](Alpha.md).\n",
			"Private/Secret.md": "# Secret\n\nAlpha secret, links [[Alpha]]. #project\n",
		};
		for (let index = 0; index < 45; index++)
			files[`Many/Note ${String(index).padStart(2, "0")}.md`] =
				`# Many ${index}\n\nThe word zebra appears here.\n`;
		for (const [path, body] of Object.entries(files)) {
			mkdirSync(dirname(join(root, path)), { recursive: true });
			writeFileSync(join(root, path), body);
		}
		served = await serve(root);
	}, FIXTURE_TIMEOUT_MS);

	afterAll(async () => {
		await served?.close();
		temp.remove();
	});

	it("lists the twelve tools with truthful annotations, no output schemas; tools/list plus the initialize instructions in at most 12,000 characters", async () => {
		const { tools } = await served.client.listTools();
		expect(tools.map((tool) => tool.name)).toEqual([...VAULT_TOOL_NAMES]);
		const readTools = [
			"search",
			"read_note",
			"outline",
			"links",
			"tags",
			"properties",
			"list_notes",
			"active_note",
		];
		for (const tool of tools) {
			expect(tool.annotations?.readOnlyHint).toBe(readTools.includes(tool.name));
			expect(tool.outputSchema).toBeUndefined();
		}
		expect(tools.find((tool) => tool.name === "edit_note")?.annotations).toMatchObject({
			destructiveHint: true,
			idempotentHint: false,
		});
		expect(tools.find((tool) => tool.name === "create_note")?.annotations).toMatchObject({
			destructiveHint: false,
		});
		const instructions = served.client.getInstructions();
		expect(instructions).toBe(VAULT_TOOLS_INSTRUCTIONS);
		const size = JSON.stringify(tools).length + (instructions ?? "").length;
		expect(size).toBeLessThanOrEqual(12_000);
	});

	it("answers a call to every tool with text and no structuredContent", async () => {
		const calls: [string, Record<string, unknown>, RegExp][] = [
			["search", { query: "alpha" }, /^Notes\/Alpha\.md:5: # Alpha/m],
			[
				"read_note",
				{ path: "Alpha", section: "Tasks" },
				/Notes\/Alpha\.md \| heading "Alpha > Tasks", lines 9-11 of 12 \| version \S+\n## Tasks\n\n- one \^task-1\n$/,
			],
			["outline", { path: "Notes/Alpha.md" }, /9: ## Alpha > Tasks/],
			["links", { path: "Alpha", direction: "in" }, /in Notes\/Beta\.md:3: Back to \[\[Alpha#Tasks\]\]/],
			["tags", {}, /#project 1/],
			["properties", { key: "status" }, /Notes\/Alpha\.md:3: open/],
			["list_notes", { folder: "Notes" }, /^Notes\/Alpha\.md\nNotes\/Beta\.md\n\(total 2 notes/],
			["active_note", {}, /Open: Notes\/Alpha\.md\nSelection: line 5, column 1 to line 5, column 6:\nAlpha/],
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
				/^Moved Notes\/Beta\.md to Archive\/Beta renamed\.md; updated 1 link in 1 note\.\nNotes\/Alpha\.md: 1$/,
			],
		];
		for (const [name, args, expected] of calls) {
			const result = (await served.client.callTool({ name, arguments: args })) as CallResult;
			expect({ name, isError: result.isError ?? false }).toEqual({ name, isError: false });
			expect(result.structuredContent).toBeUndefined();
			expect(text(result)).toMatch(expected);
		}
		expect(readFileSync(join(root, "Notes/Gamma.md"), "utf8")).toBe("---\nstatus: draft\n---\n# Gamma\nBody.\n");
		expect(readFileSync(join(root, "Notes/Alpha.md"), "utf8")).toContain("Alpha links to [[Beta renamed]].");
	});

	it("pages a search to the end: every match exactly once, then no cursor", async () => {
		const seen: string[] = [];
		let cursor: string | undefined;
		for (let pageNumber = 0; pageNumber < 10; pageNumber++) {
			const answer = text(
				await served.client.callTool({
					name: "search",
					arguments: { query: "zebra", limit: 20, ...(cursor ? { cursor } : {}) },
				}),
			);
			seen.push(...answer.split("\n").filter((line) => line.startsWith("Many/")));
			cursor = /cursor "([^"]+)"/.exec(answer)?.[1];
			if (!cursor) {
				expect(answer).toMatch(/total 45 matches; showing 41-45/);
				break;
			}
		}
		expect(cursor).toBeUndefined();
		expect(seen).toHaveLength(45);
		expect(new Set(seen).size).toBe(45);
	});

	it("answers bad input with isError and a message a person can act on", async () => {
		const bad: [string, Record<string, unknown>, RegExp][] = [
			["search", {}, /"query" is required/],
			["search", { query: "x", mode: "fuzzy" }, /"mode" must be one of text, regex, tag, property, path/],
			["search", { query: "x", limit: 1000 }, /"limit" must be a whole number from 1 to 100/],
			["search", { query: "(", mode: "regex" }, /not a valid regular expression/],
			["search", { query: "zebra", cursor: "nonsense" }, /not a cursor this tool gave/],
			["read_note", { path: "Nowhere" }, /No note "Nowhere" in the vault/],
			["read_note", { path: "../outside.md" }, /refused: Path is outside the vault/],
			["read_note", { path: "Alpha", section: "No such heading" }, /no heading "No such heading"/],
			["links", { path: "Alpha", direction: "sideways" }, /"direction" must be in, out or both/],
			["list_notes", { folder: "Nope" }, /no notes under folder "Nope"/],
			["create_note", { path: "Notes/Alpha.md", content: "x" }, /already exists/],
			["create_note", { path: ".hidden/x.md", content: "x" }, /hidden folder/],
			["edit_note", { path: "Alpha", edits: [] }, /"edits" must be a non-empty array/],
			[
				"edit_note",
				{ path: "Alpha", edits: [{ target: "Tasks", op: "explode", content: "x" }] },
				/"op" must be one of/,
			],
			[
				"edit_note",
				{ path: "Alpha", edits: [{ target: "Tasks", op: "append", content: "x" }], version: "old" },
				/version old is stale/,
			],
			["set_properties", { path: "Alpha" }, /give "set"/],
			["move_note", { path: "Alpha", to: "Notes/Gamma.md" }, /already exists/],
			["outline", { path: "Alpha", extra: 1 }, /unknown argument "extra"/],
		];
		for (const [name, args, expected] of bad) {
			const result = (await served.client.callTool({ name, arguments: args })) as CallResult;
			expect({ name, args, isError: result.isError }).toEqual({ name, args, isError: true });
			expect(text(result)).toMatch(expected);
		}
	});

	it("keeps a private note out of every answer", async () => {
		const search = text(await served.client.callTool({ name: "search", arguments: { query: "secret" } }));
		expect(search).toMatch(/^No matches/);
		const missing = text(
			await served.client.callTool({ name: "read_note", arguments: { path: "Nowhere/Gone.md" } }),
		);
		const secret = text(
			await served.client.callTool({ name: "read_note", arguments: { path: "Private/Secret.md" } }),
		);
		expect(secret.replace("Private/Secret.md", "X")).toBe(missing.replace("Nowhere/Gone.md", "X"));
		const backlinks = text(
			await served.client.callTool({ name: "links", arguments: { path: "Alpha", direction: "in" } }),
		);
		expect(backlinks).not.toContain("Private");
		const tags = text(await served.client.callTool({ name: "tags", arguments: {} }));
		expect(tags).toMatch(/#project 1\b/);
	});
});

describe("McpSession's request observer", () => {
	it("sees each request with its session, hands its id to the handler, and reports the answer's size", async () => {
		const tools = new ToolRegistry();
		const contexts: (string | undefined)[] = [];
		tools.register({
			name: "echo",
			description: "",
			inputSchema: { type: "object" },
			call: (_args, context) => {
				contexts.push(context.journalId);
				return Promise.resolve({ content: [{ type: "text", text: "é" }] });
			},
		});
		const sent: string[] = [];
		const seen: { method: string; client?: string; pid?: number; bytes?: number; kind?: string }[] = [];
		const session = new McpSession({
			id: 7,
			send: (text) => sent.push(text),
			serverInfo: { name: "s", version: "1" },
			tools,
			maxOutgoingBytes: MAX_OUTGOING_MESSAGE_BYTES,
			observer: {
				started: (request) => {
					const record: (typeof seen)[number] = {
						method: request.method,
						...(request.session.client?.name ? { client: request.session.client.name } : {}),
						...(request.session.pid ? { pid: request.session.pid } : {}),
					};
					seen.push(record);
					if (request.method === "ping") throw new Error("an observer that fails");
					return {
						id: `j${seen.length}`,
						finished: (outcome) => Object.assign(record, { bytes: outcome.bytes, kind: outcome.kind }),
					};
				},
			},
		});
		await session.handleMessage(
			JSON.stringify({
				jsonrpc: "2.0",
				id: 1,
				method: "initialize",
				params: { protocolVersion: "2025-11-25", clientInfo: { name: "claude-code" } },
			}),
		);
		await session.handleMessage(JSON.stringify({ jsonrpc: "2.0", method: "ide_connected", params: { pid: 99 } }));
		await session.handleMessage(
			JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: {} } }),
		);
		await session.handleMessage(
			JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "missing" } }),
		);
		await session.handleMessage(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "ping" }));
		expect(contexts).toEqual(["j2"]);
		expect(seen.map(({ method, client, pid, kind }) => [method, client, pid, kind])).toEqual([
			["initialize", undefined, undefined, "result"],
			["tools/call", "claude-code", 99, "result"],
			["tools/call", "claude-code", 99, "error"],
			["ping", "claude-code", 99, undefined],
		]);
		expect(seen[1]?.bytes).toBe(Buffer.byteLength(sent[1] ?? "", "utf8"));
		expect(sent).toHaveLength(4);
		expect(JSON.parse(sent[3] ?? "{}")).toEqual({ jsonrpc: "2.0", id: 4, result: {} });
	});
});

describe("McpSession.notifyEncoded: a notification encoded by the caller", () => {
	function session(
		maxOutgoingBytes: number,
		traced: string[] = [],
	): { session: McpSession; sent: string[]; logs: string[] } {
		const sent: string[] = [];
		const logs: string[] = [];
		const created = new McpSession({
			id: 3,
			send: (text) => sent.push(text),
			serverInfo: { name: "s", version: "1" },
			tools: new ToolRegistry(),
			maxOutgoingBytes,
			events: {
				onLog: (message) => logs.push(message),
				onTrace: (event) => traced.push(`${event.direction} ${event.kind} ${event.method ?? ""}`),
			},
		});
		return { session: created, sent, logs };
	}

	it("sends the text as given, traced as that notification", () => {
		const traced: string[] = [];
		const { session: one, sent } = session(MAX_OUTGOING_MESSAGE_BYTES, traced);
		const text = JSON.stringify({ jsonrpc: "2.0", method: "selection_changed", params: { text: "é" } });
		one.notifyEncoded("selection_changed", text);
		expect(sent).toEqual([text]);
		expect(traced).toEqual(["out notification selection_changed"]);
	});

	it("drops what could not be encoded, or is over the message limit, with a log line, as notify does", () => {
		const { session: one, sent, logs } = session(64);
		one.notifyEncoded("selection_changed", undefined);
		one.notifyEncoded(
			"selection_changed",
			JSON.stringify({ jsonrpc: "2.0", method: "selection_changed", params: { text: "x".repeat(64) } }),
		);
		one.notify("selection_changed", { text: "x".repeat(64) });
		expect(sent).toEqual([]);
		expect(logs).toEqual([
			"[session 3] Dropped an outgoing selection_changed that cannot be encoded as JSON",
			"[session 3] Dropped an outgoing selection_changed of over 64 bytes",
			"[session 3] Dropped an outgoing selection_changed of over 64 bytes",
		]);
		one.dispose();
		one.notifyEncoded("selection_changed", "{}");
		expect(sent).toEqual([]);
	});
});
