import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { AskingSession, ToolUseRequest } from "../../src/agent/agent-session";
import { applyCliEdits } from "../../src/agent/gate/cli-edit";
import { MemoryPermissionRules } from "../../src/agent/gate/permission-rules";
import { assembleAgent } from "../../src/assembly/agent-assembly";
import { MemoryJournalStore } from "../../src/journal/memory-journal-store";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";
import { waitUntil } from "../helpers/wait-until";

const noQuestions: AskingSession = {
	sessionId: "cli-session-1",
	ask: () => Promise.reject(new Error("nothing should be asked")),
};

let fixture: AssembledBridge | undefined;
/** The fixture of the running test. */
const bridge = (): AssembledBridge => {
	if (!fixture) throw new Error("no bridge started");
	return fixture;
};
beforeEach(async () => {
	fixture = await startAssembledBridge({
		journalStore: new MemoryJournalStore(),
		privacy: { folders: ["Private"] },
		populate: (vault) => {
			writeFileSync(join(vault, "note.md"), "# Note\nfirst draft\n");
			mkdirSync(join(vault, "Private"));
			writeFileSync(join(vault, "Private", "diary.md"), "secret words\n");
		},
	});
}, FIXTURE_TIMEOUT_MS);
afterEach(() => fixture?.stop());

/** Runs an allowed Edit the way the CLI does: its input applied to the file on disk. */
function runEditLikeCli(request: ToolUseRequest, input: Record<string, unknown>): void {
	const file = String(input.file_path);
	const result = applyCliEdits(readFileSync(file, "utf8"), [
		{ old_string: String(input.old_string), new_string: String(input.new_string) },
	]);
	if (!result.ok) throw new Error(`${request.toolName} failed: ${result.message}`);
	writeFileSync(file, result.text);
}

