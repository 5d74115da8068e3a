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
