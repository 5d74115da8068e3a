/**
 * A scripted Claude Code for the panel's pictures: the plugin starts it as it starts the user's `claude` (found
 * through the "Claude Code executable" setting, checked with `--version`), and it speaks stream-json as CLI 2.1.330
 * does (tests/e2e/README.md, "Stream-json mode"): it answers `initialize` with its commands and models, streams each
 * reply as text deltas, calls the panel's PreToolUse hook before every tool and waits for its answer, runs the tool
 * in the vault as the CLI would (reads the note, applies the edit the review allowed), and ends each turn with a
 * `result`. The words are fixed, so every run shows the same conversation.
 *
 * The program on disk is a relay (stdin and stdout to a local socket); the conversation plays here, in the process
 * that renders the pictures.
 */
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { isAbsolute, join } from "node:path";
import { createInterface } from "node:readline";

type JsonRecord = Record<string, unknown>;

/** The version the relay answers to `claude --version`: the one the panel is tested with. */
export const SCRIPTED_VERSION = "2.1.330";
const MODEL = "claude-sonnet-4-5";
const SESSION_ID = "5f3c2a1e-8b7d-4c6a-9e0f-1a2b3c4d5e6f";

/** A tool use in a scripted message: its input as Claude sends it (paths relative to the vault are made absolute). */
export interface ScriptedTool {
	name: "Read" | "Edit" | "Bash";
	input: JsonRecord;
	/** What a shell command prints (Bash only). */
	output?: string;
}

/** One message of Claude's: its text, streamed word by word, then at most one tool use. */
export interface ScriptedMessage {
	text: string;
	tool?: ScriptedTool;
}

/** One turn: Claude's messages in order, and what the `result` reports. */
export interface ScriptedTurn {
	messages: ScriptedMessage[];
	usage: { inputTokens: number; outputTokens: number; costUsd: number; durationMs: number };
}

export interface ScriptedClaude {
	/** The program to give as "Claude Code executable". */
	path: string;
	/** Stops listening and ends every conversation still open. */
	close(): Promise<void>;
}

/**
 * Writes the relay program into `folder` (named `claude`) and starts the conversation server it connects to; each
 * session plays `turns` from the first, one per message the user sends.
 */
export async function startScriptedClaude(folder: string, turns: readonly ScriptedTurn[]): Promise<ScriptedClaude> {
	const sockets = new Set<Socket>();
	const server = createServer((socket) => {
		sockets.add(socket);
		socket.on("close", () => sockets.delete(socket));
		new Conversation(socket, turns).start();
	});
	const port = await listen(server);
	const path = join(folder, "claude");
	writeFileSync(path, relay(port));
	chmodSync(path, 0o755);
	return {
		path,
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}

function listen(server: Server): Promise<number> {
	return new Promise((resolve, reject) => {
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const address = server.address();
			if (address === null || typeof address === "string") reject(new Error("no port"));
			else resolve(address.port);
		});
	});
}

/** The program the plugin runs: answers `--version` itself, and relays the session to the conversation server. */
function relay(port: number): string {
	return `#!${process.execPath}
if (process.argv.includes("--version")) {
	process.stdout.write(${JSON.stringify(`${SCRIPTED_VERSION} (Claude Code)\n`)});
	process.exit(0);
}
const socket = require("node:net").connect(${port}, "127.0.0.1");
socket.write(JSON.stringify({ type: "relay", cwd: process.cwd() }) + "\\n");
process.stdin.pipe(socket);
socket.pipe(process.stdout);
socket.on("close", () => process.exit(0));
socket.on("error", () => process.exit(1));
`;
}

/** One session's side of the protocol, played over one connection. */
class Conversation {
	private readonly pending = new Map<string, (response: JsonRecord) => void>();
	private hookCallbackId = "";
	private turn = 0;
	private message = 0;
	private request = 0;
	/** The working folder the plugin started the CLI in (the vault), as the relay reports it first. */
	private cwd = "";

	constructor(
		private readonly socket: Socket,
		private readonly turns: readonly ScriptedTurn[],
	) {}

	start(): void {
		const lines = createInterface({ input: this.socket });
		lines.on("line", (line) => {
			if (line.trim() !== "") void this.receive(JSON.parse(line) as JsonRecord);
		});
		this.socket.on("error", () => undefined);
	}

	private async receive(record: JsonRecord): Promise<void> {
		const request = record["request"] as JsonRecord | undefined;
		switch (record["type"]) {
			case "control_request":
				return this.control(String(record["request_id"]), request ?? {});
			case "control_response": {
				const response = record["response"] as JsonRecord;
				this.pending.get(String(response["request_id"]))?.(response);
				this.pending.delete(String(response["request_id"]));
				return;
			}
			case "user":
				return this.play(this.turns[this.turn++]);
			case "relay":
				this.cwd = String(record["cwd"]);
				return;
		}
	}

	private control(requestId: string, request: JsonRecord): void {
		let answer: JsonRecord = {};
		if (request["subtype"] === "initialize") {
			const hooks = request["hooks"] as { PreToolUse?: { hookCallbackIds?: string[] }[] } | undefined;
			this.hookCallbackId = hooks?.PreToolUse?.[0]?.hookCallbackIds?.[0] ?? "";
			answer = INITIALIZE_ANSWER;
		}
		this.send({
			type: "control_response",
			response: { subtype: "success", request_id: requestId, response: answer },
		});
	}

