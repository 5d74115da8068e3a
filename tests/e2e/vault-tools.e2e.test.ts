import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { HeadlessProcess } from "../helpers/headless-process";
import { makeTempDir } from "../helpers/temp-dir";
import { pause } from "../helpers/wait-until";
import { useBridgeSessions } from "./harness/bridge-session";
import { makeClaudeHome } from "./harness/claude-home";
import { claudeBinaryPath } from "./harness/cli-binary";
import { ClaudePty } from "./harness/claude-pty";
import { isJsonObject, messagesOf, textsOf, type JsonObject } from "./harness/messages-request";
import type { MockAnthropic } from "./harness/mock-anthropic";
import { textTurn, toolUseTurn, type ScriptedTurn } from "./harness/sse-reply";

type Host = HeadlessProcess & { port: number; lockFile: string };

const NOTES: Record<string, string> = {
	"Notes/Alpha.md": "# Alpha\n\nAlpha links to [[Beta]].\n\n## Tasks\n\n- one\n",
	"Notes/Beta.md": "# Beta\n\nBack to [[Alpha#Tasks]].\n",
	"Private/Secret.md": "# Secret\n\nThe secret plan mentions Alpha.\n",
};

const ALPHA = "Notes/Alpha.md";

/** One MCP tool call as the model made it and the result the CLI gave back to the model. */
interface ModelToolCall {
	name: string;
	input: JsonObject;
	result: string;
	isError: boolean;
}

interface VaultToolsSession {
	vault: string;
	host: Host;
	mock: MockAnthropic;
	cli: ClaudePty;
	read(relative: string): string;
}

const sessions = useBridgeSessions(120_000);

/** The name `mcp-config <kind>` gives the server: the model calls its tools as `mcp__<name>__<tool>`. */
const serverName = (_kind: "stdio" | "http"): string => "obsidian";

/** The headless host's `mcp-config <kind>` line: the JSON a user passes to `claude --mcp-config`. */
async function mcpConfig(host: Host, kind: "stdio" | "http"): Promise<string> {
	const before = host.stdout.length;
	host.send(`mcp-config ${kind}`);
	return host.waitFor(
		() => /^(\{"mcpServers".*\})$/m.exec(host.stdout.slice(before))?.[1],
		`the mcp-config ${kind} line`,
		10_000,
	);
}

/**
 * A vault served by the headless host (private folder "Private"), and the real CLI started in it with the vault
 * tools configured from `mcp-config <kind>`. `--allowedTools mcp__<name>` admits the server's tools: in the
 * default permission mode the CLI asks before every MCP call otherwise (claude-code-client.md §9).
 */
async function startVaultToolsSession(
	kind: "stdio" | "http",
	options: { stopBridgeFirst?: boolean; askPermission?: boolean; turns: ScriptedTurn[] },
): Promise<VaultToolsSession> {
	const temp = makeTempDir("vault-tools-e2e");
	const vault = path.join(temp.path, "My vault");
	for (const [relative, text] of Object.entries(NOTES)) {
		mkdirSync(path.dirname(path.join(vault, relative)), { recursive: true });
		writeFileSync(path.join(vault, relative), text);
	}
	const home = makeClaudeHome([vault]);
	// The activity journal goes to the data folder: a temp one, so each test has its own journal.
	const dataHome = path.join(temp.path, "data");
	const host = await HeadlessProcess.start({
		vault,
		home: home.path,
		args: ["--private-folder", "Private"],
		env: { XDG_DATA_HOME: dataHome },
	});
	sessions.onCleanup(() => {
		host.kill();
		home.remove();
		temp.remove();
	});
	const config = await mcpConfig(host, kind);
	if (options.stopBridgeFirst) await host.quit();
	const mock = await sessions.startMock();
	mock.enqueue(...options.turns);
	const allow = options.askPermission ? [] : ["--allowedTools", `mcp__${serverName(kind)}`];
	const cli = ClaudePty.start({
		cwd: vault,
		home: home.path,
		apiBaseUrl: mock.baseUrl,
		args: ["--mcp-config", config, ...allow, "--permission-mode", "default"],
	});
	sessions.onCleanup(() => cli.kill());
	await cli.waitForPrompt();
	return { vault, host, mock, cli, read: (relative) => readFileSync(path.join(vault, relative), "utf8") };
}

