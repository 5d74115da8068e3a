import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { VAULT_TOOL_NAMES } from "../../src/vault-tools/create-vault-tools";
import { VAULT_TOOLS_RELAY_CLIENT_NAME } from "../../src/vault-tools/serve/relay-methods";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import { connectOrThrow, type TestClient } from "../helpers/test-client";
import { waitUntil } from "../helpers/wait-until";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

const NOTES: Record<string, string> = {
	"Notes/Alpha.md": "# Alpha\n\nAlpha links to [[Beta]].\n\n## Tasks\n\n- one\n",
	"Notes/Beta.md": "# Beta\n\nBack to [[Alpha]].\n",
	"Private/Secret.md": "# Secret\n\nAlpha secret.\n",
	"Claude prompts/summarise.md": "Summarise the note {{note}}.\n",
};

interface ToolAnswer {
	content: { type: string; text: string }[];
	isError?: boolean;
}

function textOf(result: unknown): string {
	return (result as ToolAnswer).content.map((block) => block.text).join("\n");
}

/** A connection the way the stdio vault-tools server relays: the lock file's token, the relay's clientInfo. */
async function relayClient(fixture: AssembledBridge): Promise<TestClient> {
	const client = await connectOrThrow(fixture.port, { token: fixture.token });
	await client.request("initialize", {
		protocolVersion: "2025-11-25",
		capabilities: {},
		clientInfo: { name: VAULT_TOOLS_RELAY_CLIENT_NAME, version: "test" },
	});
	client.notify("notifications/initialized");
	return client;
}

