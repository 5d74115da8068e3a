import { useBridgeSessions, waitUntilConnected } from "./harness/bridge-session";
import { lastUserText } from "./harness/messages-request";

const sessions = useBridgeSessions();

describe("the real Claude Code CLI against the headless host", () => {
	it("finds the vault's lock file with --ide, connects and completes the MCP handshake", async () => {
		const session = await sessions.start();
		const { bridge, cli, mock } = session;
		await waitUntilConnected(session);
		const incoming = bridge
			.traces()
			.filter((event) => event.direction === "in")
			.map((event) => event.method);
		expect(incoming.slice(0, 4)).toEqual([
			"initialize",
			"notifications/initialized",
			"ide_connected",
			"tools/list",
		]);
		const answers = bridge.traces().filter((event) => event.direction === "out" && event.kind === "response");
		expect(answers.slice(0, 2)).toEqual([expect.objectContaining({ id: 0 }), expect.objectContaining({ id: 1 })]);
		expect(answers.slice(0, 2).every((event) => event.errorCode === undefined)).toBe(true);

		const status = await bridge.status();
		expect(status.clients).toEqual([expect.objectContaining({ pid: await cli.cliPid(), client: "claude-code" })]);

		await cli.prompt("Say hello");
		const request = await mock.waitForMainRequest();
		expect(lastUserText(request.body)).toContain("Say hello");
		await cli.waitFor("Mock reply.");
		// The CLI closes stale review tabs at the start of every turn; the call must succeed.
		await bridge.waitForTrace((event) => event.method === "tools/call", "closeAllDiffTabs from the CLI");
		expect(bridge.traces().filter((event) => event.errorCode !== undefined)).toEqual([]);
	});
});
