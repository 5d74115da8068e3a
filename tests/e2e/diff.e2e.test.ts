import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { HeadlessProcess } from "../helpers/headless-process";
import { makeTempDir } from "../helpers/temp-dir";
import { claudeBinaryPath } from "./harness/cli-binary";
import { makeClaudeHome, type ClaudeHome } from "./harness/claude-home";
import { ClaudePty } from "./harness/claude-pty";
import { MockAnthropic } from "./harness/mock-anthropic";
import { textTurn, toolUseTurn } from "./harness/sse-reply";
import { delay, pollUntil } from "./harness/wait";

jest.setTimeout(60_000);

const ORIGINAL = "# A note\n\nSome text.\n";

interface Session {
	vault: ReturnType<typeof makeTempDir>;
	note: string;
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

/** The model reads the note, then proposes an Edit; in the default permission mode the CLI asks through openDiff. */
async function proposeEdit(): Promise<Session> {
	const vault = makeTempDir("vault");
	const note = path.join(vault.path, "note.md");
	writeFileSync(note, ORIGINAL);
	const home = makeClaudeHome([vault.path]);
	const mock = await MockAnthropic.start();
	const bridge = await HeadlessProcess.start({ vault: vault.path, home: home.path });
	const cli = ClaudePty.start({ cwd: vault.path, home: home.path, apiBaseUrl: mock.baseUrl, args: ["--ide", "--permission-mode", "default"] });
	session = { vault, note, home, mock, bridge, cli };
	mock.enqueue(
		toolUseTurn("Read", { file_path: note }),
		toolUseTurn("Edit", { file_path: note, old_string: "Some text.", new_string: "Some better text." }),
		textTurn("Edit finished."),
	);
	await bridge.waitForTrace((event) => event.method === "tools/list" && event.direction === "in", "tools/list from the CLI");
	await cli.waitForPrompt();
	await cli.prompt("Improve the note");
	await bridge.waitForOutput(/(Review pending: .* for note\.md)/, 20_000);
	return session;
}

function toolCallCount(bridge: HeadlessProcess): number {
	return bridge.stderr.split("\n").filter((line) => line.includes('"method":"tools/call"')).length;
}

describe("reviewing Claude's edits through openDiff with the real CLI", () => {
	it("diff accept --text-file makes the CLI write exactly the edited text", async () => {
		const { bridge, note, vault } = await proposeEdit();
		const listed = JSON.parse((await sendAndRead(bridge, "diff list", /^(\{"tab_name".*\})$/m))) as { tab_name: string; path: string };
		expect(listed.path).toBe("note.md");
		expect(listed.tab_name).toMatch(/^✻ \[Claude Code\] note\.md \([0-9a-f]{6}\) ⧉$/);
		const edited = path.join(vault.path, "..", `${path.basename(vault.path)}-edited.md`);
		const finalText = "# A note\n\nSome text, improved by hand.\n";
		writeFileSync(edited, finalText);
		await sendAndRead(bridge, `diff accept --text-file "${edited}"`, /(Accepted .*)/);
		await pollUntil(() => (readFileSync(note, "utf8") === finalText ? true : undefined), { timeoutMs: 15_000, describe: () => `the note to hold the edited text; it has ${JSON.stringify(readFileSync(note, "utf8"))}` });
	});

	it("diff reject leaves the note untouched and the CLI reports the rejection", async () => {
		const { bridge, note, cli } = await proposeEdit();
		const calls = toolCallCount(bridge);
		await sendAndRead(bridge, "diff reject", /(Rejected .*)/);
		await cli.waitFor("Rejected update to note.md", { timeoutMs: 15_000 });
		// The CLI follows a decision with close_tab (a tools/call); then give it a moment to (not) write.
		await pollUntil(() => (toolCallCount(bridge) > calls ? true : undefined), { timeoutMs: 5_000, describe: () => "a tools/call (close_tab) after the decision" });
		await delay(300);
		expect(readFileSync(note, "utf8")).toBe(ORIGINAL);
	});
});

async function sendAndRead(bridge: HeadlessProcess, line: string, pattern: RegExp): Promise<string> {
	bridge.send(line);
	return bridge.waitForOutput(pattern, 5_000);
}
