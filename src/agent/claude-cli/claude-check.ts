import type { CliMachine } from "./cli-machine";
import { describeLaunch, launchCommand } from "./launch-command";
import { CLAUDE_VERSION_RANGE, judgeClaudeVersion, parseClaudeVersion } from "./claude-version";
import { locateClaude, type ClaudeLocation, type LocateOptions } from "./locate-claude";

/** The name of the setting that gives Claude Code's path, as messages quote it. */
export const CLAUDE_PATH_SETTING = "Claude Code executable";
export const VERSION_TIMEOUT_MS = 15_000;

type Found = Extract<ClaudeLocation, { kind: "found" }>;

/** What the panel may do with the CLI, one line saying why, and one saying how to fix it when something is wrong. */
export type ClaudeCheck =
	| { status: "ok"; location: Found; version: string; message: string }
	/** A line newer than the tested one: the panel warns and still runs it. */
	| { status: "untested-newer"; location: Found; version: string; message: string; fix: string }
	| { status: "too-old"; location: Found; version: string; message: string; fix: string }
	| { status: "not-found"; message: string; fix: string }
	| { status: "not-runnable"; path: string; message: string; fix: string };

export interface CheckOptions extends LocateOptions {
	versionTimeoutMs?: number;
}

function installCommand(platform: string): string {
	return platform === "win32"
		? "`irm https://claude.ai/install.ps1 | iex` in PowerShell"
		: "`curl -fsSL https://claude.ai/install.sh | bash`";
}

function installFix(platform: string): string {
	const wsl =
		platform === "win32"
			? " A Claude Code installed only inside WSL cannot be started from Obsidian for Windows; install the Windows build too."
			: "";
	return `Install it with ${installCommand(platform)} (or \`npm install -g @anthropic-ai/claude-code\`), or give its full path in the "${CLAUDE_PATH_SETTING}" setting.${wsl}`;
}

/** Finds the user's Claude Code and asks it for its version (see `CLAUDE_VERSION_RANGE`). */
export async function checkClaude(options: CheckOptions): Promise<ClaudeCheck> {
	const { machine } = options;
	const location = await locateClaude(options);
	switch (location.kind) {
		case "not-found":
			return {
				status: "not-found",
				message: "Claude Code was not found on this computer.",
				fix: installFix(machine.platform),
			};
		case "setting-unusable":
			return {
				status: "not-runnable",
				path: location.path,
				message: `The "${CLAUDE_PATH_SETTING}" setting, ${location.path}, ${location.problem}.`,
				fix: `Correct the setting (\`which claude\` in a terminal prints the path; \`where claude\` on Windows), or clear it to search the usual places.`,
			};
		case "inside-vault":
			return {
				status: "not-runnable",
				path: location.path,
				message:
					location.source === "setting"
						? `The "${CLAUDE_PATH_SETTING}" setting, ${location.path}, is inside this vault${leadsTo(location)}. The panel never runs a program from the vault: anyone who can change the vault's files could have put it there.`
						: `The only Claude Code found, ${location.path}, is inside this vault${leadsTo(location)}. The panel never runs a program from the vault: anyone who can change the vault's files could have put it there.`,
				fix:
					location.source === "setting"
						? `Give the path of a Claude Code installed outside the vault (\`which claude\` in a terminal prints it), or clear the setting to search the usual places.`
						: `${installFix(machine.platform)} Take the vault's folders out of your PATH.`,
			};
		case "unrunnable":
			return {
				status: "not-runnable",
				path: location.path,
				message: `Claude Code at ${location.path} cannot be started: ${location.problem}.`,
				fix: installFix(machine.platform),
			};
		case "found":
			return probeVersion(machine, location, options.versionTimeoutMs ?? VERSION_TIMEOUT_MS);
	}
}

async function probeVersion(machine: CliMachine, location: Found, timeoutMs: number): Promise<ClaudeCheck> {
	const where = describeLaunch(location.launch);
	const notRunnable = (problem: string): ClaudeCheck => ({
		status: "not-runnable",
		path: location.path,
		message: `Claude Code at ${where} ${problem}.`,
		fix: `Run \`claude --version\` in a terminal to see why; reinstall with ${installCommand(machine.platform)}, or give another path in the "${CLAUDE_PATH_SETTING}" setting.`,
	});
	const command = launchCommand(location.launch, ["--version"]);
	if ("refused" in command) return notRunnable(`cannot be started safely: ${command.refused}`);
	const outcome = await machine.run(command.command, command.args, {
		timeoutMs,
		verbatimArguments: command.verbatimArguments,
	});
	if (outcome.startError !== undefined) return notRunnable(`could not be started (${outcome.startError})`);
	if (outcome.timedOut) return notRunnable(`did not answer \`--version\` within ${Math.round(timeoutMs / 1000)} s`);
	if (outcome.exitCode !== 0)
		return notRunnable(
			`exited with code ${String(outcome.exitCode)} on \`--version\`${firstLine(outcome.stderr, ": ")}`,
		);
	const version = parseClaudeVersion(outcome.stdout);
	if (!version)
		return notRunnable(
			`answered \`--version\` with "${firstLine(outcome.stdout, "") || "nothing"}", which is not a version`,
		);

	const name = `Claude Code ${version.text}`;
	switch (judgeClaudeVersion(version)) {
		case "supported":
			return { status: "ok", location, version: version.text, message: `${name} at ${location.path}.` };
		case "too-old":
			return {
				status: "too-old",
				location,
				version: version.text,
				message: `${name} at ${location.path} is too old for the panel (it needs ${CLAUDE_VERSION_RANGE.minimum} or newer).`,
				fix: "Update it with `claude update` (or `npm install -g @anthropic-ai/claude-code@latest` if npm installed it).",
			};
		case "untested-newer":
			return {
				status: "untested-newer",
				location,
				version: version.text,
				message: `${name} at ${location.path} is newer than the versions this plugin was tested with (${CLAUDE_VERSION_RANGE.testedLine}.x); the panel runs it, but something may not work.`,
				fix:
					"If the panel misbehaves, update this plugin, or install a tested version: `npm install -g @anthropic-ai/claude-code@" +
					CLAUDE_VERSION_RANGE.testedLine +
					"`.",
			};
	}
}

function leadsTo(location: { path: string; realPath: string }): string {
	return location.realPath === location.path ? "" : ` (it leads to ${location.realPath})`;
}

function firstLine(text: string, prefix: string): string {
	const line =
		text
			.split(/\r?\n/)
			.find((candidate) => candidate.trim() !== "")
			?.trim() ?? "";
	return line === "" ? "" : `${prefix}${line.slice(0, 200)}`;
}
