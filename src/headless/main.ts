import { statSync } from "node:fs";
import { basename, resolve } from "node:path";
import { launchCommand } from "../ide/launch-command";
import { ideNameFor } from "../ide/server-info";
import { userHomeDirectory } from "../server/lock-file";
import { describeError, errorStack } from "../shared/describe-error";
import { USAGE, parseArguments, type HeadlessArguments } from "./arguments";
import { ArgumentError } from "../shared/command-line";
import { helpText, runCommandLoop, type HeadlessCommand } from "./command-loop";
import { claudePermissionsCommand, headlessPermissionRules } from "./claude-permissions-command";
import { contextCommands } from "./context-commands";
import { doctorCommand } from "./doctor-command";
import { assembleHeadlessBridge } from "./headless-bridge";
import { EXIT_BAD_INPUT, EXIT_FAILED, exitWith } from "./exit";
import { HeadlessMcp } from "./headless-mcp";
import { tokenFromEnvironment } from "./mcp-token-file";
import { lockFolders, otherBridgesForVault } from "./other-hosts";
import { defaultVaultToolsPort } from "../vault-tools/serve/vault-tools-port";
import { PluginSettings } from "../vault/privacy/plugin-settings";
import type { FolderNoteStore } from "../vault/folder/folder-note-store";
import type { PrivacyRules } from "../vault/privacy/privacy";
import { deviceJournalSeal, folderHostJournalStore } from "../assembly/journal-wiring";

function fail(message: string): never {
	return exitWith(EXIT_BAD_INPUT, message);
}

function readArguments(): HeadlessArguments {
	try {
		return parseArguments(process.argv.slice(2));
	} catch (error) {
		fail(error instanceof ArgumentError ? `${error.message} (--help lists the options)` : describeError(error));
	}
}

/** `CLAUDE_CODE_BRIDGE_MCP_TOKEN`, checked before anything starts. */
function readEnvironmentToken(): string | undefined {
	try {
		return tokenFromEnvironment(process.env);
	} catch (error) {
		fail(describeError(error));
	}
}