/** The model's MCP tool calls and their results, from the conversation the CLI sent in its latest request. */
function toolCalls(mock: MockAnthropic): ModelToolCall[] {
	const last = mock.mainRequests.at(-1);
	if (!last) return [];
	const uses = new Map<string, { name: string; input: JsonObject }>();
	const calls: ModelToolCall[] = [];
	for (const message of messagesOf(last.body)) {
		const content = Array.isArray(message.content) ? message.content.filter(isJsonObject) : [];
		for (const block of content) {
			if (
				block.type === "tool_use" &&
				typeof block.id === "string" &&
				typeof block.name === "string" &&
				isJsonObject(block.input)
			)
				uses.set(block.id, { name: block.name, input: block.input });
			if (block.type === "tool_result" && typeof block.tool_use_id === "string") {
				const use = uses.get(block.tool_use_id);
				if (use)
					calls.push({ ...use, result: textsOf(block.content).join("\n"), isError: block.is_error === true });
			}
		}
	}
	return calls;
}

/** Calls the stdio server relayed to the bridge (the host runs with --trace). */
const relayedCalls = (host: HeadlessProcess): number =>
	host.traces().filter((event) => event.direction === "in" && event.method === "vaultTools/call").length;

const readTurns = (server: string): ScriptedTurn[] => [
	toolUseTurn(`mcp__${server}__search`, { query: "Alpha" }),
	toolUseTurn(`mcp__${server}__read_note`, { path: "Alpha", section: "Tasks" }),
	toolUseTurn(`mcp__${server}__links`, { path: "Alpha", direction: "in" }),
	toolUseTurn(`mcp__${server}__search`, { query: "secret plan" }),
];

