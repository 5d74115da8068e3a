import { statSync } from "node:fs";
import { resolve } from "node:path";
import { setTimeout } from "node:timers";
import { EXIT_BAD_INPUT, EXIT_FAILED, exitWith } from "../headless/exit";
import { McpTokenEnvironmentError } from "../headless/mcp-token-file";
import { userHomeDirectory } from "../server/lock-file";
import { describeError, errorStack } from "../shared/describe-error";
import { deviceJournalSeal, folderHostJournalStore } from "../assembly/journal-wiring";
import { savedIndexFileFor, startStdioVaultServer } from "../assembly/stdio-vault-server";
import { MCP_USAGE, parseMcpArguments } from "./mcp-arguments";
import { ArgumentError } from "../shared/command-line";
import { setHeapFlags } from "../shared/v8-heap-flags";
import { MCP_HEADERS_USAGE, NoTokenError, mcpHeadersLine, parseMcpHeadersArguments } from "./mcp-headers";
import {
	RELAY_CALL_METHOD,
	RELAY_CLIENT_NAME,
	RELAY_PRIVACY_METHOD,
	RELAY_REQUEST_METHOD,
	SERVER_INFO,
} from "./relay-protocol";

/** How long a stopped stdio server may take to write what its journal holds before it exits anyway. */
const STOP_GRACE_MS = 1_000;

/** package.json's version, set by the build (esbuild.config.mjs). */
declare const PACKAGE_VERSION: string;

const USAGE = `Usage: claude-code-bridge <command> [options]

Commands:
  serve --vault DIR [...]     the headless bridge for a folder: /ide and the vault tools without the Obsidian app
  mcp --vault DIR [...]       Claude's vault tools as an MCP server on stdio (what \`claude mcp add\` runs)
  mcp-headers --vault DIR --port N
                              the current token of the vault tools' HTTP endpoint, for Claude Code's headersHelper

  <command> --help            the options of one command
  --version                   the version of this package

A bad command, option or environment value: one line on stderr, exit code 2.`;

/** A command's options, or its one line of what is wrong (with where the options are listed) and exit 2. */
function parsedOrFail<T>(command: string, parse: () => T): T {
	try {
		return parse();
	} catch (error) {
		return fail(
			error instanceof ArgumentError
				? `${error.message} (claude-code-bridge ${command} --help lists the options)`
				: describeError(error),
		);
	}
}

function fail(message: string): never {
	return exitWith(EXIT_BAD_INPUT, message);
}

/** A vault folder that exists, else one line and exit 2. */
function vaultFolder(command: string, vault: string): string {
	const vaultPath = resolve(vault);
	let isFolder = false;
	try {
		isFolder = statSync(vaultPath).isDirectory();
	} catch {
		fail(`claude-code-bridge ${command}: vault folder not found: ${vaultPath}`);
	}
	if (!isFolder) fail(`claude-code-bridge ${command}: not a folder: ${vaultPath}`);
	return vaultPath;
}

function runMcp(argv: readonly string[]): void {
	const args = parsedOrFail("mcp", () => parseMcpArguments(argv));
	if (args.help) {
		// Help goes to stderr too: stdout is the protocol channel.
		process.stderr.write(`${MCP_USAGE}\n`);
		return;
	}
	const vaultPath = vaultFolder("mcp", args.vault ?? "");
	const log = (message: string): void => void process.stderr.write(`[vault-tools] ${message}\n`);
	// Reading a vault makes much short-lived garbage (texts, YAML trees). By default V8 grows its young generation to
	// its largest size and lets the old one reach up to four times what is live before collecting: the process then
	// keeps that memory. A small young generation and 1.3 times the live heap cut the peak (on 10k notes about 25 MB;
	// on 100k about 120 MB) at no cost in speed measured (bench/vault-tools-stdio.ts). A worker thread's start resets
	// the first (src/shared/v8-heap-flags.ts): the threads made here set them again.
	setHeapFlags("--semi-space-growth-factor=1", "--heap-growing-percent=30");
	const server = startStdioVaultServer({
		vaultPath,
		input: process.stdin,
		output: process.stdout,
		serverInfo: SERVER_INFO,
		relay: {
			callMethod: RELAY_CALL_METHOD,
			requestMethod: RELAY_REQUEST_METHOD,
			privacyMethod: RELAY_PRIVACY_METHOD,
			clientName: RELAY_CLIENT_NAME,
		},
		homeDir: userHomeDirectory(),
		claudeConfigDir: process.env.CLAUDE_CONFIG_DIR,
		privacy: { folders: args.privateFolders, tags: args.privateTags },
		log,
		trace: args.debug ? (event) => log(JSON.stringify(event)) : undefined,
		journalStore: folderHostJournalStore(vaultPath, process.env, userHomeDirectory(), log),
		journalSeal: deviceJournalSeal(vaultPath, process.env, userHomeDirectory(), log),
		savedIndexFile: savedIndexFileFor(vaultPath, process.env, userHomeDirectory()),
	});
	log(`Serving the vault tools for ${vaultPath} on stdio`);
	// The journal writes what it holds first (the exit below follows `closed`); a second at most.
	const stop = (): void => {
		server.dispose();
		setTimeout(() => process.exit(0), STOP_GRACE_MS);
	};
	process.on("SIGINT", stop);
	process.on("SIGTERM", stop);
	// Exit once the last answer has reached the pipe (writes to a pipe are asynchronous on macOS).
	void server.closed.then(() => process.stdout.write("", () => process.exit(0)));
}

/** Prints the headers on stdout, the only thing there; anything else is one line on stderr. */
function runMcpHeaders(argv: readonly string[]): void {
	const args = parsedOrFail("mcp-headers", () => parseMcpHeadersArguments(argv));
	if (args.help) {
		process.stderr.write(`${MCP_HEADERS_USAGE}\n`);
		return;
	}
	const vaultPath = vaultFolder("mcp-headers", args.vault ?? "");
	try {
		process.stdout.write(`${mcpHeadersLine(vaultPath, args.port ?? 0, userHomeDirectory(), process.env)}\n`);
	} catch (error) {
		if (error instanceof McpTokenEnvironmentError) fail(error.message);
		if (error instanceof NoTokenError) exitWith(EXIT_FAILED, error.message);
		throw error;
	}
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
		case "mcp-headers":
			runMcpHeaders(rest);
			return;
		case "--version":
		case "-v":
		case "version":
			process.stdout.write(`${PACKAGE_VERSION}\n`);
			return;
		case undefined:
		case "help":
		case "--help":
		case "-h":
			process.stdout.write(`${USAGE}\n`);
			return;
		default:
			fail(`Unknown command: ${command} (claude-code-bridge --help lists the commands)`);
	}
}

/** Whatever else goes wrong while starting is one line too; `--debug` adds the stack for a bug report. */
main().catch((error: unknown) => {
	if (process.argv.includes("--debug")) process.stderr.write(`${errorStack(error)}\n`);
	exitWith(EXIT_FAILED, `claude-code-bridge stopped on an unexpected error: ${describeError(error)}`);
});