describe("assembleAgent", () => {
	it("Claude Code's Edit opens the bridge's review before the file changes; the user's version is written exactly and journaled with its pre-image for undo", async () => {
		const fixture = bridge();
		const { gate } = assembleAgent(fixture.bridge, { rules: new MemoryPermissionRules() });
		const file = join(fixture.vaultPath, "note.md");
		const request: ToolUseRequest = {
			toolUseId: "tool-1",
			toolName: "Edit",
			input: { file_path: file, old_string: "first draft", new_string: "second draft" },
		};
		const decided = gate.decide(request, noQuestions);
		await waitUntil(() => fixture.bridge.reviews.findPending() !== undefined, "the review to open");
		const pending = fixture.bridge.reviews.findPending();
		expect(pending).toMatchObject({
			after: "# Note\nsecond draft\n",
			before: "# Note\nfirst draft\n",
			sessionId: -1,
			proposer: { surface: "panel", client: "Claude Code (agent panel)", tool: "Edit" },
		});
		expect(readFileSync(file, "utf8")).toBe("# Note\nfirst draft\n");
		fixture.bridge.reviews.accept(pending?.title ?? "", "# Note\nthe user's draft\n");
		const decision = await decided;
		if (decision.behavior !== "allow") throw new Error(decision.message);
		runEditLikeCli(request, decision.updatedInput);
		expect(readFileSync(file, "utf8")).toBe("# Note\nthe user's draft\n");
		await gate.toolFinished("tool-1", false);
		const activity = fixture.bridge.activity;
		const [entry] = (await activity?.journal.entries()) ?? [];
		expect(entry).toMatchObject({ tool: "Edit", session: { surface: "panel" }, notes: ["note.md"], outcome: "ok" });
		expect(await activity?.undo?.entry(entry?.id ?? "")).toMatchObject({ kind: "undone" });
		expect(readFileSync(file, "utf8")).toBe("# Note\nfirst draft\n");
	});

	it("an Edit that adds a private tag is journaled as a vault-tool write would be: no note name, no path in the arguments, no earlier text", async () => {
		const tagged = await startAssembledBridge({
			journalStore: new MemoryJournalStore(),
			privacy: { folders: [], tags: ["private"] },
			reviewVaultToolWrites: () => false,
			populate: (vault) => writeFileSync(join(vault, "plans.md"), "# Plans\nsecret plans\n"),
		});
		try {
			const { gate } = assembleAgent(tagged.bridge, { rules: new MemoryPermissionRules() });
			const file = join(tagged.vaultPath, "plans.md");
			const request: ToolUseRequest = {
				toolUseId: "tool-9",
				toolName: "Edit",
				input: { file_path: file, old_string: "secret plans", new_string: "secret plans #private" },
			};
			const decided = gate.decide(request, noQuestions);
			await waitUntil(() => tagged.bridge.reviews.findPending() !== undefined, "the review to open");
			tagged.bridge.reviews.accept(
				tagged.bridge.reviews.findPending()?.title ?? "",
				"# Plans\nsecret plans #private\n",
			);
			const decision = await decided;
			if (decision.behavior !== "allow") throw new Error(decision.message);
			runEditLikeCli(request, decision.updatedInput);
			await gate.toolFinished("tool-9", false);
			const journal = tagged.bridge.activity?.journal;
			const [entry] = (await journal?.entries()) ?? [];
			expect(entry).toMatchObject({ tool: "Edit", notes: [], args: "Edit (a private note)", changes: [] });
			expect(JSON.stringify(await journal?.entries())).not.toContain("plans");
		} finally {
			await tagged.stop();
		}
	});

	it("a rejection in the review reaches Claude with the reason, and the file is unchanged", async () => {
		const fixture = bridge();
		const { gate } = assembleAgent(fixture.bridge, { rules: new MemoryPermissionRules() });
		const file = join(fixture.vaultPath, "note.md");
		const decided = gate.decide(
			{ toolName: "Write", input: { file_path: file, content: "replaced\n" } },
			noQuestions,
		);
		await waitUntil(() => fixture.bridge.reviews.findPending() !== undefined, "the review to open");
		fixture.bridge.reviews.reject(fixture.bridge.reviews.findPending()?.title ?? "");
		expect(await decided).toEqual({
			behavior: "deny",
			message: `The user rejected this change to ${file}. Their reason: the user rejected the change in the review. Nothing was written.`,
		});
		expect(readFileSync(file, "utf8")).toBe("# Note\nfirst draft\n");
	});

	it("a private note is refused as a missing file by Edit and Read, never shown in a review", async () => {
		const fixture = bridge();
		const { gate } = assembleAgent(fixture.bridge, { rules: new MemoryPermissionRules() });
		const diary = join(fixture.vaultPath, "Private", "diary.md");
		expect(
			await gate.decide(
				{ toolName: "Edit", input: { file_path: diary, old_string: "secret", new_string: "x" } },
				noQuestions,
			),
		).toEqual({ behavior: "deny", message: "File does not exist." });
		expect(
			await gate.decide(
				{ toolName: "Write", input: { file_path: join(fixture.vaultPath, "Private", "new.md"), content: "x" } },
				noQuestions,
			),
		).toEqual({ behavior: "deny", message: "File does not exist." });
		expect(await gate.decide({ toolName: "Read", input: { file_path: diary } }, noQuestions)).toEqual({
			behavior: "deny",
			message: "File does not exist.",
		});
		expect(
			await gate.decide(
				{ toolName: "Read", input: { file_path: join(fixture.vaultPath, "note.md") } },
				noQuestions,
			),
		).toMatchObject({ behavior: "allow" });
		expect(fixture.bridge.reviews.list()).toEqual([]);
	});

	it("serves the vault tools in process under the same privacy, recorded in the journal as the panel's", async () => {
		const fixture = bridge();
		const { gate, mcpServers } = assembleAgent(fixture.bridge, { rules: new MemoryPermissionRules() });
		const servers = mcpServers();
		expect(servers.names()).toEqual(["obsidian"]);
		const initialized = await servers.handle("obsidian", {
			jsonrpc: "2.0",
			id: 1,
			method: "initialize",
			params: {
				protocolVersion: "2025-06-18",
				capabilities: {},
				clientInfo: { name: "claude-code", version: "2" },
			},
		});
		expect(initialized).toMatchObject({ id: 1, result: { serverInfo: { name: "obsidian-vault-tools" } } });
		expect(
			await servers.handle("obsidian", { jsonrpc: "2.0", method: "notifications/initialized" }),
		).toBeUndefined();
		const [listed, publicNote, privateNote] = await Promise.all([
			servers.handle("obsidian", { jsonrpc: "2.0", id: 2, method: "tools/list" }),
			servers.handle(
				"obsidian",
				{
					jsonrpc: "2.0",
					id: "a",
					method: "tools/call",
					params: { name: "read_note", arguments: { path: "note.md" } },
				},
				"turn-1",
			),
			servers.handle(
				"obsidian",
				{
					jsonrpc: "2.0",
					id: "b",
					method: "tools/call",
					params: { name: "read_note", arguments: { path: "Private/diary.md" } },
				},
				"turn-1",
			),
		]);
		expect(JSON.stringify(listed)).toContain('"name":"edit_note"');
		expect(JSON.stringify(publicNote)).toContain("first draft");
		expect(JSON.stringify(privateNote)).toContain('No note \\"Private/diary.md\\" in the vault');
		expect(JSON.stringify(privateNote)).not.toContain("secret");
		expect(
			await gate.decide({ toolName: "mcp__obsidian__read_note", input: { path: "note.md" } }, noQuestions),
		).toMatchObject({ behavior: "allow" });
		expect(await servers.handle("github", { jsonrpc: "2.0", id: 3, method: "tools/list" })).toMatchObject({
			id: 3,
			error: { code: -32601 },
		});
		const entries = (await fixture.bridge.activity?.journal.entries()) ?? [];
		// Each call with the conversation turn it came in (a rewind finds a turn's writes by it).
		expect(entries.map((entry) => [entry.tool, entry.session.surface, entry.turn])).toEqual([
			["read_note", "panel", "turn-1"],
			["read_note", "panel", "turn-1"],
		]);
		servers.dispose();
	});

	it("one conversation is one journal session: its vault tools' calls and its own edits, titled by the user's first words", async () => {
		const fixture = bridge();
		const { gate, mcpServers, nameConversation } = assembleAgent(fixture.bridge, {
			rules: new MemoryPermissionRules(),
		});
		const servers = mcpServers();
		await servers.handle("obsidian", {
			jsonrpc: "2.0",
			id: 1,
			method: "initialize",
			params: {
				protocolVersion: "2025-06-18",
				capabilities: {},
				clientInfo: { name: "claude-code", version: "2" },
			},
		});
		nameConversation("Tighten [[note]] and mind [[Private/diary]]");
		nameConversation("A later message");
		await servers.handle("obsidian", {
			jsonrpc: "2.0",
			id: 2,
			method: "tools/call",
			params: { name: "read_note", arguments: { path: "note.md" } },
		});
		const file = join(fixture.vaultPath, "note.md");
		const request: ToolUseRequest = {
			toolUseId: "tool-1",
			toolName: "Edit",
			input: { file_path: file, old_string: "first draft", new_string: "second draft" },
		};
		const decided = gate.decide(request, noQuestions);
		await waitUntil(() => fixture.bridge.reviews.findPending() !== undefined, "the review to open");
		fixture.bridge.reviews.accept(fixture.bridge.reviews.findPending()?.title ?? "", "# Note\nsecond draft\n");
		const decision = await decided;
		if (decision.behavior !== "allow") throw new Error(decision.message);
		runEditLikeCli(request, decision.updatedInput);
		await gate.toolFinished("tool-1", false);
		const entries = (await fixture.bridge.activity?.journal.entries()) ?? [];
		expect(entries.map((entry) => entry.tool)).toEqual(["Edit", "read_note"]);
		expect(new Set(entries.map((entry) => entry.session.key)).size).toBe(1);
		expect(entries.map((entry) => entry.session.title)).toEqual([
			"Tighten note and mind (a private note)",
			"Tighten note and mind (a private note)",
		]);
		expect(JSON.stringify(entries)).not.toContain("diary");
		servers.dispose();
	});
});