describe("vault tools relayed over the IDE channel (vaultTools/*)", () => {
	let fixture: AssembledBridge;
	let relay: TestClient;

	beforeEach(async () => {
		fixture = await startAssembledBridge({
			privacy: { folders: ["Private"] },
			populate: (root) => {
				for (const [path, text] of Object.entries(NOTES)) {
					mkdirSync(dirname(join(root, path)), { recursive: true });
					writeFileSync(join(root, path), text);
				}
			},
		});
		relay = await relayClient(fixture);
	}, FIXTURE_TIMEOUT_MS);

	afterEach(async () => {
		await relay?.close();
		await fixture?.stop();
	});

	it("vaultTools/list answers exactly the vault tools' tools/list", async () => {
		const relayed = await relay.request("vaultTools/list", {});
		const server = fixture.bridge.vaultTools;
		if (!server) throw new Error("the headless bridge serves no vault tools");
		let direct: unknown;
		const session = server.session({
			id: 99,
			send: (text) => {
				direct = JSON.parse(text) as unknown;
			},
		});
		await session.handleMessage(JSON.stringify({ jsonrpc: "2.0", id: relayed.id, method: "tools/list" }));
		session.dispose();
		expect(relayed).toEqual(direct);
		expect((relayed.result as { tools: { name: string }[] }).tools.map((tool) => tool.name)).toEqual([
			...VAULT_TOOL_NAMES,
		]);
	});

	it("vaultTools/call answers tool results, keeps private notes out, and gives tools/call's errors", async () => {
		const search = await relay.request("vaultTools/call", { name: "search", arguments: { query: "alpha" } });
		expect(textOf(search.result)).toMatch(/^Notes\/Alpha\.md:1: # Alpha/m);
		expect(textOf(search.result)).not.toContain("Private");
		const secret = await relay.request("vaultTools/call", {
			name: "read_note",
			arguments: { path: "Private/Secret.md" },
		});
		expect(secret.result).toMatchObject({ isError: true });
		expect(textOf(secret.result)).toMatch(/No note "Private\/Secret\.md" in the vault/);
		const unknown = await relay.request("vaultTools/call", { name: "delete_note", arguments: {} });
		expect(unknown.error).toMatchObject({
			code: -32602,
			message: expect.stringMatching(/^Unknown tool: delete_note; available tools: search, read_note/) as unknown,
		});
		const noName = await relay.request("vaultTools/call", {});
		expect(noName.error).toMatchObject({
			code: -32602,
			message: 'Invalid params for tools/call: "name" must be a string',
		});
	});

	it("vaultTools/privacy answers the rules the bridge applies, read at the moment it is asked", async () => {
		expect((await relay.request("vaultTools/privacy", {})).result).toEqual({ folders: ["Private"], tags: [] });
		fixture.privacy.tags.push("#diary");
		expect((await relay.request("vaultTools/privacy", {})).result).toEqual({
			folders: ["Private"],
			tags: ["#diary"],
		});
	});

	it("vaultTools/request reaches other methods of the vault-tools server", async () => {
		const initialize = await relay.request("vaultTools/request", {
			method: "initialize",
			params: { protocolVersion: "2025-11-25", capabilities: {} },
		});
		expect(initialize.result).toMatchObject({
			serverInfo: { name: "obsidian-vault-tools" },
			capabilities: { tools: {} },
		});
		expect(initialize.result).toMatchObject({ capabilities: { resources: {}, prompts: {} } });
		const prompts = await relay.request("vaultTools/request", { method: "prompts/list" });
		expect((prompts.result as { prompts: { name: string }[] }).prompts.map((prompt) => prompt.name)).toEqual([
			"summarise",
		]);
		const resources = await relay.request("vaultTools/request", { method: "resources/list" });
		expect(
			(resources.result as { resources: { uri: string }[] }).resources.map((resource) => resource.uri),
		).toContain("vault://overview");
		const unknown = await relay.request("vaultTools/request", { method: "completion/complete" });
		expect(unknown.error).toMatchObject({ code: -32601, message: "Method not found: completion/complete" });
		const bad = await relay.request("vaultTools/request", { params: {} });
		expect(bad.error).toMatchObject({ code: -32602 });
	});

	it("a relay is not a Claude Code client: not in the status's clients, not sent selections", async () => {
		const ide = await fixture.client({ pid: 4242 });
		await waitUntil(
			() => fixture.bridge.host.status().clients.some((client) => client.pid === 4242),
			"the IDE client's ide_connected",
		);
		const status = fixture.bridge.host.status();
		expect(status.clients.map((client) => client.clientName)).toEqual(["test-client"]);
		expect(status.relays).toBe(1);
		fixture.editor.select("Notes/Alpha.md", { line: 0, character: 0 }, { line: 0, character: 7 });
		await ide.waitForNotification("selection_changed");
		expect(relay.notifications.filter((n) => n.method === "selection_changed")).toEqual([]);
		await ide.close();
	});

	it("a relayed edit waits for diff accept/reject like openDiff; a rejection writes nothing", async () => {
		const before = readFileSync(join(fixture.vaultPath, "Notes/Alpha.md"), "utf8");
		const pending = relay.request("vaultTools/call", {
			name: "edit_note",
			arguments: { path: "Alpha", edits: [{ target: "Alpha > Tasks", op: "append", content: "- two" }] },
		});
		await waitUntil(
			async () => (await fixture.command("diff list")).includes("Notes/Alpha.md"),
			"the review of Notes/Alpha.md",
		);
		expect(await fixture.command("diff reject Notes/Alpha.md")).toMatch(/^Rejected /);
		const rejected = await pending;
		expect(textOf(rejected.result)).toMatch(/rejected/i);
		expect(readFileSync(join(fixture.vaultPath, "Notes/Alpha.md"), "utf8")).toBe(before);

		const again = relay.request("vaultTools/call", {
			name: "edit_note",
			arguments: { path: "Alpha", edits: [{ target: "Alpha > Tasks", op: "append", content: "- two" }] },
		});
		await waitUntil(
			async () => (await fixture.command("diff list")).includes("Notes/Alpha.md"),
			"the review of Notes/Alpha.md",
		);
		await fixture.command("diff accept Notes/Alpha.md");
		expect(textOf((await again).result)).toMatch(/^Applied 1 edit to Notes\/Alpha\.md/);
		expect(readFileSync(join(fixture.vaultPath, "Notes/Alpha.md"), "utf8")).toBe(`${before}- two\n`);
	});

	it("notifications/cancelled for a relayed call withdraws its review and writes nothing", async () => {
		const before = readFileSync(join(fixture.vaultPath, "Notes/Beta.md"), "utf8");
		const id = "cancel-me";
		const pending = relay.request(
			"vaultTools/call",
			{
				name: "edit_note",
				arguments: { path: "Beta", edits: [{ target: "Beta", op: "append", content: "More." }] },
			},
			id,
		);
		await waitUntil(
			async () => (await fixture.command("diff list")).includes("Notes/Beta.md"),
			"the review of Notes/Beta.md",
		);
		relay.notify("notifications/cancelled", { requestId: id, reason: "test" });
		const answer = await pending;
		expect(textOf(answer.result)).toMatch(/cancelled/);
		expect(await fixture.command("diff list")).toBe("No reviews pending.");
		expect(readFileSync(join(fixture.vaultPath, "Notes/Beta.md"), "utf8")).toBe(before);
	});
});
