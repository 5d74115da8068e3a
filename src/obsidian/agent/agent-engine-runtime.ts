import type { AgentEngine, AgentEvent, AgentEventListener, AgentSession } from "../../agent/agent-session";

/** What an engine for this vault is built from. */
export interface AgentEngineContext {
	vaultPath: string | undefined;
	/** The explicit `claude` path from the settings; empty: find it. */
	cliPath: () => string;
}

/** Said in the panel while this build has no engine to drive the CLI. */
export const NO_ENGINE_MESSAGE = "This build of the plugin has no Claude Code engine yet: the panel cannot start a session.";

/**
 * The module the plugin imports only when the panel first opens, so `require(main.js)` and `onload` stay light: it
 * builds the engine for the vault. The engine (src/agent) is not part of this build yet, so every session says so
 * and ends; the engine's constructor takes this place when it lands.
 */
export function createAgentEngine(context: AgentEngineContext): AgentEngine {
	const message = context.vaultPath === undefined ? "The Claude Code panel needs a vault on the local file system." : NO_ENGINE_MESSAGE;
	return {
		start: () => new FailedSession(message),
		pastSessions: () => Promise.resolve([]),
		history: () => Promise.resolve([]),
	};
}

/** A session that could not start: it tells its listeners why, once, then that it closed. */
class FailedSession implements AgentSession {
	readonly sessionId = undefined;
	readonly busy = false;
	constructor(private readonly message: string) {}
	send(): void {
		// Nothing runs: the panel already shows why.
	}
	interrupt(): Promise<void> {
		return Promise.resolve();
	}
	setPermissionMode(): Promise<void> {
		return Promise.resolve();
	}
	setModel(): Promise<void> {
		return Promise.resolve();
	}
	answerPermission(): void {
		// No question is ever asked.
	}
	onEvent(listener: AgentEventListener): () => void {
		const events: AgentEvent[] = [{ kind: "failed", message: this.message }];
		queueMicrotask(() => events.forEach(listener));
		return () => events.splice(0);
	}
	close(): Promise<void> {
		return Promise.resolve();
	}
}
