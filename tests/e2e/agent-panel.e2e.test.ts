import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentEvent, AgentSession } from "../../src/agent/agent-session";
import { MemoryPermissionRules } from "../../src/agent/gate/permission-rules";
import { PANEL_REJECTED } from "../../src/agent/gate/file-write-gate";
import { MemoryJournalStore } from "../../src/journal/memory-journal-store";
import { createAgentEngine } from "../../src/obsidian/agent/agent-engine-runtime";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import { pollUntil } from "../helpers/wait-until";
import { useBridgeSessions } from "./harness/bridge-session";
import { claudeBinaryPath } from "./harness/cli-binary";
import { headlessCliEnv, makeClaudeHome } from "./harness/claude-home";
import { lastUserText, requestText } from "./harness/messages-request";
import type { MockAnthropic } from "./harness/mock-anthropic";
import { textTurn, toolUseTurn } from "./harness/sse-reply";

/**
 * The whole agent panel below its view, as the plugin builds it (`createAgentEngine`): the pinned real CLI found
 * through the path setting and version check, the bridge's tool gate, review and journal, and the vault tools
 * served in process, against the mock model API. The bridge is the headless host's assembly.
 */

const TURN_TIMEOUT_MS = 60_000;
const { startMock, onCleanup } = useBridgeSessions(180_000);

interface Fixture {
	mock: MockAnthropic;
	bridge: AssembledBridge;
	start: (permissionMode?: "default" | "acceptEdits") => {
		session: AgentSession;
		events: AgentEvent[];
		next: <K extends AgentEvent["kind"]>(kind: K) => Promise<Extract<AgentEvent, { kind: K }>>;
	};
}

async function fixture(): Promise<Fixture> {
	const mock = await startMock();
	const bridge = await startAssembledBridge({
		journalStore: new MemoryJournalStore(),
		privacy: { folders: ["Private"] },
		populate: (vault) => writeFileSync(join(vault, "Plan.md"), "# Plan\nWrite the first chapter.\n"),
	});
	onCleanup(() => bridge.stop());
	const home = makeClaudeHome([bridge.vaultPath]);
	onCleanup(() => home.remove());
	const env = headlessCliEnv(home.path, mock.baseUrl);
	const engine = createAgentEngine({
		vaultPath: bridge.vaultPath,
		cliPath: () => claudeBinaryPath(),
		bridge: () => bridge.bridge,
		rules: new MemoryPermissionRules(),
		env,
	});
	return {
		mock,
		bridge,
		start: (permissionMode = "default") => {
			const session = engine.start({ permissionMode });
			onCleanup(() => session.close());
			const events: AgentEvent[] = [];
			session.onEvent((event) => events.push(event));
			return {
				session,
				events,
				next: <K extends AgentEvent["kind"]>(kind: K) =>
					pollUntil(
						() => events.find((event): event is Extract<AgentEvent, { kind: K }> => event.kind === kind),
						() =>
							`a ${kind} event (got ${events.map((event) => (event.kind === "failed" ? `failed: ${event.message}` : event.kind)).join(", ")})`,
						{ timeoutMs: TURN_TIMEOUT_MS, intervalMs: 20 },
					),
			};
		},
	};
}

const message = (text: string): { text: string; attachments: [] } => ({ text, attachments: [] });

