import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { HeadlessProcess } from "../../helpers/headless-process";
import { makeTempDir } from "../../helpers/temp-dir";
import { makeClaudeHome, type ClaudeHome } from "./claude-home";
import { ClaudePty } from "./claude-pty";
import { pause } from "../../helpers/wait-until";
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
	/** Start the CLI in a folder outside the vault (a sibling). */
	cwdOutsideVault?: boolean;
	/** Extra environment for the CLI, computed once the bridge runs (e.g. CLAUDE_CODE_SSE_PORT). */
	cliEnv?: (bridge: HeadlessProcess & { port: number; lockFile: string }) => Record<string, string>;
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
	const cwd = options.cwdOutsideVault ? path.join(temp.path, "elsewhere") : path.join(vault, options.cwd ?? "");
	mkdirSync(cwd, { recursive: true });
	const home = makeClaudeHome([cwd]);
	const mock = await MockAnthropic.start();
	const startCli = (env?: Record<string, string>) =>
		ClaudePty.start({ cwd, home: home.path, apiBaseUrl: mock.baseUrl, args: options.cliArgs ?? ["--ide"], env });
	const early = options.cliFirst ? startCli() : undefined;
	const bridge = await HeadlessProcess.start({ vault, home: home.path, args: options.bridgeArgs });
	options.onBridgeStarted?.(bridge);
	const cli = early ?? startCli(options.cliEnv?.(bridge));
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

/**
 * For a test file: sets the test timeout, and after each test stops every session (and mock model API) it
 * started, runs its extra cleanups, and fails the test if the CLI called an endpoint the mock does not serve
 * (an unserved call would otherwise go unnoticed: the CLI shrugs off a 404 from telemetry and the like).
 */
export function useBridgeSessions(timeoutMs = 60_000): {
	start: (options?: BridgeSessionOptions) => Promise<BridgeSession>;
	/** A mock model API of the test's own (for CLIs started by hand), checked and closed like a session's. */
	startMock: () => Promise<MockAnthropic>;
	onCleanup: (cleanup: () => Promise<void> | void) => void;
} {
	const sessions: BridgeSession[] = [];
	const mocks: MockAnthropic[] = [];
	const cleanups: (() => Promise<void> | void)[] = [];
	jest.setTimeout(timeoutMs);
	afterEach(async () => {
		const checked = [...sessions.map((session) => session.mock), ...mocks];
		for (const session of sessions.splice(0)) await session.stop();
		for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
		for (const mock of mocks.splice(0)) await mock.close();
		const unserved = checked.flatMap((mock) => mock.unknownRoutes).map((route) => `${route.method} ${route.url}`);
		if (unserved.length > 0) {
			throw new Error(
				`The CLI called endpoints the mock model API does not serve: ${unserved.join(", ")}. Serve them in harness/mock-anthropic.ts (or list them there as expected, saying why).`,
			);
		}
	});
	return {
		start: async (options) => {
			const session = await startBridgeSession(options);
			sessions.push(session);
			return session;
		},
		startMock: async () => {
			const mock = await MockAnthropic.start();
			mocks.push(mock);
			return mock;
		},
		onCleanup: (cleanup) => void cleanups.push(cleanup),
	};
}

/**
 * Connects by hand as a user does: `/ide`, choose the vault in the list (it opens on "None"), and answer
 * the one-time "connect automatically?" question with its default.
 */
export async function connectWithIdeCommand(cli: ClaudePty, ideName: RegExp): Promise<void> {
	await cli.waitForPrompt();
	cli.type("/ide");
	await pause(300);
	const menuFrom = cli.mark();
	cli.submit();
	const menu = await cli.waitFor(new RegExp(`Connect to an IDE[\\s\\S]*${ideName.source}`), { since: menuFrom });
	// The cursor (❯) starts on the IDE in use, else on "None": move up to the vault only when needed.
	const cursorOnVault = new RegExp(`❯\\s*(✔\\s*)?${ideName.source}`).test(
		menu.slice(menu.lastIndexOf("Connect to an IDE")),
	);
	if (!cursorOnVault) {
		cli.type("\u001b[A");
		await pause(300);
	}
	const since = cli.mark();
	cli.submit();
	const answer = await cli.waitFor(/Connected to|connect with \/ide/, { since });
	if (!/Connected to/.test(answer)) {
		// The question ignores a key pressed the instant it appears.
		await pause(500);
		cli.submit();
	}
}

/**
 * The longest a CLI may take from start to its IDE handshake before a test gives up: about a second when
 * the machine is idle, far more when the whole suite shares two cores. A hang guard, not a measurement.
 */
export const CLI_START_TIMEOUT_MS = 30_000;

/** Waits until the CLI has connected, listed tools and shows its prompt. */
export async function waitUntilConnected(session: BridgeSession): Promise<void> {
	await session.bridge.waitForTrace(
		(event) => event.kind === "response" && event.id === 1 && event.direction === "out",
		"the answer to tools/list",
		CLI_START_TIMEOUT_MS,
	);
	await session.cli.waitForPrompt();
}
