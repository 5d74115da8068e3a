import { spawn } from "node:child_process";
import { request } from "node:http";
import { describeError } from "../shared/describe-error";
import type { VaultToolsHttpStatus } from "../vault-tools/serve/http-endpoint";
import {
	HttpTokenRecordError,
	readHeadersFileToken,
	readHttpTokenRecord,
	realPath,
} from "../vault-tools/serve/http-token-record";

/** One finding about the vault tools, in the doctor's terms (the headless host turns it into a doctor line). */
export interface EndpointFinding {
	level: "ok" | "warn" | "fail";
	what: string;
	fix?: string;
}

/** How long a check waits for an answer; generous, as the machine may be busy. */
const CHECK_TIMEOUT_MS = 15_000;

export interface HttpCheckInputs {
	status: VaultToolsHttpStatus;
	homeDir: string;
	/** The vault: its headers file is what Claude Code's helper prints (without it, the record `mcp-headers` reads). */
	vaultPath?: string;
	/** `CLAUDE_CODE_BRIDGE_MCP_TOKEN` when the endpoint uses it (the record then holds no token). */
	fixedToken?: string;
	/** Why the endpoint is off, in one clause (default: its status's error). */
	offCause?: string;
	/** What to do while the endpoint is off (the host names its option, the plugin its setting). */
	offFix: string;
}

/**
 * The HTTP endpoint as Claude Code reaches it: the token record `claude-code-bridge mcp-headers` reads, then a `ping`
 * POSTed with that token. Never throws.
 */
export async function checkHttpEndpoint(inputs: HttpCheckInputs): Promise<EndpointFinding> {
	const { status } = inputs;
	if (status.state !== "listening" || status.url === undefined) {
		return {
			level: "warn",
			what: `The vault tools' HTTP endpoint is off: ${inputs.offCause ?? withoutFinalStop(status.error ?? status.state)}`,
			fix: inputs.offFix,
		};
	}
	let token: string | undefined;
	try {
		token =
			inputs.vaultPath !== undefined && inputs.fixedToken === undefined
				? readHeadersFileToken(inputs.homeDir, status.port, realPath(inputs.vaultPath))
				: (readHttpTokenRecord(inputs.homeDir, status.port).token ?? inputs.fixedToken);
	} catch (error) {
		const why = error instanceof HttpTokenRecordError ? error.message : describeError(error);
		return {
			level: "fail",
			what: `Claude Code cannot fetch the token of ${status.url}: ${why}`,
			fix: "Restart the bridge; it writes the token record again when it starts.",
		};
	}
	if (token === undefined) return { level: "fail", what: `No token for ${status.url}`, fix: "Restart the bridge." };
	const answer = await postPing(status.url, token);
	if (answer === 200)
		return {
			level: "ok",
			what: `The vault tools answer on ${status.url} and accept the key Claude Code fetches when it connects`,
		};
	if (typeof answer === "number") {
		return {
			level: "fail",
			what: `${status.url} answered HTTP ${answer} to a ping with the current token`,
			fix: "Restart the bridge; if it persists, another program may hold the port.",
		};
	}
	return {
		level: "fail",
		what: `Nothing answers on ${status.url} (${answer.reason})`,
		fix: "Restart the bridge. A firewall that blocks loopback connections has the same effect.",
	};
}

/**
 * The stdio server as Claude Code starts it: runs `command args…`, sends `initialize` and waits for the answer.
 * Never throws.
 */
export async function checkStdioCommand(
	command: string,
	args: readonly string[],
	shown: string,
): Promise<EndpointFinding> {
	const outcome = await initializeOverStdio(command, args);
	if (outcome.kind === "answered") return { level: "ok", what: `The vault tools' stdio command answers: ${shown}` };
	return {
		level: "fail",
		what: `The vault tools' stdio command does not answer (${outcome.reason}): ${shown}`,
		fix: 'Run "npm run build" in the package\'s folder, then check the command by hand with --help.',
	};
}

function withoutFinalStop(text: string): string {
	return text.replace(/\.\s*$/, "");
}

function postPing(url: string, token: string): Promise<number | { reason: string }> {
	return new Promise((resolve) => {
		const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
		const req = request(
			url,
			{
				method: "POST",
				timeout: CHECK_TIMEOUT_MS,
				headers: {
					Authorization: `Bearer ${token}`,
					"Content-Type": "application/json",
					Accept: "application/json, text/event-stream",
				},
			},
			(res) => {
				res.resume();
				resolve(res.statusCode ?? 0);
			},
		);
		req.on("timeout", () => req.destroy(new Error(`no answer within ${CHECK_TIMEOUT_MS / 1000} s`)));
		req.on("error", (error) => resolve({ reason: describeError(error) }));
		req.end(body);
	});
}

type StdioOutcome = { kind: "answered" } | { kind: "failed"; reason: string };

function initializeOverStdio(command: string, args: readonly string[]): Promise<StdioOutcome> {
	return new Promise((resolve) => {
		let settled = false;
		let stdout = "";
		let stderr = "";
		const child = spawn(command, [...args], { stdio: ["pipe", "pipe", "pipe"] });
		const finish = (outcome: StdioOutcome): void => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			child.kill();
			resolve(outcome);
		};
		const timer = setTimeout(
			() => finish({ kind: "failed", reason: `no answer to initialize within ${CHECK_TIMEOUT_MS / 1000} s` }),
			CHECK_TIMEOUT_MS,
		);
		child.on("error", (error) => finish({ kind: "failed", reason: describeError(error) }));
		child.on("exit", (code) =>
			finish({ kind: "failed", reason: `it exited with code ${String(code)}${firstLine(stderr)}` }),
		);
		child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
		child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
			stdout += chunk;
			if (stdout.split("\n").some(isInitializeAnswer)) finish({ kind: "answered" });
		});
		child.stdin.on("error", () => undefined);
		const initialize = {
			jsonrpc: "2.0",
			id: 1,
			method: "initialize",
			params: {
				protocolVersion: "2025-06-18",
				capabilities: {},
				clientInfo: { name: "claude-code-bridge doctor", version: "1" },
			},
		};
		child.stdin.write(`${JSON.stringify(initialize)}\n`);
	});
}

function isInitializeAnswer(line: string): boolean {
	try {
		const message = JSON.parse(line) as { id?: unknown; result?: { serverInfo?: unknown } };
		return message.id === 1 && typeof message.result?.serverInfo === "object";
	} catch {
		return false;
	}
}

function firstLine(text: string): string {
	const line = text.trim().split("\n")[0];
	return line ? `: ${line}` : "";
}
