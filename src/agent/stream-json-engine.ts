/** The agent engine of one vault: Claude Code sessions run in the vault root, and the CLI's own transcripts. */
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { AgentEngine, AgentEvent, AgentSession, AgentSessionOptions, InProcessMcpServers, PastSession, ToolGate } from "./agent-session";
import { cliArguments } from "./cli-arguments";
import type { ClaudeLauncher } from "./claude-launcher";
import { spawnCli, type CliProcess, type CliProcessEvents } from "./cli-process";
import { deferredCliProcess } from "./deferred-cli-process";
import { StreamJsonSession } from "./stream-json-session";
import { pastSessions, sessionHistory, transcriptFolder } from "./transcripts";

export interface StreamJsonEngineOptions {
	/** The vault's folder: every session's working folder. */
	vaultRoot: string;
	/** The `claude` to run as a plain path (tests, the headless host's explicit path); asked again at each start. */
	cliPath?: () => string;
	/** Finds and checks the user's Claude Code at each start and gives the exact command (the plugin's way); wins over `cliPath`. */
	launcher?: ClaudeLauncher;
	gate: ToolGate;
	mcp?: InProcessMcpServers;
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
		const args = cliArguments(sessionOptions, servers);
		return new StreamJsonSession(
			{
				gate: options.gate,
				...(options.mcp !== undefined && { mcp: options.mcp }),
				...(options.closeGraceMs !== undefined && { closeGraceMs: options.closeGraceMs }),
				...(options.reportError !== undefined && { reportError: options.reportError }),
				start: (events) => this.spawn(args, events),
			},
			sessionOptions.resume,
		);
	}

	async pastSessions(): Promise<PastSession[]> {
		const folder = await this.transcripts();
		return folder === undefined ? [] : pastSessions(folder);
	}

	async history(sessionId: string): Promise<AgentEvent[]> {
		const folder = await this.transcripts();
		if (folder === undefined) throw new Error(`no past sessions for ${this.options.vaultRoot}`);
		return sessionHistory(folder, sessionId);
	}

	private spawn(args: readonly string[], events: CliProcessEvents): CliProcess {
		const { launcher, cliPath, vaultRoot } = this.options;
		if (launcher === undefined) return spawnCli({ binary: cliPath?.() ?? "", args, cwd: vaultRoot, env: this.env() }, events);
		return deferredCliProcess(
			launcher(args),
			(plan, started) => {
				const env = plan.path === undefined ? this.env() : { ...this.env(), PATH: plan.path };
				return spawnCli({ binary: plan.command.command, args: plan.command.args, cwd: vaultRoot, env, verbatimArguments: plan.command.verbatimArguments }, started);
			},
			events,
		);
	}

	private env(): NodeJS.ProcessEnv {
		return this.options.env ?? process.env;
	}

	/** The CLI names the folder after its working folder as the system reports it (symbolic links resolved). */
	private transcripts(): Promise<string | undefined> {
		const env = this.env();
		const configDir = env["CLAUDE_CONFIG_DIR"] ?? join(env["HOME"] ?? env["USERPROFILE"] ?? homedir(), ".claude");
		return transcriptFolder(configDir, realPath(this.options.vaultRoot));
	}
}

function realPath(folder: string): string {
	try {
		return realpathSync(folder);
	} catch {
		return folder;
	}
}
