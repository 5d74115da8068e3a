import type {
	AgentEngine,
	AgentEvent,
	AgentEventListener,
	AgentSession,
	PastSession,
	ToolGate,
} from "../../agent/agent-session";
import { claudeLauncher } from "../../agent/claude-cli/session-launcher";
import { nodeCliMachine } from "../../agent/claude-cli/node-cli-machine";
import type { ShellSandboxState } from "../../agent/gate/panel-tool-gate";
import { shellSandboxSupport } from "../../agent/claude-cli/shell-sandbox";
import type { PermissionRules } from "../../agent/gate/permission-rules";
import { projectConfigTrusted, type ProjectConfigTrustStore } from "../../agent/vault-config/project-config-trust";
import { StreamJsonEngine } from "../../agent/engine/stream-json-engine";
import { FORK_TITLE, sessionTitle } from "../../agent/transcript/tool-words";
import { claudeConfigFolder } from "../../agent/engine/cli-session-files";
import { PlanFolder } from "../../agent/gate/plan-folder";
import { assembleAgent } from "../../assembly/agent-assembly";
import { assembleInlineEdit } from "../../assembly/inline-edit-assembly";
import { INLINE_EDIT_SYSTEM_PROMPT } from "../../agent/inline-edit/inline-edit-prompt";
import type { InlineEditService } from "../../agent/inline-edit/inline-edit-service";
import type { YamlCodec } from "../../shared/yaml-codec";
import type { Bridge } from "../../assembly/bridge-assembly";
import { panelSessionGuard } from "../../assembly/panel-session-guard";
import { panelTurnNotes } from "../../assembly/panel-turn-notes";

/** What an engine for this vault is built from. */
export interface AgentEngineContext {
	vaultPath: string | undefined;
	/** The explicit `claude` path kept on this device; empty: find it. A program inside the vault is never run. */
	cliPath: () => string;
	/** The user's trust in the vault's own Claude Code configuration on this device; absent: never trusted. */
	projectTrust?: ProjectConfigTrustStore;
	/** The running bridge (privacy boundary, review, journal, vault tools); undefined while it is off. */
	bridge: () => Bridge | undefined;
	/** Where "always allow" answers are kept. */
	rules: PermissionRules;
	/**
	 * Whether the user asked for Claude Code's deny rules over the private folders ("keep private notes from Claude
	 * Code's own tools"): the file they were written to is a project setting an untrusted session does not load, so
	 * the session gets them on its command line. Default: not asked for.
	 */
	denyRulesWanted?: () => boolean;
	/** The CLI's environment; default: Obsidian's own (tests give a temp HOME and the mock model API). */
	env?: NodeJS.ProcessEnv;
}

/** Said when a session is started while the bridge is off: its privacy rules and review are what the panel runs under. */
export const BRIDGE_OFF_MESSAGE =
	"The bridge is off. Turn it on in this plugin's settings: the panel's sessions run under its private-note rules and review.";

/**
 * The module the plugin imports only when the panel first opens, so `require(main.js)` and `onload` stay light: it
 * builds the engine for the vault. Each session gets the bridge's tool gate and in-process vault tools as they are
 * when it starts, and the user's Claude Code as the locator finds it then.
 */
