import { readFileSync } from "node:fs";
import path from "node:path";
import { useBridgeSessions, waitUntilConnected } from "./harness/bridge-session";
import { textTurn, toolUseTurn } from "./harness/sse-reply";
import { pollUntil } from "../helpers/wait-until";

const ORIGINAL = "# Diary\n\nDear diary.\n";

const sessions = useBridgeSessions();

/**
 * Issue 11 finding 9 with the real CLI: the bridge refuses openDiff for a note in a private folder, and the CLI
 * then asks in the terminal (protocol.md §4.3: an error answer leaves the terminal's dialog in charge), so the
 * edit is still the user's to decide, and no review of the private note is shown by the bridge.
 */
describe("openDiff of a private note with the real CLI", () => {
	it("is refused by the bridge; the CLI asks in the terminal instead and nothing is pending in the bridge", async () => {
		const session = await sessions.start({
			notes: { "Secret/diary.md": ORIGINAL },
			cliArgs: ["--ide", "--permission-mode", "default"],
			bridgeArgs: ["--private-folder", "Secret"],
		});
		const note = path.join(session.vault, "Secret", "diary.md");
		session.mock.enqueue(
			toolUseTurn("Read", { file_path: note }),
			toolUseTurn("Edit", { file_path: note, old_string: "Dear diary.", new_string: "Dear diary, again." }),
			textTurn("Edit finished."),
		);
		await waitUntilConnected(session);
		await session.cli.prompt("Change the diary");
		await session.cli.waitFor(/Do you want to make this edit to diary\.md\?/, { timeoutMs: 30_000 });
		// The CLI's IDE calls so far (closeAllDiffTabs at the turn's start, then openDiff for the Edit) all have
		// an answer: a review shown in the bridge would keep openDiff unanswered until someone decides it.
		const unanswered = (): { calls: number; open: number } => {
			const traces = session.bridge.traces();
			const calls = traces
				.filter(
					(event) => event.direction === "in" && event.kind === "request" && event.method === "tools/call",
				)
				.map((event) => JSON.stringify(event.id));
			const answered = new Set(
				traces
					.filter((event) => event.direction === "out" && event.kind === "response")
					.map((event) => JSON.stringify(event.id)),
			);
			return { calls: calls.length, open: calls.filter((id) => !answered.has(id)).length };
		};
		await pollUntil(
			() => {
				const now = unanswered();
				return now.calls >= 2 && now.open === 0 ? true : undefined;
			},
			() => `the CLI's openDiff to be answered at once (${JSON.stringify(unanswered())})`,
		);
		session.bridge.send("diff list");
		await session.bridge.waitForOutput(/(No reviews pending\.)/, 5_000);
		expect(readFileSync(note, "utf8")).toBe(ORIGINAL);
	});
});
