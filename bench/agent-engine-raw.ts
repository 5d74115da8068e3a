/**
 * The smallest stream-json driver of the Claude Code CLI: one long-lived `claude -p` process, user messages as
 * JSON lines on stdin, events as JSON lines on stdout. The baseline of `bench/agent-engine.ts`, bundled on its
 * own to measure what this route costs the plugin (the engine in src/agent/ adds the control protocol on top).
 */
import { spawn } from "node:child_process";

export interface StreamJsonListener {
	onTextDelta(text: string): void;
	onResult(result: Record<string, unknown>): void;
	onExit(code: number | null, stderr: string): void;
}

export interface StreamJsonSession {
	send(text: string): void;
	close(): Promise<void>;
}

const CLI_ARGUMENTS = [
	"-p",
	"--input-format",
	"stream-json",
	"--output-format",
	"stream-json",
	"--verbose",
	"--include-partial-messages",
];

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function textDelta(message: Record<string, unknown>): string | undefined {
	const event = message["event"];
	if (message["type"] !== "stream_event" || !isRecord(event) || event["type"] !== "content_block_delta")
		return undefined;
	const delta = event["delta"];
	return isRecord(delta) && delta["type"] === "text_delta" && typeof delta["text"] === "string"
		? delta["text"]
		: undefined;
}

export function startStreamJsonSession(
	cli: string,
	cwd: string,
	env: NodeJS.ProcessEnv,
	listener: StreamJsonListener,
): StreamJsonSession {
	const child = spawn(cli, CLI_ARGUMENTS, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
	let pending = "";
	let stderr = "";
	const handleLine = (line: string): void => {
		if (line.trim() === "") return;
		let message: unknown;
		try {
			message = JSON.parse(line);
		} catch {
			return;
		}
		if (!isRecord(message)) return;
		const text = textDelta(message);
		if (text !== undefined) listener.onTextDelta(text);
		else if (message["type"] === "result") listener.onResult(message);
	};
	child.stdout.setEncoding("utf8");
	child.stdout.on("data", (chunk: string) => {
		pending += chunk;
		for (let end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n")) {
			handleLine(pending.slice(0, end));
			pending = pending.slice(end + 1);
		}
	});
	child.stderr.setEncoding("utf8");
	child.stderr.on("data", (chunk: string) => {
		stderr = (stderr + chunk).slice(-4000);
	});
	const exited = new Promise<void>((resolve) =>
		child.on("exit", (code) => (listener.onExit(code, stderr), resolve())),
	);
	return {
		send: (text) => {
			const message = {
				type: "user",
				message: { role: "user", content: [{ type: "text", text }] },
				parent_tool_use_id: null,
				session_id: "",
			};
			child.stdin.write(`${JSON.stringify(message)}\n`);
		},
		close: async () => {
			child.stdin.end();
			const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
			await exited;
			clearTimeout(timer);
		},
	};
}
