import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentEvent, AgentEventListener, AgentSession, PastSession } from "../../../src/agent/agent-session";
import { INLINE_EDIT_SYSTEM_PROMPT } from "../../../src/agent/inline-edit/inline-edit-prompt";
import { BRIDGE_OFF_REFUSAL } from "../../../src/assembly/inline-edit-assembly";
import { MemoryPermissionRules } from "../../../src/agent/gate/permission-rules";
import { MemoryJournalStore } from "../../../src/journal/memory-journal-store";
import {
	BRIDGE_OFF_MESSAGE,
	createAgentEngine,
	nameConversation,
	createInlineEditService,
	type AgentEngineContext,
} from "../../../src/obsidian/agent/agent-engine-runtime";
import { startAssembledBridge, type AssembledBridge } from "../../helpers/assembled-bridge";
import { FIXTURE_TIMEOUT_MS } from "../../helpers/fixture-timeout";
import { makeTempDir } from "../../helpers/temp-dir";
import { pollUntil } from "../../helpers/wait-until";
import { conversationsOf } from "../../../src/obsidian/activity/activity-rows";
import { groupBySession } from "../../../src/journal/activity-entries";

function context(overrides: Partial<AgentEngineContext>): AgentEngineContext {
	return {
		vaultPath: "/vault",
		cliPath: () => "",
		bridge: () => undefined,
		rules: new MemoryPermissionRules(),
		...overrides,
	};
}

function eventsOf(session: AgentSession): AgentEvent[] {
	const events: AgentEvent[] = [];
	session.onEvent((event) => events.push(event));
	return events;
}

let fixture: AssembledBridge | undefined;
afterEach(() => fixture?.stop());

describe("createAgentEngine (the module the panel loads on first open)", () => {
	it("says a vault outside the file system cannot run Claude Code", async () => {
		const engine = createAgentEngine(context({ vaultPath: undefined }));
		const events = eventsOf(engine.start({ permissionMode: "default" }));
		await pollUntil(() => events.length > 0 || undefined, "the first event");
		expect(events[0]).toEqual({
			kind: "failed",
			message: "The Claude Code panel needs a vault on the local file system.",
		});
		expect(await engine.pastSessions()).toEqual([]);
		await expect(engine.messageBefore("s", "m")).rejects.toThrow(/needs a vault on the local file system/);
	});

	it("offers to put back the notes of turns only while the bridge runs with its journal's undo", async () => {
		expect(createAgentEngine(context({})).turnNotes?.()).toBeUndefined();
		fixture = await startAssembledBridge({ journalStore: new MemoryJournalStore() });
		const bridge = fixture.bridge;
		const notes = createAgentEngine(context({ bridge: () => bridge })).turnNotes?.();
		expect(await notes?.plan(["no-such-turn"])).toEqual({ restore: [], review: [], left: [] });
	});

	it("starts no session while the bridge is off: the panel's sessions run under its privacy rules and review", async () => {
		const events = eventsOf(createAgentEngine(context({})).start({ permissionMode: "default" }));
		await pollUntil(() => events.length > 0 || undefined, "the first event");
		expect(events[0]).toEqual({ kind: "failed", message: BRIDGE_OFF_MESSAGE });
	});

	it(
		"checks the Claude Code path setting before it starts anything, and says how to fix it",
		async () => {
			fixture = await startAssembledBridge();
			const bridge = fixture.bridge;
			const engine = createAgentEngine(
				context({ vaultPath: fixture.vaultPath, bridge: () => bridge, cliPath: () => "/nowhere/claude" }),
			);
			const session = engine.start({ permissionMode: "default" });
			const events = eventsOf(session);
			session.send({ text: "hello", attachments: [] });
			const failed = await pollUntil(() => events.find((event) => event.kind === "failed"), "the failure");
			expect(failed).toEqual({
				kind: "failed",
				message: expect.stringContaining(
					'The "Claude Code executable" setting, /nowhere/claude, does not exist.',
				) as unknown,
			});
			await session.close();
		},
		FIXTURE_TIMEOUT_MS,
	);
});

/**
 * A stand-in for Claude Code in print mode with stream-json, as the panel runs it: it answers `initialize`, keeps
 * each typed message in its transcript under $HOME/.claude/projects (a resume goes on in the same session's file,
 * a fork copies it to a new session's), says which session it is, and has Claude read note.md with the vault tools.
 */
