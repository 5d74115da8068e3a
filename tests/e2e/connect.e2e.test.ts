import { writeFileSync } from "node:fs";
import path from "node:path";
import { HeadlessProcess } from "../helpers/headless-process";
import { claudeBinaryPath } from "./harness/cli-binary";
import { makeTempDir } from "../helpers/temp-dir";
import { makeClaudeHome, type ClaudeHome } from "./harness/claude-home";
import { ClaudePty } from "./harness/claude-pty";
import { lastUserText } from "./harness/messages-request";
import { MockAnthropic } from "./harness/mock-anthropic";

jest.setTimeout(60_000);

interface Session {
	vault: ReturnType<typeof makeTempDir>;
	home: ClaudeHome;
	mock: MockAnthropic;
	bridge: HeadlessProcess & { port: number; lockFile: string };
	cli: ClaudePty;
}

let session: Session | undefined;

beforeAll(() => {
	claudeBinaryPath();
}, 600_000);

afterEach(async () => {
	if (!session) return;
	await session.cli.kill();
	session.bridge.kill();
	await session.mock.close();
	session.home.remove();
	session.vault.remove();
	session = undefined;
});

async function startSession(cliArgs: string[] = ["--ide"]): Promise<Session> {
	const vault = makeTempDir("vault");
	writeFileSync(path.join(vault.path, "note.md"), "# A note\n\nSome text.\n");
	const home = makeClaudeHome([vault.path]);
	const mock = await MockAnthropic.start();
	const bridge = await HeadlessProcess.start({ vault: vault.path, home: home.path });
	const cli = ClaudePty.start({ cwd: vault.path, home: home.path, apiBaseUrl: mock.baseUrl, args: cliArgs });
	session = { vault, home, mock, bridge, cli };
	return session;
}

describe("the real Claude Code CLI against the headless host", () => {
	it("finds the vault's lock file with --ide, connects and completes the MCP handshake", async () => {
		const { bridge, cli, mock } = await startSession();
		await bridge.waitForTrace((event) => event.method === "tools/list" && event.direction === "in", "tools/list from the CLI");
		await bridge.waitForTrace((event) => event.kind === "response" && event.id === 1, "the answer to tools/list");
		const incoming = bridge
			.traces()
			.filter((event) => event.direction === "in")
			.map((event) => event.method);
		expect(incoming.slice(0, 4)).toEqual(["initialize", "notifications/initialized", "ide_connected", "tools/list"]);
		const answers = bridge.traces().filter((event) => event.direction === "out" && event.kind === "response");
		expect(answers.slice(0, 2)).toEqual([
			expect.objectContaining({ id: 0 }),
			expect.objectContaining({ id: 1 }),
		]);
		expect(answers.slice(0, 2).every((event) => event.errorCode === undefined)).toBe(true);

		const status = await bridge.status();
		expect(status.clients).toEqual([expect.objectContaining({ pid: await cli.cliPid(), client: "claude-code" })]);

		await cli.waitForPrompt();
		await cli.prompt("Say hello");
		const request = await mock.waitForMainRequest();
		expect(lastUserText(request.body)).toContain("Say hello");
		await cli.waitFor("Mock reply.");
	});
});
