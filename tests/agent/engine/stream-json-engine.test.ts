import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentEvent, ToolGate } from "../../../src/agent/agent-session";
import { StreamJsonEngine } from "../../../src/agent/engine/stream-json-engine";
import { projectSlug } from "../../../src/agent/engine/cli-session-files";
import { makeTempDir } from "../../helpers/temp-dir";
import { pollUntil } from "../../helpers/wait-until";

const denyAll: ToolGate = { decide: () => Promise.resolve({ behavior: "deny", message: "no" }) };

// A stand-in `claude`: records its folder and arguments, says init, and exits when its input closes.
const FAKE_CLI = `#!${process.execPath}
require("node:fs").writeFileSync(process.env.FAKE_CLI_RECORD, JSON.stringify({ cwd: process.cwd(), args: process.argv.slice(2) }));
process.stdout.write(JSON.stringify({ type: "system", subtype: "init", session_id: "fake-session", model: "fake-model" }) + "\\n");
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
`;

describe("StreamJsonEngine", () => {
	const root = makeTempDir("agent-engine");
	const vault = join(root.path, "vault");
	const home = join(root.path, "home");
	const cli = join(root.path, "fake-claude");
	const record = join(root.path, "record.json");
	mkdirSync(vault);
	mkdirSync(home);
	writeFileSync(cli, FAKE_CLI);
	chmodSync(cli, 0o755);
	const env = { ...process.env, HOME: home, FAKE_CLI_RECORD: record, CLAUDE_CONFIG_DIR: undefined };
	afterAll(() => root.remove());

	it("starts the CLI in the vault root with the session's arguments and the in-process servers", async () => {
		const engine = new StreamJsonEngine({
			vaultRoot: vault,
			cliPath: () => cli,
			gate: denyAll,
			env,
			mcp: { names: () => ["obsidian"], handle: () => Promise.resolve(undefined) },
		});
		const session = engine.start({ permissionMode: "acceptEdits", resume: "abc" });
		const events: AgentEvent[] = [];
		session.onEvent((event) => events.push(event));
		await pollUntil(() => events.find((event) => event.kind === "ready"), "ready from the fake CLI");
		expect(session.sessionId).toBe("fake-session");
		const started = JSON.parse(readFileSync(record, "utf8")) as { cwd: string; args: string[] };
		expect(started.cwd).toBe(vault);
		expect(started.args).toEqual(
			expect.arrayContaining(["--permission-mode", "acceptEdits", "--resume", "abc", "--mcp-config"]),
		);
		await session.close();
		expect(events.at(-1)).toEqual({ kind: "closed" });
	});

	it("reports a missing CLI as failed, naming the setting", async () => {
		const engine = new StreamJsonEngine({
			vaultRoot: vault,
			cliPath: () => join(root.path, "no-claude-here"),
			gate: denyAll,
			env,
		});
		const session = engine.start({ permissionMode: "default" });
		const events: AgentEvent[] = [];
		session.onEvent((event) => events.push(event));
		const failed = await pollUntil(() => events.find((event) => event.kind === "failed"), "failed");
		expect(failed).toEqual({
			kind: "failed",
			message: expect.stringContaining('set "Claude Code executable"') as unknown,
		});
		const empty = new StreamJsonEngine({ vaultRoot: vault, cliPath: () => "", gate: denyAll, env }).start({
			permissionMode: "default",
		});
		const emptyEvents: AgentEvent[] = [];
		empty.onEvent((event) => emptyEvents.push(event));
		await empty.close();
		expect(emptyEvents[0]).toEqual({
			kind: "failed",
			message:
				'No Claude Code CLI is set. Install Claude Code, or set "Claude Code executable" in this plugin\'s settings.',
		});
	});

	it("lists and replays the vault's past sessions from the transcripts under HOME", async () => {
		const engine = new StreamJsonEngine({ vaultRoot: vault, cliPath: () => cli, gate: denyAll, env });
		await expect(engine.pastSessions()).resolves.toEqual([]);
		const folder = join(home, ".claude", "projects", projectSlug(vault));
		mkdirSync(folder, { recursive: true });
		writeFileSync(
			join(folder, "s-1.jsonl"),
			`${JSON.stringify({ type: "user", message: { role: "user", content: "Outline chapter 2" }, uuid: "u" })}\n`,
		);
		await expect(engine.pastSessions()).resolves.toEqual([
			{ sessionId: "s-1", firstLine: "Outline chapter 2", updatedAt: expect.any(String) as unknown },
		]);
		await expect(engine.history("s-1")).resolves.toEqual([
			{ kind: "user-message", message: { text: "Outline chapter 2", attachments: [] }, id: "u" },
		]);
		// The conversation's first message follows nothing; a message the session does not hold is refused.
		await expect(engine.messageBefore("s-1", "u")).resolves.toBeUndefined();
		await expect(engine.messageBefore("s-1", "v")).rejects.toThrow(/not in Claude Code's record of session s-1/);
	});
});
