import path from "node:path";
import { useBridgeSessions, waitUntilConnected, type BridgeSession } from "./harness/bridge-session";
import { lastUserText, requestText } from "./harness/messages-request";

const NOTE = "Alpha line\nBeta line\nGamma line\nDelta line\nEpsilon line\n";
const sessions = useBridgeSessions();

async function start(): Promise<BridgeSession> {
	const session = await sessions.start({ notes: { "Daily/note one.md": NOTE, "Daily/plan.md": NOTE } });
	await waitUntilConnected(session);
	return session;
}

describe("live context reaching the model through the real CLI", () => {
	it("after select, the next model request carries the selected lines and text", async () => {
		const { bridge, cli, mock, vault } = await start();
		bridge.send('select "Daily/note one.md" 1:0 2:10');
		await bridge.waitForOutput(/(Selected 20 characters)/);
		await cli.waitFor("2 lines selected");
		await cli.prompt("What about the selection?");
		const request = await mock.waitForMainRequest();
		const notePath = path.join(vault, "Daily", "note one.md");
		expect(requestText(request.body)).toContain(
			`The user selected the lines 2 to 3 from ${notePath}:\nBeta line\nGamma line`,
		);
	});

	it("after tag, the prompt holds @<path>#L<a>-<b> and the model request carries those lines", async () => {
		const { bridge, cli, mock } = await start();
		bridge.send("tag Daily/plan.md 2 3");
		await bridge.waitForOutput(/(Tagged .*plan\.md)/);
		await cli.waitFor("@Daily/plan.md#L3-4");
		await cli.prompt("Explain the tagged lines.");
		const request = await mock.waitForMainRequest();
		expect(lastUserText(request.body)).toContain("@Daily/plan.md#L3-4 Explain the tagged lines.");
		expect(requestText(request.body)).toContain("3\tGamma line\n4\tDelta line");
	});

	it("after open, the model is told the user opened that note", async () => {
		const { bridge, cli, mock, vault } = await start();
		bridge.send('open "Daily/note one.md"');
		await bridge.waitForOutput(/(Opened .*note one\.md)/);
		// The CLI shows the open note in its footer once it has the selection_changed.
		await cli.waitFor("In note one.md");
		await cli.prompt("Hello");
		const request = await mock.waitForMainRequest();
		expect(requestText(request.body)).toContain(
			`The user opened the file ${path.join(vault, "Daily", "note one.md")} in the IDE.`,
		);
	});

	it("a tag made while Claude Code is still connecting lands in its prompt", async () => {
		const session = await sessions.start({
			notes: { "note.md": NOTE },
			cliFirst: true,
			onBridgeStarted: (bridge) => bridge.send("tag note.md 0 1"),
		});
		const { bridge, cli } = session;
		await bridge.waitForOutput(/((?:Queued the tag|Tagged) )/);
		await waitUntilConnected(session);
		await cli.waitFor("@note.md#L1-2", { timeoutMs: 15_000 });
	});
});