describe("the agent panel's engine as the plugin builds it, with the real CLI", () => {
	it("Claude calls a vault tool in process: the call and its answer reach the panel, and the journal records it as the panel's", async () => {
		const { mock, bridge, start } = await fixture();
		mock.enqueue(
			toolUseTurn("mcp__obsidian__read_note", { path: "Plan" }),
			textTurn("It is about the first chapter."),
		);
		const { session, events, next } = start();
		session.send(message("What is my plan?"));
		expect((await next("turn-end")).outcome).toBe("done");
		expect(events).toContainEqual(
			expect.objectContaining({
				kind: "tool-call",
				toolName: "mcp__obsidian__read_note",
				input: { path: "Plan" },
			}),
		);
		const result = events.find(
			(event): event is Extract<AgentEvent, { kind: "tool-result" }> => event.kind === "tool-result",
		);
		expect(result).toMatchObject({ isError: false });
		expect(result?.text).toContain("Write the first chapter.");
		const entries = (await bridge.bridge.activity?.journal.entries()) ?? [];
		expect(entries).toContainEqual(
			expect.objectContaining({
				tool: "read_note",
				// Titled by the user's words, as the activity view groups the conversation.
				session: expect.objectContaining({ surface: "panel", title: "What is my plan?" }) as unknown,
				notes: ["Plan.md"],
				outcome: "ok",
			}),
		);
	});

	it("Claude's Edit opens the bridge's review before the file changes; a rejection with a reason leaves the note unchanged and Claude reads the reason", async () => {
		const { mock, bridge, start } = await fixture();
		const note = join(bridge.vaultPath, "Plan.md");
		mock.enqueue(
			toolUseTurn("Read", { file_path: note }),
			toolUseTurn("Edit", { file_path: note, old_string: "first chapter", new_string: "second chapter" }),
			textTurn("I left it."),
		);
		const { session, next } = start();
		session.send(message("Move on to the next chapter"));
		const pending = await pollUntil(() => bridge.bridge.reviews.findPending(), "the review to open", {
			timeoutMs: TURN_TIMEOUT_MS,
		});
		expect(pending).toMatchObject({
			before: "# Plan\nWrite the first chapter.\n",
			after: "# Plan\nWrite the second chapter.\n",
			proposer: { tool: "Edit" },
		});
		expect(readFileSync(note, "utf8")).toBe("# Plan\nWrite the first chapter.\n");
		bridge.bridge.reviews.reject(pending.title, undefined, "Keep the first chapter until the outline is done.");
		expect((await next("turn-end")).outcome).toBe("done");
		expect(readFileSync(note, "utf8")).toBe("# Plan\nWrite the first chapter.\n");
		const followUp = await mock.waitForMainRequest({ since: 2 });
		expect(lastUserText(followUp.body)).toContain(
			`${PANEL_REJECTED}: Keep the first chapter until the outline is done.`,
		);
	});

	it("in accept-edits mode too, an Edit waits for the review, and accepting with the user's own words writes exactly them, undoable from the journal", async () => {
		const { mock, bridge, start } = await fixture();
		const note = join(bridge.vaultPath, "Plan.md");
		mock.enqueue(
			toolUseTurn("Read", { file_path: note }),
			toolUseTurn("Edit", { file_path: note, old_string: "first chapter", new_string: "second chapter" }),
			textTurn("Done."),
		);
		const { session, next } = start("acceptEdits");
		session.send(message("Move on to the next chapter"));
		const pending = await pollUntil(() => bridge.bridge.reviews.findPending(), "the review to open", {
			timeoutMs: TURN_TIMEOUT_MS,
		});
		expect(readFileSync(note, "utf8")).toBe("# Plan\nWrite the first chapter.\n");
		const accepted = "# Plan\nWrite the second chapter, slowly.\n";
		bridge.bridge.reviews.accept(pending.title, accepted);
		expect((await next("turn-end")).outcome).toBe("done");
		expect(readFileSync(note, "utf8")).toBe(accepted);
		const activity = bridge.bridge.activity;
		const edit = await pollUntil(
			async () =>
				((await activity?.journal.entries()) ?? []).find(
					(entry) => entry.tool === "Edit" && entry.changes.length > 0,
				),
			"the Edit in the journal with its change",
		);
		expect(edit).toMatchObject({ session: { surface: "panel" }, notes: ["Plan.md"], outcome: "ok" });
		expect(await activity?.undo?.entry(edit.id)).toMatchObject({ kind: "undone" });
		expect(readFileSync(note, "utf8")).toBe("# Plan\nWrite the first chapter.\n");
	});

	it("a Bash call asks in the panel; denied with a reason, the command never runs and Claude reads why", async () => {
		const { mock, bridge, start } = await fixture();
		const marker = join(bridge.vaultPath, "ran.txt");
		mock.enqueue(
			toolUseTurn("Bash", { command: `touch ${marker}`, description: "Create a file" }),
			textTurn("Understood."),
		);
		const { session, next } = start();
		session.send(message("Touch a file"));
		const asked = await next("permission-request");
		expect(asked.request).toMatchObject({ toolName: "Bash", input: { command: `touch ${marker}` } });
		session.answerPermission(asked.request.id, { kind: "deny", reason: "No shell commands in my vault." });
		expect((await next("turn-end")).outcome).toBe("done");
		expect(existsSync(marker)).toBe(false);
		const followUp = await mock.waitForMainRequest({ since: 1 });
		expect(lastUserText(followUp.body)).toContain("No shell commands in my vault.");
	});

	it("a Read of a private note is refused as a missing file: its text never reaches the model", async () => {
		const { mock, bridge, start } = await fixture();
		const secret = join(bridge.vaultPath, "Private", "diary.md");
		mkdirSync(join(bridge.vaultPath, "Private"), { recursive: true });
		writeFileSync(secret, "The code word is MARMALADE.\n");
		mock.enqueue(toolUseTurn("Read", { file_path: secret }), textTurn("There is no such note."));
		const { session, next } = start();
		session.send(message("Read my diary"));
		expect((await next("turn-end")).outcome).toBe("done");
		const followUp = await mock.waitForMainRequest({ since: 1 });
		expect(lastUserText(followUp.body)).toContain("File does not exist.");
		expect(requestText(followUp.body)).not.toContain("MARMALADE");
	});
});
