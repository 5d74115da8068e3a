import { statSync } from "node:fs";
import { basename, resolve } from "node:path";
import { BridgeHost, type BridgeStatus } from "../bridge/bridge-host";
import { launchCommand } from "../bridge/launch-command";
import { SERVER_INFO, ideNameFor } from "../bridge/server-info";
import { ToolRegistry } from "../protocol/tool-registry";
import { userHomeDirectory } from "../server/lock-file";
import { ArgumentError, USAGE, parseArguments } from "./arguments";
import { helpText, runCommandLoop, type HeadlessCommand } from "./command-loop";

const DEFAULT_VAULT = "examples/vault";

function fail(message: string): never {
	process.stderr.write(`${message}\n`);
	process.exit(2);
}

function statusLine(status: BridgeStatus): string {
	return JSON.stringify({
		state: status.state,
		port: status.port ?? null,
		lockFile: status.lockFilePath ?? null,
		clients: status.clients.map((client) => ({
			id: client.id,
			pid: client.pid ?? null,
			client: client.clientName ?? null,
			since: client.connectedAt.toISOString(),
		})),
	});
}

async function main(): Promise<void> {
	let args;
	try {
		args = parseArguments(process.argv.slice(2));
	} catch (error) {
		fail(`${error instanceof ArgumentError ? error.message : String(error)}\n\n${USAGE}`);
	}
	if (args.help) {
		process.stdout.write(`${USAGE}\n`);
		return;
	}
	const vaultPath = resolve(args.vault ?? DEFAULT_VAULT);
	try {
		if (!statSync(vaultPath).isDirectory()) fail(`Not a folder: ${vaultPath}`);
	} catch {
		fail(`Vault folder not found: ${vaultPath}`);
	}

	const debug = args.debug;
	const host = new BridgeHost({
		vaultPath,
		ideName: ideNameFor(basename(vaultPath), "headless"),
		homeDir: userHomeDirectory(),
		pid: process.pid,
		serverInfo: SERVER_INFO,
		tools: new ToolRegistry(),
		port: args.port,
		log: (message) => {
			if (debug) process.stderr.write(`[bridge] ${message}\n`);
		},
		trace: args.trace ? (event) => process.stderr.write(`${JSON.stringify({ trace: event })}\n`) : undefined,
	});

	let stopping = false;
	const stop = async (): Promise<void> => {
		if (stopping) return;
		stopping = true;
		await host.stop();
		process.stdout.write("Stopped; lock file removed.\n");
		process.exit(0);
	};
	process.on("SIGINT", () => void stop());
	process.on("SIGTERM", () => void stop());
	process.on("exit", () => host.removeLockFileNow());

	const status = await host.start();
	if (status.state !== "listening") fail(`Could not start: ${status.error ?? "unknown error"}`);
	if (status.warning) process.stderr.write(`Warning: ${status.warning}\n`);
	process.stdout.write(
		[
			`Claude Code Bridge (headless) serving ${vaultPath}`,
			`Listening on ws://127.0.0.1:${status.port}`,
			`Lock file: ${status.lockFilePath}`,
			`Connect: ${launchCommand(vaultPath)}`,
			'Type "help" for commands, "quit" or Ctrl+C to stop.',
			"",
		].join("\n"),
	);

	const commands = new Map<string, HeadlessCommand>();
	commands.set("status", { usage: "status", summary: "one line of JSON: port, lock file, clients", run: () => statusLine(host.status()) });
	commands.set("quit", { usage: "quit", summary: "stop the bridge and remove its lock file", run: () => void stop() });
	commands.set("help", { usage: "help", summary: "list the commands", run: () => helpText(commands) });
	runCommandLoop(
		process.stdin,
		commands,
		(line) => process.stdout.write(`${line}\n`),
		(line) => process.stderr.write(`${line}\n`),
	);
}

void main();
