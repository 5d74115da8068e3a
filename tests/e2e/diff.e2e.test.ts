import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { HeadlessProcess } from "../helpers/headless-process";
import { useBridgeSessions, waitUntilConnected, type BridgeSession } from "./harness/bridge-session";
import { textTurn, toolUseTurn } from "./harness/sse-reply";
import { pollUntil } from "../helpers/wait-until";
import { lastUserText } from "./harness/messages-request";

const ORIGINAL = "# A note\n\nSome text.\n";
const PROPOSED = "# A note\n\nSome better text.\n";

const sessions = useBridgeSessions();

/** The model reads the note, then proposes an Edit; in the default permission mode the CLI asks through openDiff. */
async function proposeEdit(): Promise<BridgeSession & { note: string }> {
	const session = await sessions.start({
		notes: { "note.md": ORIGINAL },
		cliArgs: ["--ide", "--permission-mode", "default"],
	});
	const note = path.join(session.vault, "note.md");
	session.mock.enqueue(
		toolUseTurn("Read", { file_path: note }),
		toolUseTurn("Edit", { file_path: note, old_string: "Some text.", new_string: "Some better text." }),
		textTurn("Edit finished."),
	);
	await waitUntilConnected(session);
	await session.cli.prompt("Improve the note");
	await session.bridge.waitForOutput(/(Review pending: .* for note\.md)/, 20_000);
	return { ...session, note };
}

function toolCallCount(bridge: HeadlessProcess): number {
	return bridge.traces().filter((event) => event.direction === "in" && event.method === "tools/call").length;
}

async function sendAndRead(bridge: HeadlessProcess, line: string, pattern: RegExp): Promise<string> {
	bridge.send(line);
	return bridge.waitForOutput(pattern, 5_000);
}

function noteHolds(note: string, text: string): Promise<true> {
	return pollUntil(
		() => (readFileSync(note, "utf8") === text ? true : undefined),
		() => `the note to hold ${JSON.stringify(text)}; it has ${JSON.stringify(readFileSync(note, "utf8"))}`,
		{ timeoutMs: 15_000 },
	);
}

describe("reviewing Claude's edits through openDiff with the real CLI", () => {
	it("diff accept makes the CLI write the proposal as it was", async () => {
		const { bridge, note, cli } = await proposeEdit();
		await sendAndRead(bridge, "diff accept", /(Accepted .*)/);
		await noteHolds(note, PROPOSED);
		await cli.waitFor("Edit finished.");
	});

	it("diff accept --text-file makes the CLI write exactly the edited text", async () => {
		const { bridge, note, home } = await proposeEdit();
		const listed = JSON.parse(await sendAndRead(bridge, "diff list", /^(\{"tab_name".*\})$/m)) as {
			tab_name: string;
			path: string;
		};
		expect(listed.path).toBe("note.md");
		expect(listed.tab_name).toMatch(/^✻ \[Claude Code\] note\.md \([0-9a-f]{6}\) ⧉$/);
		const edited = path.join(home.path, "edited.md");
		const finalText = "# A note\n\nSome text, improved by hand.\n";
		writeFileSync(edited, finalText);
		await sendAndRead(bridge, `diff accept --text-file "${edited}"`, /(Accepted .*)/);
		await noteHolds(note, finalText);
	});

	it("diff reject leaves the note untouched and the CLI reports the rejection", async () => {
		const { bridge, note, cli, mock } = await proposeEdit();
		const calls = toolCallCount(bridge);
		await sendAndRead(bridge, "diff reject", /(Rejected .*)/);
		await cli.waitFor("Rejected update to note.md", { timeoutMs: 15_000 });
		await pollUntil(
			() => (toolCallCount(bridge) > calls ? true : undefined),
			"a tools/call (close_tab) after the decision",
		);
		// The fence: the CLI handles one turn at a time, so once the next prompt reaches the model, the
		// rejected Edit is over, and any write it was going to make would have been made.
		await cli.prompt("Never mind.");
		await mock.waitForMainRequest({ where: (request) => lastUserText(request.body).includes("Never mind.") });
		expect(readFileSync(note, "utf8")).toBe(ORIGINAL);
	});
});
