/** The agent engine of one vault: Claude Code sessions run in the vault root, and the CLI's own transcripts. */
import { realpathSync } from "node:fs";
import type {
	AgentEngine,
	AgentEvent,
	AgentSession,
	AgentSessionOptions,
	InProcessMcpServers,
	PastSession,
	ToolGate,
} from "../agent-session";
import { AttachingSession } from "./attaching-session";
import type { AttachmentResolver } from "./attachment-resolver";
import { cliArguments } from "./cli-arguments";
import type { ClaudeLauncher, LaunchPlan } from "../claude-cli/session-launcher";
import { spawnCli, type CliProcess, type CliProcessEvents } from "../claude-cli/cli-process";
import { deferredCliProcess } from "../claude-cli/deferred-cli-process";
import { UNTRUSTED_GUARD, type SessionGuard } from "./session-guard";
import { StreamJsonSession } from "./stream-json-session";
import { claudeConfigFolder, messageBefore, pastSessions, sessionHistory, transcriptFolder } from "./cli-session-files";

export interface StreamJsonEngineOptions {
	/** The vault's folder: every session's working folder. */
	vaultRoot: string;
	/** The `claude` to run as a plain path (tests, the headless host's explicit path); asked again at each start. */
	cliPath?: () => string;
	/** Finds and checks the user's Claude Code at each start and gives the exact command (the plugin's way); wins over `cliPath`. */
	launcher?: ClaudeLauncher;
	gate: ToolGate;
	mcp?: InProcessMcpServers;
	/**
	 * Reads what the user attached to a message through the privacy boundary; the CLI receives that text. Without
	 * it, attachments are not handed over at all (the CLI is never given a mention to read itself).
	 */
	attachments?: AttachmentResolver;
	/**
	 * What the session's CLI may load of the vault's own configuration and the settings the panel hands it, decided
	 * at each start; default: nothing of the vault's is trusted and no sandbox.
	 */
	guard?: () => Promise<SessionGuard>;
	/** The CLI's environment; default `process.env`. Its HOME and CLAUDE_CONFIG_DIR also locate the transcripts. */
	env?: NodeJS.ProcessEnv;
	closeGraceMs?: number;
	/** Where an error thrown by a session's event listener goes. */
	reportError?: (error: unknown) => void;
}

export class StreamJsonEngine implements AgentEngine {
	constructor(private readonly options: StreamJsonEngineOptions) {}

	start(sessionOptions: AgentSessionOptions): AgentSession {
		const { options } = this;
		const servers = options.mcp?.names() ?? [];
		const session = new StreamJsonSession(
			{
				gate: options.gate,
				...(options.mcp !== undefined && { mcp: options.mcp }),
				...(options.closeGraceMs !== undefined && { closeGraceMs: options.closeGraceMs }),
				...(options.reportError !== undefined && { reportError: options.reportError }),
				start: (events) =>
					// A plain path with no guard to wait for starts at once (tests, the headless host's explicit path).
					options.launcher === undefined && options.guard === undefined
						? spawnCli(
								{
									binary: options.cliPath?.() ?? "",
									args: cliArguments(sessionOptions, servers, UNTRUSTED_GUARD),
									cwd: options.vaultRoot,
									env: this.env(),
								},
								events,
							)
						: this.spawn(
								this.guard().then((guard) => cliArguments(sessionOptions, servers, guard)),
								events,
							),
			},
			sessionOptions.resume,
		);
		return options.attachments === undefined ? session : new AttachingSession(session, options.attachments);
	}

	async pastSessions(): Promise<PastSession[]> {
		const folder = await this.transcripts();
		return folder === undefined ? [] : pastSessions(folder);
	}

	async history(sessionId: string, upTo?: string): Promise<AgentEvent[]> {
		const folder = await this.transcripts();
		if (folder === undefined) throw new Error(`no past sessions for ${this.options.vaultRoot}`);
		return sessionHistory(folder, sessionId, upTo);
	}

	async messageBefore(sessionId: string, messageId: string): Promise<string | undefined> {
		const folder = await this.transcripts();
		if (folder === undefined) throw new Error(`no past sessions for ${this.options.vaultRoot}`);
		return messageBefore(folder, sessionId, messageId);
	}

	private spawn(args: Promise<string[]>, events: CliProcessEvents): CliProcess {
		const { launcher, cliPath, vaultRoot } = this.options;
		const plan: Promise<LaunchPlan> =
			launcher === undefined
				? args.then((ready) => ({
						command: { command: cliPath?.() ?? "", args: ready, verbatimArguments: false },
					}))
				: args.then((ready) => launcher(ready));
		return deferredCliProcess(
			plan,
			(ready, started) => {
				const env = ready.path === undefined ? this.env() : { ...this.env(), PATH: ready.path };
				return spawnCli(
					{
						binary: ready.command.command,
						args: ready.command.args,
						cwd: vaultRoot,
						env,
						verbatimArguments: ready.command.verbatimArguments,
					},
					started,
				);
			},
			events,
		);
	}

	private guard(): Promise<SessionGuard> {
		return this.options.guard?.() ?? Promise.resolve(UNTRUSTED_GUARD);
	}

	private env(): NodeJS.ProcessEnv {
		return this.options.env ?? process.env;
	}

	/** The CLI names the folder after its working folder as the system reports it (symbolic links resolved). */
	private transcripts(): Promise<string | undefined> {
		const env = this.env();
		return transcriptFolder(claudeConfigFolder(env), realPath(this.options.vaultRoot));
	}
}

function realPath(folder: string): string {
	try {
		return realpathSync(folder);
	} catch {
		return folder;
	}
}
