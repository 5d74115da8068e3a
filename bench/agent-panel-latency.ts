/**
 * Time from the panel's Enter (`session.send()`) to the first streamed character (`text-delta`), through the engine
 * the plugin builds (`createAgentEngine`, with the headless host's assembled bridge) and the pinned real CLI,
 * against the mock model API (tests/e2e/harness), split where the mock sees it:
 * send → the mock has the whole request (the CLI's own work, plus our write of the message to it), and
 * the mock wrote its first event → our first text-delta, itself split at the CLI's stdout: the mock's first event →
 * the first stdout chunk with a text delta reaches this process (the CLI's part), and that chunk → our text-delta
 * (ours: line decoding, event mapping, the session's listeners). The stdout boundary is seen by wrapping
 * `child_process.spawn` in this benchmark only: a listener added before the engine's own.
 * Cold: a new session's first message (the CLI starts); warm: the second message of the same session.
 */
import type * as ChildProcess from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { AgentEvent, AgentSession } from "../src/agent/agent-session";
import { MemoryPermissionRules } from "../src/agent/gate/permission-rules";
import { MemoryJournalStore } from "../src/journal/memory-journal-store";
import { createAgentEngine } from "../src/obsidian/agent/agent-engine-runtime";
import { headlessCliEnv, makeClaudeHome } from "../tests/e2e/harness/claude-home";
import { MockAnthropic } from "../tests/e2e/harness/mock-anthropic";
import { textTurn } from "../tests/e2e/harness/sse-reply";
import { startAssembledBridge } from "../tests/helpers/assembled-bridge";
import { pollUntil } from "../tests/helpers/wait-until";

export interface FirstCharacter {
	/** send → first text-delta (ms). */
	total: number;
	/** send → the mock had the whole main-loop request. */
	toRequest: number;
	/** The mock wrote its first event → our first text-delta. */
	backToPanel: number;
	/** The mock wrote its first event → the CLI's first stdout chunk with a text delta reached this process. */
	cliStream: number;
	/** That stdout chunk → our first text-delta event. */
	ours: number;
	/** send → the session's CLI was spawned (ours: finding the CLI, its version check); 0 when it already ran. */
	toSpawn: number;
}

/** The module object itself (not an import's copy of it), so the engine's `spawn` calls see the wrapper. */
const childProcess = createRequire(__filename)("node:child_process") as typeof ChildProcess;

/** When the session's CLI was spawned, and first wrote a stdout chunk holding a text delta (in this turn). */
const cliTextAt: { time: number | undefined; spawned: number | undefined } = { time: undefined, spawned: undefined };

/** Bench only: each panel session's CLI (`--include-partial-messages`) gets a stdout listener before the engine's. */
function watchCliStdout(): () => void {
	const original = childProcess.spawn;
	const wrapped = ((...args: Parameters<typeof original>) => {
		const child = original(...args);
		const argv: unknown = args[1];
		if (Array.isArray(argv) && argv.includes("--include-partial-messages")) {
			cliTextAt.spawned = performance.now();
			child.stdout?.on("data", (chunk: Buffer) => {
				if (cliTextAt.time === undefined && chunk.includes('"text_delta"')) cliTextAt.time = performance.now();
			});
		}
		return child;
	}) as typeof original;
	childProcess.spawn = wrapped;
	return () => {
		childProcess.spawn = original;
	};
}

export interface FirstCharacterRun {
	cold: FirstCharacter;
	warm: FirstCharacter;
}

const TURN_TIMEOUT_MS = 120_000;

async function oneTurn(
	mock: MockAnthropic,
	session: AgentSession,
	events: AgentEvent[],
	text: string,
): Promise<FirstCharacter> {
	const since = mock.mainRequests.length;
	const eventsBefore = events.length;
	mock.enqueue(textTurn("Ink on the page."));
	cliTextAt.time = undefined;
	cliTextAt.spawned = undefined;
	const sentAt = performance.now();
	let firstDeltaAt: number | undefined;
	const stop = session.onEvent((event) => {
		if (event.kind === "text-delta" && firstDeltaAt === undefined) firstDeltaAt = performance.now();
	});
	session.send({ text, attachments: [] });
	const end = await pollUntil(
		() => events.slice(eventsBefore).find((event) => event.kind === "turn-end" || event.kind === "failed"),
		"the turn's end",
		{ timeoutMs: TURN_TIMEOUT_MS, intervalMs: 10 },
	);
	stop();
	if (end.kind === "failed") throw new Error(`the turn failed: ${end.message}`);
	const request = mock.mainRequests[since];
	const received = request?.timing?.received;
	const written = request?.timing?.firstEventWritten;
	const cliText = cliTextAt.time;
	if (firstDeltaAt === undefined || received === undefined || written === undefined || cliText === undefined)
		throw new Error("no main-loop request, no text delta on the CLI's stdout or no text-delta event in the turn");
	return {
		total: firstDeltaAt - sentAt,
		toRequest: received - sentAt,
		backToPanel: firstDeltaAt - written,
		cliStream: cliText - written,
		ours: firstDeltaAt - cliText,
		toSpawn: cliTextAt.spawned === undefined ? 0 : cliTextAt.spawned - sentAt,
	};
}

export async function measureFirstCharacter(cliPath: string): Promise<FirstCharacterRun> {
	const unwatch = watchCliStdout();
	const mock = await MockAnthropic.start();
	const bridge = await startAssembledBridge({
		journalStore: new MemoryJournalStore(),
		populate: (vault) => writeFileSync(join(vault, "Plan.md"), "# Plan\n"),
	});
	const home = makeClaudeHome([bridge.vaultPath]);
	const env = headlessCliEnv(home.path, mock.baseUrl);
	const engine = createAgentEngine({
		vaultPath: bridge.vaultPath,
		cliPath: () => cliPath,
		bridge: () => bridge.bridge,
		rules: new MemoryPermissionRules(),
		env,
	});
	const session = engine.start({ permissionMode: "default" });
	const events: AgentEvent[] = [];
	session.onEvent((event) => events.push(event));
	try {
		const cold = await oneTurn(mock, session, events, "Write a haiku");
		const warm = await oneTurn(mock, session, events, "Another one");
		return { cold, warm };
	} finally {
		unwatch();
		await session.close();
		await bridge.stop();
		await mock.close();
		home.remove();
	}
}
