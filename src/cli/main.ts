import { statSync } from "node:fs";
import { resolve } from "node:path";
import { setFlagsFromString } from "node:v8";
import { userHomeDirectory } from "../server/lock-file";
import { describeError } from "../shared/describe-error";
import { startStdioVaultServer } from "../assembly/stdio-vault-server";
import { MCP_USAGE, McpArgumentError, parseMcpArguments } from "./mcp-arguments";
import { RELAY_CALL_METHOD, RELAY_CLIENT_NAME, RELAY_REQUEST_METHOD, SERVER_INFO } from "./relay-protocol";

const USAGE = `Usage: claude-code-bridge <command> [options]

Commands:
  serve [--vault DIR] [...]   the headless bridge for a folder (what \`npm start\` runs); \`serve --help\` for options
  mcp --vault DIR [...]       Claude's vault tools as an MCP server on stdio; \`mcp --help\` for options`;

function fail(message: string): never {
	process.stderr.write(`${message}\n`);
	process.exit(2);
}

function runMcp(argv: readonly string[]): void {
	let args;
	try {
		args = parseMcpArguments(argv);
	} catch (error) {
		fail(`${error instanceof McpArgumentError ? error.message : describeError(error)}\n\n${MCP_USAGE}`);
	}
	if (args.help) {
		// Help goes to stderr too: stdout is the protocol channel.
		process.stderr.write(`${MCP_USAGE}\n`);
		return;
	}
	const vaultPath = resolve(args.vault ?? "");
	let isFolder = false;
	try {
		isFolder = statSync(vaultPath).isDirectory();
	} catch {
		fail(`claude-code-bridge mcp: vault folder not found: ${vaultPath}`);
	}
	if (!isFolder) fail(`claude-code-bridge mcp: not a folder: ${vaultPath}`);
	const log = (message: string): void => void process.stderr.write(`[vault-tools] ${message}\n`);
	// Reading a vault makes much short-lived garbage (texts, YAML trees). By default V8 grows its young generation to
	// its largest size and lets the old one reach up to four times what is live before collecting: the process then
	// keeps that memory. A small young generation and 1.3 times the live heap cut the peak (on 10k notes about 25 MB;
	// on 100k about 120 MB) at no cost in speed measured (bench/vault-tools-stdio.ts).
	setFlagsFromString("--semi-space-growth-factor=1");
	setFlagsFromString("--heap-growing-percent=30");
	const server = startStdioVaultServer({
		vaultPath,
		input: process.stdin,
		output: process.stdout,
		serverInfo: SERVER_INFO,
		relay: { callMethod: RELAY_CALL_METHOD, requestMethod: RELAY_REQUEST_METHOD, clientName: RELAY_CLIENT_NAME },
		homeDir: userHomeDirectory(),
		claudeConfigDir: process.env.CLAUDE_CONFIG_DIR,
		privacy: { folders: args.privateFolders, tags: args.privateTags },
		log,
		trace: args.debug ? (event) => log(JSON.stringify(event)) : undefined,
	});
	log(`Serving the vault tools for ${vaultPath} on stdio`);
	const stop = (): void => {
		server.dispose();
		process.exit(0);
	};
	process.on("SIGINT", stop);
	process.on("SIGTERM", stop);
	// Exit once the last answer has reached the pipe (writes to a pipe are asynchronous on macOS).
	void server.closed.then(() => process.stdout.write("", () => process.exit(0)));
}

async function main(): Promise<void> {
	const [command, ...rest] = process.argv.slice(2);
	switch (command) {
		case "serve":
			// The headless host reads its options from process.argv when its module loads.
			process.argv.splice(2, 1);
			await import("../headless/main");
			return;
		case "mcp":
			runMcp(rest);
			return;
		case undefined:
		case "help":
		case "--help":
		case "-h":
			process.stdout.write(`${USAGE}\n`);
			return;
		default:
			fail(`Unknown command: ${command}\n\n${USAGE}`);
	}
}

void main();
