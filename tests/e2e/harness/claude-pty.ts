import { spawn, type ChildProcessByStdio } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { claudeBinaryPath } from "./cli-binary";
import { FAKE_API_KEY } from "./claude-home";
import { stripTerminalControls, withoutWhitespace } from "./terminal-text";
import { pause, pollUntil } from "../../helpers/wait-until";

export interface ClaudePtyOptions {
	cwd: string;
	home: string;
	apiBaseUrl: string;
	args?: string[];
	/** Added to (or, as `undefined`, removed from) the CLI's environment, which does not inherit this process's. */
	env?: Record<string, string | undefined>;
	apiKey?: string;
	binary?: string;
	cols?: number;
	rows?: number;
}

/** A string matches when it occurs in the screen text, whitespace ignored on both sides. */
export type ScreenMatcher = string | RegExp | ((text: string) => boolean);

export interface WaitOptions {
	timeoutMs?: number;
	/** Only look at screen text after this offset (from `mark()`). */
	since?: number;
}

/** The footer the prompt box shows once the CLI accepts input, in every permission mode. */
export const PROMPT_READY = /shift\+tab to cycle|\? for shortcuts/;

const BRIDGE = path.join(__dirname, "pty-bridge.py");
const PYTHON = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
const live = new Set<ClaudePty>();

process.once("exit", () => live.forEach((pty) => pty.killNow()));

/** Stops every CLI still running (for an `afterAll` safety net). */
export async function stopAllClaudePtys(): Promise<void> {
	await Promise.all([...live].map((pty) => pty.kill()));
}

function matches(matcher: ScreenMatcher, text: string): boolean {
	if (typeof matcher === "string") return withoutWhitespace(text).includes(withoutWhitespace(matcher));
	if (matcher instanceof RegExp) return matcher.test(text);
	return matcher(text);
}

function cliEnvironment(options: ClaudePtyOptions): Record<string, string> {
	const env: Record<string, string | undefined> = {
		PATH: process.env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
		HOME: options.home,
		USER: process.env["USER"] ?? "tester",
		SHELL: "/bin/bash",
		LANG: "C.UTF-8",
		TERM: "xterm-256color",
		NO_PROXY: "127.0.0.1,localhost,::1",
		no_proxy: "127.0.0.1,localhost,::1",
		ANTHROPIC_BASE_URL: options.apiBaseUrl,
		ANTHROPIC_API_KEY: options.apiKey ?? FAKE_API_KEY,
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
		DISABLE_AUTOUPDATER: "1",
		CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL: "1",
		...options.env,
	};
	return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** The real Claude Code CLI running in a pseudo-terminal (through pty-bridge.py), driven like a user would. */
export class ClaudePty {
	private raw = "";
	private strippedCache: { rawLength: number; text: string } = { rawLength: 0, text: "" };
	private bridgeLog = "";
	private pid: number | undefined;
	private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
	private readonly exited: Promise<void>;

	private constructor(private readonly child: ChildProcessByStdio<Writable, Readable, Readable>) {
		child.stdout.setEncoding("utf8");
		child.stdout.on("data", (chunk: string) => (this.raw += chunk));
		child.stderr.setEncoding("utf8");
		child.stderr.on("data", (chunk: string) => this.readBridgeLog(chunk));
		child.stdin.on("error", () => undefined);
		this.exited = new Promise((resolve) => {
			child.once("exit", (code, signal) => {
				this.exit = { code, signal };
				live.delete(this);
				resolve();
			});
		});
	}

	static start(options: ClaudePtyOptions): ClaudePty {
		const binary = options.binary ?? claudeBinaryPath();
		const size = [String(options.cols ?? 120), String(options.rows ?? 40)];
		const child = spawn(PYTHON, [BRIDGE, ...size, options.cwd, binary, ...(options.args ?? [])], {
			env: cliEnvironment(options),
			stdio: ["pipe", "pipe", "pipe"],
		});
		const pty = new ClaudePty(child);
		live.add(pty);
		return pty;
	}

	/** Process id of the CLI itself (what it reports in `ide_connected`). */
	cliPid(timeoutMs = 5_000): Promise<number> {
		return pollUntil(
			() => this.pid,
			() => `the CLI's pid (bridge said: ${this.bridgeLog})`,
			{ timeoutMs, intervalMs: 50 },
		);
	}

	get hasExited(): boolean {
		return this.exit !== undefined;
	}

	/** Everything the CLI drew so far, control sequences removed. */
	text(since = 0): string {
		if (this.strippedCache.rawLength !== this.raw.length) {
			this.strippedCache = { rawLength: this.raw.length, text: stripTerminalControls(this.raw) };
		}
		return this.strippedCache.text.slice(since);
	}

	rawOutput(): string {
		return this.raw;
	}

	mark(): number {
		return this.text().length;
	}

	async waitFor(matcher: ScreenMatcher, options: WaitOptions = {}): Promise<string> {
		const timeoutMs = options.timeoutMs ?? 15_000;
		return pollUntil(
			() => {
				const text = this.text(options.since);
				if (matches(matcher, text)) return text;
				if (this.exit)
					throw new Error(
						`CLI exited (${JSON.stringify(this.exit)}) before showing ${String(matcher)}\n${this.tail()}`,
					);
				return undefined;
			},
			() => `${String(matcher)} on the CLI's screen. Last output:\n${this.tail()}`,
			{ timeoutMs, intervalMs: 50 },
		);
	}

	waitForPrompt(timeoutMs = 20_000): Promise<string> {
		return this.waitFor(PROMPT_READY, { timeoutMs });
	}

	type(text: string): void {
		this.child.stdin.write(text);
	}

	submit(): void {
		this.child.stdin.write("\r");
	}

	/** Types `text`, waits until the prompt box shows it, then presses Enter. */
	async prompt(text: string, timeoutMs = 10_000): Promise<void> {
		const since = this.mark();
		this.type(text);
		await this.waitFor(text, { since, timeoutMs });
		// The CLI ignores an Enter pressed the instant the text is drawn.
		await pause(150);
		this.submit();
	}

	/** Stops the CLI (SIGTERM to the bridge, which ends the CLI's process group; SIGKILL after 5 s). */
	async kill(): Promise<void> {
		if (this.exit) return;
		this.child.kill("SIGTERM");
		const escalation = setTimeout(() => this.killNow(), 5_000);
		await this.exited;
		clearTimeout(escalation);
	}

	killNow(): void {
		if (this.pid !== undefined) {
			try {
				process.kill(-this.pid, "SIGKILL");
			} catch {
				// already gone
			}
		}
		if (!this.exit) this.child.kill("SIGKILL");
	}

	tail(chars = 2_000): string {
		return this.text().slice(-chars);
	}

	private readBridgeLog(chunk: string): void {
		this.bridgeLog += chunk;
		if (this.pid !== undefined) return;
		const match = /^\{"pid": (\d+)\}\n/.exec(this.bridgeLog);
		if (match?.[1]) this.pid = Number(match[1]);
	}
}