export function createAgentEngine(context: AgentEngineContext): AgentEngine {
	const vaultRoot = context.vaultPath;
	if (vaultRoot === undefined) {
		const message = "The Claude Code panel needs a vault on the local file system.";
		return {
			start: () => new FailedSession(message),
			pastSessions: () => Promise.resolve([]),
			history: () => Promise.resolve([]),
			messageBefore: () => Promise.reject(new Error(message)),
		};
	}
	const env = context.env ?? process.env;
	const machine = nodeCliMachine(env);
	const launcher = claudeLauncher(machine, context.cliPath, vaultRoot);
	const transcripts = new StreamJsonEngine({ vaultRoot, launcher, gate: NO_TOOLS, env });
	const trust = context.projectTrust;
	const trusted = async (): Promise<boolean> => trust !== undefined && (await projectConfigTrusted(vaultRoot, trust));
	return {
		start: (options) => {
			const bridge = context.bridge();
			if (bridge === undefined) return new FailedSession(BRIDGE_OFF_MESSAGE);
			// The guard is decided before the CLI starts, so the gate knows the sandbox's state before any tool use.
			let sandbox: ShellSandboxState = { on: false };
			const guard = panelSessionGuard({
				bridge,
				vaultRoot,
				sandboxSupport: () => shellSandboxSupport(machine),
				projectConfigTrusted: trusted,
				...(context.denyRulesWanted && { denyRulesWanted: context.denyRulesWanted }),
			}).then((decided) => {
				sandbox =
					decided.guard.sandbox !== undefined
						? { on: true, ...(decided.tagPrivateReadable === true && { tagPrivateReadable: true }) }
						: { on: false, ...(decided.sandboxMissing !== undefined && { why: decided.sandboxMissing }) };
				return decided.guard;
			});
			// A text-only session (an inline edit) gets no tools: its gate refuses anything, and no MCP server is served.
			if (options.textOnly !== undefined)
				return new StreamJsonEngine({ vaultRoot, launcher, gate: NO_TOOLS, env, guard: () => guard }).start(
					options,
				);
			const parts = assembleAgent(bridge, {
				rules: context.rules,
				shellSandbox: () => sandbox,
				planFolder: new PlanFolder(claudeConfigFolder(env)),
			});
			// A resumed conversation keeps its session id (a fork gets a new one, reported when it starts).
			if (options.resume !== undefined && options.fork !== true) parts.isClaudeSession(options.resume);
			const servers = parts.mcpServers();
			const session = new StreamJsonEngine({
				vaultRoot,
				launcher,
				gate: parts.gate,
				mcp: servers,
				attachments: parts.attachments,
				env,
				guard: () => guard,
			}).start(options);
			const stop = session.onEvent((event) => {
				if (event.kind === "ready") parts.isClaudeSession(event.sessionId);
				if (event.kind !== "closed") return;
				stop();
				servers.dispose();
			});
			nameConversation(
				session,
				(words) => parts.nameConversation(words),
				options.resume,
				() => transcripts.pastSessions(),
				options.fork === true,
			);
			return session;
		},
		pastSessions: () => transcripts.pastSessions(),
		history: (sessionId, upTo) => transcripts.history(sessionId, upTo),
		messageBefore: (sessionId, messageId) => transcripts.messageBefore(sessionId, messageId),
		turnNotes: () => {
			const bridge = context.bridge();
			return bridge === undefined ? undefined : panelTurnNotes(bridge);
		},
	};
}

/**
 * Titles the conversation in the activity journal with the user's own words: a resumed one by its first line, as
 * the past sessions list shows it; a new one (or one whose first line cannot be found) by the first message sent.
 * A fork is a conversation of its own in the journal: its title says so ("Fork: …", as its tab is named), so that
 * it is told apart from the conversation it was copied from.
 */
export function nameConversation(
	session: Pick<AgentSession, "onEvent">,
	name: (words: string) => void,
	resume: string | undefined,
	pastSessions: () => Promise<readonly PastSession[]>,
	fork = false,
): void {
	const past =
		resume === undefined
			? Promise.resolve(undefined)
			: pastSessions().then(
					(sessions) => sessions.find((candidate) => candidate.sessionId === resume)?.firstLine,
					() => undefined,
				);
	const named = (words: string): void => name(fork ? `${FORK_TITLE}${sessionTitle(words)}` : sessionTitle(words));
	void past.then((firstLine) => {
		if (firstLine !== undefined) named(firstLine);
	});
	const stop = session.onEvent((event) => {
		if (event.kind !== "user-message") return;
		stop();
		void past.then((firstLine) => {
			if (firstLine === undefined) named(event.message.text);
		});
	});
}

/**
 * The gate of a session that may use no tool: the engine that only reads past transcripts (it never starts a CLI,
 * so it is never asked), and a text-only session (started with no tools, so it is never asked either).
 */
const NO_TOOLS: ToolGate = { decide: () => Promise.resolve({ behavior: "deny", message: "No tool may run here." }) };

/** What inline edits are built from: the panel engine's context, and how the editor's frontmatter tags are read. */
export interface InlineEditContext extends AgentEngineContext {
	yaml?: YamlCodec;
}

/**
 * Inline edits in the editor (issue 30), loaded with this module: each starts a text-only session of the panel's
 * engine (the same Claude Code, guard and privacy rules), and its accepted changes go to the bridge's journal.
 */
export function createInlineEditService(context: InlineEditContext): InlineEditService {
	const engine = createAgentEngine(context);
	return assembleInlineEdit({
		bridge: context.bridge,
		start: () => engine.start({ permissionMode: "default", textOnly: { systemPrompt: INLINE_EDIT_SYSTEM_PROMPT } }),
		...(context.yaml !== undefined && { yaml: context.yaml }),
	});
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