const FAKE_CLAUDE = String.raw`
const { appendFileSync, copyFileSync, mkdirSync } = require("node:fs");
const { join } = require("node:path");
const args = process.argv.slice(2);
if (args[0] === "--version") {
	console.log("2.1.330 (Claude Code)");
	process.exit(0);
}
const resumed = args.includes("--resume") ? args[args.indexOf("--resume") + 1] : undefined;
const forked = args.includes("--fork-session");
const sessionId = process.env.FAKE_CLAUDE_NEW_SESSION_IDS.split(",")[Number(process.env.FAKE_CLAUDE_RUN ?? 0)];
const id = resumed !== undefined && !forked ? resumed : sessionId;
const folder = join(process.env.HOME, ".claude", "projects", process.cwd().replace(/[^a-zA-Z0-9]/g, "-"));
mkdirSync(folder, { recursive: true });
if (forked) copyFileSync(join(folder, resumed + ".jsonl"), join(folder, id + ".jsonl"));
const say = (record) => process.stdout.write(JSON.stringify(record) + "\n");
const waiting = new Map();
let next = 0;
const mcp = (message) =>
	new Promise((resolve) => {
		const requestId = "m" + ++next;
		waiting.set(requestId, resolve);
		say({ type: "control_request", request_id: requestId, request: { subtype: "mcp_message", server_name: "obsidian", message } });
	});
async function turn(record) {
	appendFileSync(join(folder, id + ".jsonl"), JSON.stringify(record) + "\n");
	say({ type: "system", subtype: "init", session_id: id, model: "claude-test", slash_commands: [] });
	await mcp({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "claude-code", version: "2" } } });
	await mcp({ jsonrpc: "2.0", method: "notifications/initialized" });
	await mcp({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "read_note", arguments: { path: "note.md" } } });
	say({ type: "result", subtype: "success", is_error: false, session_id: id, usage: { input_tokens: 1, output_tokens: 1 } });
}
let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
	buffer += chunk;
	for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
		const line = buffer.slice(0, end);
		buffer = buffer.slice(end + 1);
		if (line.trim() === "") continue;
		const record = JSON.parse(line);
		if (record.type === "control_request" && record.request.subtype === "initialize")
			say({ type: "control_response", response: { subtype: "success", request_id: record.request_id, response: {} } });
		else if (record.type === "control_request")
			say({ type: "control_response", response: { subtype: "success", request_id: record.request_id, response: {} } });
		else if (record.type === "control_response") waiting.get(record.response.request_id)?.();
		else if (record.type === "user") void turn(record);
	}
});
process.stdin.on("end", () => process.exit(0));
`;

describe("a panel conversation in the activity journal, as the panel starts, resumes and forks it", () => {
	it(
		"a resumed conversation goes on in the same group; a fork is a group of its own, titled as a fork",
		async () => {
			fixture = await startAssembledBridge({
				journalStore: new MemoryJournalStore(),
				populate: (vault) => writeFileSync(join(vault, "note.md"), "# Trip\n"),
			});
			const bridge = fixture.bridge;
			const folder = makeTempDir("fake-claude");
			const script = join(folder.path, "claude.js");
			writeFileSync(script, FAKE_CLAUDE);
			const claude = join(folder.path, "claude");
			writeFileSync(claude, `#!/bin/sh\nexec "${process.execPath}" "${script}" "$@"\n`);
			chmodSync(claude, 0o755);
			const original = "0f8fad5b-d9cb-469f-a165-70867728950e";
			const fork = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
			const env: NodeJS.ProcessEnv = {
				...process.env,
				HOME: fixture.home,
				FAKE_CLAUDE_NEW_SESSION_IDS: `${original},${fork}`,
			};
			delete env["CLAUDE_CONFIG_DIR"];
			const run = async (
				text: string,
				options: { resume?: string; fork?: boolean } = {},
				runNumber = 0,
			): Promise<void> => {
				const engine = createAgentEngine(
					context({
						vaultPath: fixture?.vaultPath,
						bridge: () => bridge,
						cliPath: () => claude,
						env: { ...env, FAKE_CLAUDE_RUN: String(runNumber) },
					}),
				);
				const session = engine.start({ permissionMode: "default", ...options });
				const events = eventsOf(session);
				session.send({ text, attachments: [] });
				await pollUntil(
					() => events.find((event) => event.kind === "turn-end" || event.kind === "failed"),
					"the end of the turn",
				);
				expect(events.filter((event) => event.kind === "failed")).toEqual([]);
				await session.close();
			};
			await run("Plan the trip");
			await run("Where were we?", { resume: original });
			await run("Shorter, please", { resume: original, fork: true }, 1);
			const entries = (await bridge.activity?.journal.entries()) ?? [];
			expect(entries.map((entry) => entry.tool)).toEqual(["read_note", "read_note", "read_note"]);
			const conversations = [...conversationsOf(entries).values()];
			expect(conversations.map((conversation) => conversation.title)).toEqual([
				"Fork: Plan the trip",
				"Plan the trip",
			]);
			// The journal's own grouping, which undo of a whole conversation goes by.
			expect(groupBySession(entries).map((group) => group.entries.length)).toEqual([1, 2]);
			folder.remove();
		},
		FIXTURE_TIMEOUT_MS,
	);
});