	private async play(turn: ScriptedTurn | undefined): Promise<void> {
		this.send({
			type: "system",
			subtype: "init",
			session_id: SESSION_ID,
			model: MODEL,
			cwd: this.cwd,
			slash_commands: INITIALIZE_ANSWER.commands.map((command) => command.name),
			claude_code_version: SCRIPTED_VERSION,
			permissionMode: "default",
		});
		if (turn === undefined) return this.result("There is nothing more in this script.", undefined);
		let last = "";
		for (const message of turn.messages) {
			last = message.text;
			const stopped = await this.say(message);
			if (stopped) return;
		}
		this.result(last, turn.usage);
	}

	/** Streams one message's text, then runs its tool through the panel's hook; true when the connection is gone. */
	private async say(scripted: ScriptedMessage): Promise<boolean> {
		const id = `msg_scripted_${++this.message}`;
		for (const word of scripted.text.match(/\S+\s*|\s+/g) ?? []) {
			this.send({
				type: "stream_event",
				event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: word } },
				api_message_id: id,
				session_id: SESSION_ID,
				parent_tool_use_id: null,
			});
		}
		this.send({
			type: "stream_event",
			event: { type: "content_block_stop", index: 0 },
			api_message_id: id,
			session_id: SESSION_ID,
			parent_tool_use_id: null,
		});
		const tool = scripted.tool;
		const toolUseId = `toolu_scripted_${this.message}`;
		const input = tool === undefined ? {} : this.absolute(tool.input);
		this.send({
			type: "assistant",
			message: {
				id,
				role: "assistant",
				model: MODEL,
				content: [
					{ type: "text", text: scripted.text },
					...(tool === undefined ? [] : [{ type: "tool_use", id: toolUseId, name: tool.name, input }]),
				],
			},
			parent_tool_use_id: null,
			session_id: SESSION_ID,
		});
		if (tool === undefined) return false;
		const answer = await this.ask({
			subtype: "hook_callback",
			callback_id: this.hookCallbackId,
			input: {
				hook_event_name: "PreToolUse",
				session_id: SESSION_ID,
				cwd: this.cwd,
				tool_name: tool.name,
				tool_input: input,
				tool_use_id: toolUseId,
			},
			tool_use_id: toolUseId,
		});
		if (answer === undefined) return true;
		const decision = ((answer["response"] as JsonRecord | undefined)?.["hookSpecificOutput"] ?? {}) as JsonRecord;
		const allowed = decision["permissionDecision"] === "allow";
		const result = allowed
			? this.run(tool, (decision["updatedInput"] as JsonRecord | undefined) ?? input)
			: `PreToolUse:${tool.name} hook error: ${text(decision["permissionDecisionReason"]) || text(answer["error"])}`;
		this.send({
			type: "user",
			message: {
				role: "user",
				content: [{ type: "tool_result", tool_use_id: toolUseId, content: result, is_error: !allowed }],
			},
			parent_tool_use_id: null,
			session_id: SESSION_ID,
		});
		return false;
	}

	/** What the CLI's own tool does with the input the hook allowed. */
	private run(tool: ScriptedTool, input: JsonRecord): string {
		const file = text(input["file_path"]);
		switch (tool.name) {
			case "Read":
				return readFileSync(file, "utf8")
					.split("\n")
					.map((line, index) => `${String(index + 1).padStart(6)}→${line}`)
					.join("\n");
			case "Edit": {
				const note = readFileSync(file, "utf8");
				writeFileSync(file, note.replace(text(input["old_string"]), text(input["new_string"])));
				return `The file ${file} has been updated.`;
			}
			case "Bash":
				return tool.output ?? "";
		}
	}

	private result(text: string, usage: ScriptedTurn["usage"] | undefined): void {
		this.send({
			type: "result",
			subtype: "success",
			is_error: false,
			result: text,
			session_id: SESSION_ID,
			num_turns: 1,
			...(usage && {
				duration_ms: usage.durationMs,
				total_cost_usd: usage.costUsd,
				usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens },
			}),
		});
	}

	/** A control request to the panel; undefined if the connection ends first. */
	private ask(request: JsonRecord): Promise<JsonRecord | undefined> {
		const requestId = `scripted_${++this.request}`;
		return new Promise((resolve) => {
			this.pending.set(requestId, resolve);
			this.socket.once("close", () => resolve(undefined));
			this.send({ type: "control_request", request_id: requestId, request });
		});
	}

	/** Paths in the input as Claude gives them to the CLI: absolute. */
	private absolute(input: JsonRecord): JsonRecord {
		const path = input["file_path"];
		return typeof path === "string" && !isAbsolute(path) ? { ...input, file_path: join(this.cwd, path) } : input;
	}

	private send(record: JsonRecord): void {
		if (!this.socket.destroyed) this.socket.write(`${JSON.stringify(record)}\n`);
	}
}

function text(value: unknown): string {
	return typeof value === "string" ? value : "";
}

/** The commands and models 2.1.330 lists in its answer to `initialize` (a few of them). */
const INITIALIZE_ANSWER = {
	commands: [
		{ name: "compact", description: "Clear the conversation but keep a summary in context" },
		{ name: "context", description: "Show what fills the context window" },
		{ name: "review", description: "Review a pull request" },
	],
	models: [
		{ value: "default", displayName: "Default (recommended)", description: "Sonnet 4.5" },
		{ value: "opus", displayName: "Opus", description: "Opus 4.1 for complex tasks" },
		{ value: "haiku", displayName: "Haiku", description: "Haiku 4.5 for quick answers" },
	],
	claude_code_version: SCRIPTED_VERSION,
	current_permission_mode: "default",
};