async function main(): Promise<void> {
	const args = readArguments();
	// Without --help, parseArguments has made sure there is a vault.
	if (args.help || args.vault === undefined) {
		process.stdout.write(`${USAGE}\n`);
		return;
	}
	const fixedToken = readEnvironmentToken();
	const vaultPath = resolve(args.vault);
	try {
		if (!statSync(vaultPath).isDirectory()) fail(`Not a folder: ${vaultPath}`);
	} catch {
		fail(`Vault folder not found: ${vaultPath}`);
	}

	// The plugin's privacy settings in the vault (and Obsidian's excluded files) always apply; the flags add to them.
	let vaultStore: FolderNoteStore | undefined;
	const privacySettings = new PluginSettings({
		vaultRoot: vaultPath,
		extra: { folders: args.privateFolders, tags: args.privateTags },
		log: (message) => process.stderr.write(`[privacy] ${message}\n`),
		// The folder's watcher, once the vault below is assembled and listed, tells when a config folder may have appeared.
		topLevelVersion: () => vaultStore?.topLevelVersion,
	});
	const privacyRules = (): PrivacyRules => privacySettings.rules();
	// The pid tells two hosts on one vault apart in /ide.
	const ideName = ideNameFor(basename(vaultPath), `headless, pid ${process.pid}`);
	// The activity journal: the plugin's, when it is installed in the vault, else in the user's data folder; never among the notes.
	const journalStore = folderHostJournalStore(vaultPath, process.env, userHomeDirectory(), (message) =>
		process.stderr.write(`Warning: ${message}\n`),
	);
	// Said once the host is listening: a start that fails says only why it failed.
	const journalWarnings: string[] = [];
	const journalSeal = journalStore
		? deviceJournalSeal(vaultPath, process.env, userHomeDirectory(), (message) => journalWarnings.push(message))
		: undefined;
	const headless = assembleHeadlessBridge({
		vaultPath,
		ideName,
		homeDir: userHomeDirectory(),
		port: args.port,
		privacyRules,
		log: (message) => {
			if (args.debug) process.stderr.write(`[bridge] ${message}\n`);
		},
		trace: args.trace ? (event) => process.stderr.write(`${JSON.stringify({ trace: event })}\n`) : undefined,
		...(journalStore ? { journalStore } : {}),
		...(journalSeal ? { journalSeal } : {}),
		ideTools: {
			print: (line) => process.stdout.write(`${line}\n`),
			diagnosticsLog: (message) => process.stderr.write(`[diagnostics] ${message}\n`),
		},
	});
	vaultStore = headless.vault.store;
	const { bridge, editor } = headless;
	const { host } = bridge;
	const mcp = bridge.vaultTools
		? new HeadlessMcp({
				vaultPath,
				server: bridge.vaultTools,
				port: args.mcpPort ?? defaultVaultToolsPort(vaultPath),
				homeDir: userHomeDirectory(),
				privateFolders: args.privateFolders,
				privateTags: args.privateTags,
				scriptPath: process.argv[1] ?? "",
				nodePath: process.execPath,
				...(fixedToken !== undefined ? { fixedToken } : {}),
				log: (message) => process.stderr.write(`[mcp] ${message}\n`),
				...(args.debug ? { debug: (message: string) => process.stderr.write(`[mcp] ${message}\n`) } : {}),
			})
		: undefined;

	let stopping = false;
	const stop = async (): Promise<void> => {
		if (stopping) return;
		stopping = true;
		headless.dispose();
		await Promise.all([host.stop(), mcp?.stop()]);
		// After the servers stopped: the calls they ended are in the journal too.
		await bridge.activity?.journal.close();
		process.stdout.write("Stopped; lock file removed.\n");
		process.exit(0);
	};
	process.on("SIGINT", () => void stop());
	process.on("SIGTERM", () => void stop());
	process.on("exit", () => {
		host.removeLockFileNow();
		mcp?.endpoint.withdrawNow();
	});

	for (const other of await otherBridgesForVault(
		vaultPath,
		lockFolders(userHomeDirectory(), process.env.CLAUDE_CONFIG_DIR),
	)) {
		process.stderr.write(
			`Warning: this vault is already served by "${other.ideName}" (pid ${other.pid}, port ${other.port}). /ide will list both; this one is "${ideName}". Stop the other (kill ${other.pid}) unless you want two.\n`,
		);
	}
	const status = await host.start();
	if (status.state !== "listening") fail(`Could not start: ${status.error ?? "unknown error"}`);
	if (status.warning) process.stderr.write(`Warning: ${status.warning}\n`);
	for (const warning of journalWarnings) process.stderr.write(`Warning: ${warning}\n`);
	await mcp?.start();
	process.stdout.write(
		[
			`Claude Code Bridge (headless) serving ${vaultPath}`,
			`Listening on ws://127.0.0.1:${status.port}`,
			`Lock file: ${status.lockFilePath}`,
			`Activity journal: ${journalStore?.folder ?? "none"}`,
			`Connect: ${launchCommand(vaultPath)}`,
			...(mcp ? [mcp.statusLine(), mcp.addInstructions()] : []),
			'Type "help" for commands, "quit" or Ctrl+C to stop.',
			"",
		].join("\n"),
	);

	const commands = new Map<string, HeadlessCommand>(contextCommands(bridge, editor));
	for (const [name, command] of headless.commands) commands.set(name, command);
	for (const [name, command] of mcp?.commands() ?? []) commands.set(name, command);
	commands.set("claude-permissions", claudePermissionsCommand(vaultPath, privacyRules));
	commands.set(
		"doctor",
		doctorCommand(
			async () => ({
				vaultPath,
				status: host.status(),
				pid: process.pid,
				ideName,
				homeDir: userHomeDirectory(),
				permissionRules: await headlessPermissionRules(vaultPath, privacyRules()),
			}),
			async () => (await mcp?.doctorFindings()) ?? [],
		),
	);
	commands.set("quit", {
		usage: "quit",
		summary: "stop the bridge and remove its lock file",
		run: () => void stop(),
	});
	commands.set("help", { usage: "help", summary: "list the commands", run: () => helpText(commands) });
	runCommandLoop(
		process.stdin,
		commands,
		(line) => process.stdout.write(`${line}\n`),
		(line) => process.stderr.write(`${line}\n`),
	);
}

/** Whatever else goes wrong while starting is one line too; `--debug` adds the stack for a bug report. */
main().catch((error: unknown) => {
	if (process.argv.includes("--debug")) process.stderr.write(`${errorStack(error)}\n`);
	exitWith(EXIT_FAILED, `Claude Code Bridge stopped on an unexpected error: ${describeError(error)}`);
});
