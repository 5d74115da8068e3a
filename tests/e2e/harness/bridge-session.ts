import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { HeadlessProcess } from "../../helpers/headless-process";
import { makeTempDir } from "../../helpers/temp-dir";
import { makeClaudeHome, type ClaudeHome } from "./claude-home";
import { ClaudePty } from "./claude-pty";
import { MockAnthropic } from "./mock-anthropic";

export interface BridgeSession {
	vault: string;
	home: ClaudeHome;
	mock: MockAnthropic;
	bridge: HeadlessProcess & { port: number; lockFile: string };
	cli: ClaudePty;
	stop: () => Promise<void>;
}

export interface BridgeSessionOptions {
	/** Vault-relative path → content. */
	notes?: Record<string, string>;
	cliArgs?: string[];
	bridgeArgs?: string[];
	/** The CLI's working folder, relative to the vault. */
	cwd?: string;
	/** Start the CLI first (it polls for lock files for 30 s with --ide), then the bridge. */
	cliFirst?: boolean;
	/** Runs right after the bridge printed its port, before anything else. */
	onBridgeStarted?: (bridge: HeadlessProcess) => void;
}

/** A temp vault served by the headless host, a mock model API, and the real CLI started in the vault. */
export async function startBridgeSession(options: BridgeSessionOptions = {}): Promise<BridgeSession> {
	const temp = makeTempDir("vault");
	const vault = path.join(temp.path, "My vault");
	mkdirSync(vault);
	for (const [relative, content] of Object.entries(options.notes ?? { "note.md": "# A note\n\nSome text.\n" })) {
		mkdirSync(path.dirname(path.join(vault, relative)), { recursive: true });
		writeFileSync(path.join(vault, relative), content);
	}
	const cwd = path.join(vault, options.cwd ?? "");
	const home = makeClaudeHome([cwd]);
	const mock = await MockAnthropic.start();
	const startCli = () => ClaudePty.start({ cwd, home: home.path, apiBaseUrl: mock.baseUrl, args: options.cliArgs ?? ["--ide"] });
	const early = options.cliFirst ? startCli() : undefined;
	const bridge = await HeadlessProcess.start({ vault, home: home.path, args: options.bridgeArgs });
	options.onBridgeStarted?.(bridge);
	const cli = early ?? startCli();
	return {
		vault,
		home,
		mock,
		bridge,
		cli,
		stop: async () => {
			await cli.kill();
			bridge.kill();
			await mock.close();
			home.remove();
			temp.remove();
		},
	};
}

/** Waits until the CLI has connected, listed tools and shows its prompt. */
export async function waitUntilConnected(session: BridgeSession): Promise<void> {
	await session.bridge.waitForTrace((event) => event.kind === "response" && event.id === 1 && event.direction === "out", "the answer to tools/list");
	await session.cli.waitForPrompt();
}