/** What the read turns must have answered, whichever transport carried them. */
function expectReadAnswers(calls: ModelToolCall[], server: string): void {
	expect(calls.slice(0, 4).map((call) => [call.name, call.isError])).toEqual([
		[`mcp__${server}__search`, false],
		[`mcp__${server}__read_note`, false],
		[`mcp__${server}__links`, false],
		[`mcp__${server}__search`, false],
	]);
	const [search, section, backlinks, privateSearch] = calls.map((call) => call.result);
	expect(search).toMatch(/^Notes\/Alpha\.md:1: # Alpha/m);
	expect(section).toMatch(
		/^Notes\/Alpha\.md \| heading "Alpha > Tasks", lines 5-7 of 8 \| version \S+\n## Tasks\n\n- one\n$/,
	);
	expect(backlinks).toMatch(/in Notes\/Beta\.md:3: Back to \[\[Alpha#Tasks\]\]/);
	// The private note holds the phrase, and does not exist for the tools.
	expect(privateSearch).toMatch(/^No matches/);
}

describe("Claude's vault tools with the real CLI (mcp__obsidian__*)", () => {
	it("stdio (mcp-config stdio): reads, a link-safe move and a private note, served by the running bridge", async () => {
		const session = await startVaultToolsSession("stdio", {
			turns: [
				...readTurns("obsidian"),
				toolUseTurn("mcp__obsidian__move_note", { path: "Notes/Beta.md", to: "Archive/Beta renamed.md" }),
				textTurn("Looked around."),
			],
		});
		await session.cli.prompt("Look around my vault");
		await session.cli.waitFor("Looked around.", { timeoutMs: 60_000 });
		const calls = toolCalls(session.mock);
		expectReadAnswers(calls, "obsidian");
		expect(calls[4]).toMatchObject({
			name: "mcp__obsidian__move_note",
			isError: false,
			result: expect.stringMatching(
				/^Moved Notes\/Beta\.md to Archive\/Beta renamed\.md; updated 1 link in 1 note\./,
			) as unknown,
		});
		expect(session.read(ALPHA)).toBe("# Alpha\n\nAlpha links to [[Beta renamed]].\n\n## Tasks\n\n- one\n");
		expect(session.read("Archive/Beta renamed.md")).toBe(NOTES["Notes/Beta.md"]);
		// Every call went through the bridge (the relay), none was answered from the folder. The host's trace (stderr)
		// can trail the answers, so wait for the fifth line before checking there are exactly five.
		await session.host.waitFor(
			() => (relayedCalls(session.host) >= 5 ? true : undefined),
			"5 relayed calls in the host's trace",
			10_000,
		);
		expect(relayedCalls(session.host)).toBe(5);
	});

	it("stdio: edit_note shows each change for review; diff accept applies it, diff reject leaves the note as it was", async () => {
		const session = await startVaultToolsSession("stdio", {
			turns: [
				toolUseTurn("mcp__obsidian__edit_note", {
					path: "Alpha",
					edits: [{ target: "Alpha > Tasks", op: "append", content: "- two" }],
				}),
				toolUseTurn("mcp__obsidian__edit_note", {
					path: "Alpha",
					edits: [{ target: "Alpha > Tasks", op: "append", content: "- three" }],
				}),
				textTurn("Edits done."),
			],
		});
		const { host, cli } = session;
		await cli.prompt("Add tasks to Alpha");
		await host.waitForOutput(/(Review pending: .* for Notes\/Alpha\.md)/, 60_000);
		const afterFirst = host.stdout.length;
		host.send("diff accept");
		await host.waitFor(
			() => /Review pending: .* for Notes\/Alpha\.md/.exec(host.stdout.slice(afterFirst))?.[0],
			"the second review",
			60_000,
		);
		host.send("diff reject");
		await cli.waitFor("Edits done.", { timeoutMs: 60_000 });
		const [accepted, rejected] = toolCalls(session.mock);
		expect(accepted).toMatchObject({
			isError: false,
			result: expect.stringMatching(/^Applied 1 edit to Notes\/Alpha\.md/) as unknown,
		});
		expect(rejected?.result).toMatch(
			/^Not applied: the user rejected the change in the review\. Notes\/Alpha\.md is unchanged/,
		);
		expect(session.read(ALPHA)).toBe("# Alpha\n\nAlpha links to [[Beta]].\n\n## Tasks\n\n- one\n- two\n");
	});

	it("stdio: an accepted edit_note shows in activity with its note, and undo <id> restores the note's exact bytes", async () => {
		const session = await startVaultToolsSession("stdio", {
			turns: [
				toolUseTurn("mcp__obsidian__edit_note", {
					path: "Alpha",
					edits: [{ target: "Alpha > Tasks", op: "append", content: "- journaled" }],
				}),
				textTurn("Edit journaled."),
			],
		});
		const { host, cli, vault } = session;
		const before = readFileSync(path.join(vault, ALPHA));
		await cli.prompt("Add a task to Alpha");
		await host.waitForOutput(/(Review pending: .* for Notes\/Alpha\.md)/, 60_000);
		host.send("diff accept");
		await cli.waitFor("Edit journaled.", { timeoutMs: 60_000 });
		expect(session.read(ALPHA)).toBe("# Alpha\n\nAlpha links to [[Beta]].\n\n## Tasks\n\n- one\n- journaled\n");

		const sinceActivity = host.stdout.length;
		host.send("activity tool:edit_note");
		const entry = await host.waitFor(
			() =>
				/^ {2}\S+ \S+ {2}(\S+) {2}edit_note {2}ok\b.*\n(?: {6}.*\n)*? {6}changed Notes\/Alpha\.md$/m.exec(
					host.stdout.slice(sinceActivity),
				)?.[1],
			"the edit_note entry in activity",
			10_000,
		);

		const sinceUndo = host.stdout.length;
		host.send(`undo ${entry}`);
		await host.waitFor(
			() => host.stdout.slice(sinceUndo).includes(`Undone ${entry}: restored Notes/Alpha.md`) || undefined,
			"the undo's answer",
			10_000,
		);
		expect(readFileSync(path.join(vault, ALPHA)).equals(before)).toBe(true);
	});

	it("HTTP (mcp-config http): the same reads, and an edit accepted through diff accept", async () => {
		const session = await startVaultToolsSession("http", {
			turns: [
				...readTurns("obsidian"),
				toolUseTurn("mcp__obsidian__edit_note", {
					path: "Alpha",
					edits: [{ target: "Alpha > Tasks", op: "append", content: "- over http" }],
				}),
				textTurn("Done over HTTP."),
			],
		});
		const { host, cli } = session;
		await cli.prompt("Look around and add a task");
		await host.waitForOutput(/(Review pending: .* for Notes\/Alpha\.md)/, 60_000);
		host.send("diff accept");
		await cli.waitFor("Done over HTTP.", { timeoutMs: 60_000 });
		const calls = toolCalls(session.mock);
		expectReadAnswers(calls, "obsidian");
		expect(calls[4]).toMatchObject({
			name: "mcp__obsidian__edit_note",
			isError: false,
			result: expect.stringMatching(/^Applied 1 edit to Notes\/Alpha\.md/) as unknown,
		});
		expect(session.read(ALPHA)).toBe("# Alpha\n\nAlpha links to [[Beta]].\n\n## Tasks\n\n- one\n- over http\n");
		// HTTP is served by the host itself, not relayed.
		expect(relayedCalls(host)).toBe(0);
	});

	it("stdio with no bridge running: search is answered from the folder (private note still hidden), a write is refused", async () => {
		const session = await startVaultToolsSession("stdio", {
			stopBridgeFirst: true,
			turns: [
				toolUseTurn("mcp__obsidian__search", { query: "Alpha" }),
				toolUseTurn("mcp__obsidian__search", { query: "secret plan" }),
				toolUseTurn("mcp__obsidian__create_note", { path: "Notes/New.md", content: "# New\n" }),
				textTurn("Checked without Obsidian."),
			],
		});
		await session.cli.prompt("Search my vault");
		await session.cli.waitFor("Checked without Obsidian.", { timeoutMs: 60_000 });
		const [search, privateSearch, create] = toolCalls(session.mock);
		expect(search).toMatchObject({
			isError: false,
			result: expect.stringMatching(/^Notes\/Alpha\.md:1: # Alpha/m) as unknown,
		});
		expect(privateSearch?.result).toMatch(/^No matches/);
		expect(create).toMatchObject({
			isError: true,
			result: expect.stringMatching(/^create_note: Obsidian is not running for the vault "My vault"/) as unknown,
		});
		expect(() => session.read("Notes/New.md")).toThrow();
	});

	it("without --allowedTools the CLI asks before an MCP call in the default mode; answering Yes lets it run", async () => {
		const session = await startVaultToolsSession("stdio", {
			askPermission: true,
			turns: [toolUseTurn("mcp__obsidian__search", { query: "Alpha" }), textTurn("Asked first.")],
		});
		const { cli, host } = session;
		const since = cli.mark();
		await cli.prompt("Search my vault");
		await cli.waitFor(/obsidian — Search[\s\S]*Do you want to proceed\?[\s\S]*1\. Yes/, {
			since,
			timeoutMs: 60_000,
		});
		expect(relayedCalls(host)).toBe(0);
		// The question ignores a key pressed the instant it appears (as the /ide one does).
		await pause(500);
		cli.submit();
		await cli.waitFor("Asked first.", { timeoutMs: 60_000 });
		expect(toolCalls(session.mock)[0]).toMatchObject({
			name: "mcp__obsidian__search",
			isError: false,
			result: expect.stringMatching(/^Notes\/Alpha\.md:1: # Alpha/m) as unknown,
		});
	});

	it("claude mcp list: the configuration mcp-config prints (the settings tab's) is connected, fails while the bridge is off, and connects again after a restart", async () => {
		const temp = makeTempDir("vault-tools-e2e-restart");
		const vault = path.join(temp.path, "My vault");
		mkdirSync(vault);
		writeFileSync(path.join(vault, "note.md"), "# Note\n");
		const home = makeClaudeHome([vault]);
		const hosts: HeadlessProcess[] = [];
		sessions.onCleanup(() => {
			hosts.forEach((host) => host.kill());
			home.remove();
			temp.remove();
		});
		const start = async (): Promise<Host> => {
			const host = await HeadlessProcess.start({ vault, home: home.path });
			hosts.push(host);
			return host;
		};
		// `claude mcp` as a user runs it in the vault: the helper runs only in a folder whose trust was accepted.
		const claude = async (...args: string[]): Promise<string> => {
			const { stdout } = await promisify(execFile)(claudeBinaryPath(), ["mcp", ...args], {
				cwd: vault,
				env: { PATH: process.env.PATH ?? "", HOME: home.path, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" },
				timeout: 60_000,
			});
			return stdout;
		};
		/** The one server of an `mcp-config` line, under the name it gives it. */
		const serverEntry = (line: string): [string, string] => {
			const [entry] = Object.entries((JSON.parse(line) as { mcpServers: Record<string, unknown> }).mcpServers);
			if (!entry) throw new Error(`no server in ${line}`);
			return [entry[0], JSON.stringify(entry[1])];
		};
		const states = (list: string): Record<string, string> =>
			Object.fromEntries(
				[...list.matchAll(/^(obsidian(?:-http)?): .* - (✔ Connected|✘ Failed to connect)/gm)].map((match) => [
					match[1] ?? "",
					match[2] ?? "",
				]),
			);

		const first = await start();
		await claude("add-json", "--scope", "local", ...serverEntry(await mcpConfig(first, "http")));
		expect(states(await claude("list"))).toEqual({ obsidian: "✔ Connected" });

		await first.quit();
		// With the bridge off the helper has no file to print.
		expect(states(await claude("list"))).toEqual({ obsidian: "✘ Failed to connect" });

		await start();
		expect(states(await claude("list"))).toEqual({ obsidian: "✔ Connected" });
	});
});