describe("nameConversation (the activity journal's title of a panel conversation)", () => {
	/** A session that only hands out events, and the names given. */
	function naming(resume?: string, past: PastSession[] = []): { emit: (event: AgentEvent) => void; names: string[] } {
		const listeners = new Set<AgentEventListener>();
		const names: string[] = [];
		nameConversation(
			{
				onEvent: (listener) => {
					listeners.add(listener);
					return () => listeners.delete(listener);
				},
			},
			(words) => names.push(words),
			resume,
			() => Promise.resolve(past),
		);
		return { emit: (event) => listeners.forEach((listener) => listener(event)), names };
	}
	const sent = (text: string): AgentEvent => ({ kind: "user-message", message: { text, attachments: [] } });
	const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

	it("names a new conversation by the first message sent, in the user's own words, once", async () => {
		const { emit, names } = naming();
		emit({ kind: "ready", sessionId: "s1", slashCommands: [] });
		emit(sent("@Welcome.md Tidy the Lisbon note"));
		emit(sent("and then the packing list"));
		await settle();
		expect(names).toEqual(["Tidy the Lisbon note"]);
	});

	it("names a resumed conversation by its first line, as the past sessions list shows it", async () => {
		const { emit, names } = naming("old", [
			{ sessionId: "old", firstLine: '@"Trips/Lisbon.md" Plan the trip', updatedAt: "2026-05-14T09:41:00Z" },
		]);
		emit(sent("Where were we?"));
		await settle();
		expect(names).toEqual(["Plan the trip"]);
		const missing = naming("gone", []);
		missing.emit(sent("Where were we?"));
		await settle();
		expect(missing.names).toEqual(["Where were we?"]);
	});
});

describe("createInlineEditService (inline edits, from the same module)", () => {
	it("refuses while the bridge is off", () => {
		const service = createInlineEditService(context({}));
		expect(service.refusal("Note.md", "text")).toBe(BRIDGE_OFF_REFUSAL);
	});

	it(
		"starts the user's Claude Code with no tool, no MCP server and the inline edit's own system prompt",
		async () => {
			fixture = await startAssembledBridge();
			const bridge = fixture.bridge;
			const folder = makeTempDir("fake-claude");
			const argsFile = join(folder.path, "args.txt");
			const claude = join(folder.path, "claude");
			writeFileSync(
				claude,
				// Written whole and then renamed, so the poll below never reads a half-written file.
				`#!/bin/sh\nif [ "$1" = "--version" ]; then echo "2.1.330 (Claude Code)"; exit 0; fi\nprintf '%s\\n' "$@" > "${argsFile}.part" && mv "${argsFile}.part" "${argsFile}"\n`,
			);
			chmodSync(claude, 0o755);
			const service = createInlineEditService(
				context({ vaultPath: fixture.vaultPath, bridge: () => bridge, cliPath: () => claude }),
			);
			const run = service.start();
			run.ask("shorter", "shorter", "text", () => undefined);
			const args = await pollUntil(
				() => (existsSync(argsFile) ? readFileSync(argsFile, "utf8").split("\n") : undefined),
				"the fake Claude Code's arguments",
			);
			expect(args[args.indexOf("--tools") + 1]).toBe("");
			expect(args[args.indexOf("--system-prompt") + 1]).toBe(INLINE_EDIT_SYSTEM_PROMPT);
			expect(args).toContain("--strict-mcp-config");
			expect(args).not.toContain("--mcp-config");
			await run.close();
			folder.remove();
		},
		FIXTURE_TIMEOUT_MS,
	);
});
