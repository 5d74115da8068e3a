import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type {
	AgentEngine,
	AgentEvent,
	AgentPermissionMode,
	AgentSession,
	UserMessage,
} from "../../../src/agent/agent-session";
import { App, type MetadataCache, type Plugin } from "../../__mocks__/obsidian";
import { claudeBinaryPath } from "../../e2e/harness/cli-binary";
import { headlessCliEnv, makeClaudeHome } from "../../e2e/harness/claude-home";
import { MockAnthropic } from "../../e2e/harness/mock-anthropic";
import { parseNoteForCache } from "../../obsidian/harness/metadata-parser";
import { makeTempDir } from "../../helpers/temp-dir";
import { pollUntil, waitUntil } from "../../helpers/wait-until";

/**
 * The built plugin (main.js, as Obsidian loads it) in the Obsidian stand-in, with the pinned real Claude Code CLI
 * found the way a user's is (on PATH) and the mock model API: what an attacker meets. The vault is a real folder
 * (the CLI reads and writes it) mirrored into the stand-in's vault and metadata cache at start.
 */

const TURN_TIMEOUT_MS = 90_000;

export interface BuiltPanelOptions {
	/** Notes and other files, vault-relative path → text; written to disk and shown to the stand-in's vault. */
	files?: Record<string, string>;
	/** What data.json holds when the plugin loads (a synced file anyone with the vault may have written). */
	data?: Record<string, unknown>;
	/** Entries of Obsidian's per-device local storage before the plugin loads. */
	localStorage?: Record<string, unknown>;
	/** Anything else on disk before the plugin loads (links, a `.claude` folder): gets the vault's folder. */
	prepare?: (vault: string) => void;
	/** Environment for the CLI beyond the harness's (HOME, the mock's URL and key, PATH with the pinned CLI). */
	env?: Record<string, string>;
	/** Whether `~/.claude.json` marks the vault as trusted in Claude Code itself (default true, as a user who ran `claude` there). */
	claudeTrustsVault?: boolean;
}

export interface RecordedSession {
	session: AgentSession;
	events: AgentEvent[];
	/** The first event of this kind from index `since` on. */
	next<K extends AgentEvent["kind"]>(kind: K, since?: number): Promise<Extract<AgentEvent, { kind: K }>>;
	/** Sends a message and waits for its turn to end. */
	turn(text: string, attachments?: UserMessage["attachments"]): Promise<Extract<AgentEvent, { kind: "turn-end" }>>;
}

export interface BuiltPanel {
	vault: string;
	home: string;
	mock: MockAnthropic;
	app: App;
	plugin: Plugin & { settingsHost?: { settings: Record<string, unknown> } };
	engine(): Promise<AgentEngine>;
	start(permissionMode?: AgentPermissionMode): Promise<RecordedSession>;
	stop(): Promise<void>;
}

interface BuiltPluginModule {
	default: new (app: App, manifest: object) => Plugin & { settingsHost?: { settings: Record<string, unknown> } };
}

const CLI_ENV_KEYS = [
	"HOME",
	"PATH",
	"LANG",
	"NO_PROXY",
	"ANTHROPIC_BASE_URL",
	"ANTHROPIC_API_KEY",
	"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC",
	"DISABLE_AUTOUPDATER",
	"CLAUDE_CONFIG_DIR",
];

export async function startBuiltPanel(options: BuiltPanelOptions = {}): Promise<BuiltPanel> {
	const temp = makeTempDir("built-panel");
	const vault = join(temp.path, "Vault");
	mkdirSync(vault);
	for (const [path, text] of Object.entries(options.files ?? {})) {
		mkdirSync(dirname(join(vault, path)), { recursive: true });
		writeFileSync(join(vault, path), text);
	}
	options.prepare?.(vault);
	const mock = await MockAnthropic.start();
	const home = makeClaudeHome(options.claudeTrustsVault === false ? [] : [vault]);

	const savedEnv = Object.fromEntries(CLI_ENV_KEYS.map((key) => [key, process.env[key]]));
	const cliEnv = { ...headlessCliEnv(home.path, mock.baseUrl), ...options.env };
	// The plugin finds the user's Claude Code on PATH, as it would on a machine where `claude` is installed.
	cliEnv.PATH = `${dirname(claudeBinaryPath())}:${cliEnv.PATH}`;
	delete process.env["CLAUDE_CONFIG_DIR"];
	Object.assign(process.env, cliEnv);

	const app = new App(vault, "Vault");
	app.metadataCache.attach(app.vault as unknown as Parameters<MetadataCache["attach"]>[0], parseNoteForCache);
	for (const [path, text] of Object.entries(options.files ?? {})) app.vault.writeExternally(path, text);
	await app.metadataCache.parsePending();
	for (const [key, value] of Object.entries(options.localStorage ?? {})) app.saveLocalStorage(key, value);

	const module = jest.requireActual<BuiltPluginModule>(resolve(__dirname, "../../../main.js"));
	const plugin = new module.default(app, {
		id: "claude-code-bridge",
		name: "Claude Code Bridge",
		version: "0.1.0",
		dir: `${app.vault.configDir}/plugins/claude-code-bridge`,
	});
	plugin.data = options.data ?? null;
	plugin.load();
	await waitUntil(() => plugin.settingsHost !== undefined, "the plugin to load its settings");
	app.workspace.finishLayout();
	app.workspace.flushEvents();
	const statusBar = plugin.statusBarItems[0];
	await waitUntil(() => statusBar !== undefined && /ready|connected/.test(statusBar.text), "the bridge to start");

	const sessions: AgentSession[] = [];
	const engine = (): Promise<AgentEngine> =>
		(plugin as unknown as { agentEngine(): Promise<AgentEngine> }).agentEngine();
	return {
		vault,
		home: home.path,
		mock,
		app,
		plugin,
		engine,
		start: async (permissionMode = "default") => {
			const session = (await engine()).start({ permissionMode });
			sessions.push(session);
			return record(session);
		},
		stop: async () => {
			for (const session of sessions) await session.close();
			plugin.unload();
			await mock.close();
			for (const [key, value] of Object.entries(savedEnv)) {
				if (value === undefined) delete process.env[key];
				else process.env[key] = value;
			}
			home.remove();
			temp.remove();
		},
	};
}

function record(session: AgentSession): RecordedSession {
	const events: AgentEvent[] = [];
	session.onEvent((event) => events.push(event));
	const next = <K extends AgentEvent["kind"]>(kind: K, since = 0): Promise<Extract<AgentEvent, { kind: K }>> =>
		pollUntil(
			() => events.slice(since).find((event): event is Extract<AgentEvent, { kind: K }> => event.kind === kind),
			() =>
				`a ${kind} event (after #${since}; got ${events.map((event) => (event.kind === "failed" ? `failed: ${event.message}` : event.kind)).join(", ")})`,
			{ timeoutMs: TURN_TIMEOUT_MS, intervalMs: 20 },
		);
	return {
		session,
		events,
		next,
		turn: (text, attachments = []) => {
			const since = events.length;
			session.send({ text, attachments });
			return next("turn-end", since);
		},
	};
}
