import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { HeadlessProcess } from "../helpers/headless-process";
import { makeClaudeHome } from "./harness/claude-home";
import { ClaudePty } from "./harness/claude-pty";
import {
	CLI_START_TIMEOUT_MS,
	connectWithIdeCommand,
	useBridgeSessions,
	waitUntilConnected,
} from "./harness/bridge-session";
import { makeTempDir } from "../helpers/temp-dir";
import path from "node:path";

const IDE_NAME = /Obsidian · My vault \(headless, pid \d+\)/;
const sessions = useBridgeSessions(90_000);

function ideConnectedCount(bridge: HeadlessProcess): number {
	return bridge.traces().filter((event) => event.method === "ide_connected").length;
}

describe("finding and connecting to the vault with the real CLI", () => {
	it("connects through /ide discovery, chosen by hand", async () => {
		const session = await sessions.start({ cliArgs: [] });
		await connectWithIdeCommand(session.cli, IDE_NAME);
		await session.bridge.waitForTrace(
			(event) => event.method === "ide_connected",
			"ide_connected",
			CLI_START_TIMEOUT_MS,
		);
		expect((await session.bridge.status()).clients).toEqual([
			expect.objectContaining({ pid: await session.cli.cliPid() }),
		]);
	});

	it("connects through CLAUDE_CODE_SSE_PORT from a folder outside the vault", async () => {
		const session = await sessions.start({
			cliArgs: [],
			cwdOutsideVault: true,
			cliEnv: (bridge) => ({ CLAUDE_CODE_SSE_PORT: String(bridge.port) }),
		});
		await waitUntilConnected(session);
		expect(ideConnectedCount(session.bridge)).toBe(1);
	});

	it("connects with --ide from a subfolder of the vault", async () => {
		const session = await sessions.start({
			notes: { "Projects/Garden/plan.md": "# Plan\n" },
			cwd: "Projects/Garden",
		});
		await waitUntilConnected(session);
		expect(ideConnectedCount(session.bridge)).toBe(1);
	});

	it("a wrong token is refused and nothing of the vault reaches the CLI", async () => {
		const session = await sessions.start({
			bridgeArgs: ["--debug"],
			onBridgeStarted: (bridge) => {
				const lockFile = /Lock file: (.+)/.exec(bridge.stdout)?.[1] ?? "";
				const lock = JSON.parse(readFileSync(lockFile, "utf8")) as { authToken: string };
				writeFileSync(lockFile, JSON.stringify({ ...lock, authToken: "0".repeat(64) }), { mode: 0o600 });
			},
		});
		await session.bridge.waitForOutput(/(Refused a connection: 401)/, 15_000, "stderr");
		expect(session.bridge.traces()).toEqual([]);
		expect((await session.bridge.status()).clients).toEqual([]);
	});

	it("serves two vaults at once, each found from its own folder", async () => {
		const temp = makeTempDir("two-vaults");
		sessions.onCleanup(() => temp.remove());
		const work = path.join(temp.path, "Work");
		const personal = path.join(temp.path, "Personal");
		mkdirSync(work);
		mkdirSync(personal);
		const home = makeClaudeHome([work, personal]);
		sessions.onCleanup(() => home.remove());
		const mock = await sessions.startMock();
		const bridges = await Promise.all(
			[work, personal].map((vault) => HeadlessProcess.start({ vault, home: home.path })),
		);
		sessions.onCleanup(() => bridges.forEach((bridge) => bridge.kill()));
		const clis = [work, personal].map((cwd) =>
			ClaudePty.start({ cwd, home: home.path, apiBaseUrl: mock.baseUrl, args: ["--ide"] }),
		);
		sessions.onCleanup(async () => {
			for (const cli of clis) await cli.kill();
		});
		for (const bridge of bridges)
			await bridge.waitForTrace(
				(event) => event.method === "ide_connected",
				"ide_connected",
				CLI_START_TIMEOUT_MS,
			);
		const statuses = await Promise.all(bridges.map((bridge) => bridge.status()));
		const pids = await Promise.all(clis.map((cli) => cli.cliPid()));
		expect(statuses.map((status) => status.clients.map((client) => client.pid))).toEqual([[pids[0]], [pids[1]]]);
	});

	it("reconnects with /ide after the bridge restarts on a new port", async () => {
		const session = await sessions.start();
		await waitUntilConnected(session);
		expect(await session.bridge.quit()).toBe(0);
		const restarted = await HeadlessProcess.start({ vault: session.vault, home: session.home.path });
		sessions.onCleanup(() => restarted.kill());
		expect(restarted.port).not.toBe(session.bridge.port);
		await connectWithIdeCommand(session.cli, IDE_NAME);
		await restarted.waitForTrace(
			(event) => event.method === "ide_connected",
			"ide_connected on the restarted bridge",
			20_000,
		);
	});

	it("reconnects with /ide after the token is rotated", async () => {
		const session = await sessions.start();
		await waitUntilConnected(session);
		const { bridge, cli } = session;
		bridge.send("rotate");
		await bridge.waitForOutput(/(Token rotated)/);
		await connectWithIdeCommand(cli, IDE_NAME);
		await bridge.waitFor(
			() => (ideConnectedCount(bridge) >= 2 ? true : undefined),
			"a second ide_connected",
			20_000,
		);
		const status = await bridge.status();
		expect(status.clients).toHaveLength(1);
		expect(status.clients[0]?.pid).toBe(await cli.cliPid());
	});
});
