import type { CliMachine } from "./cli-machine";
import type { ClaudeLaunch } from "./claude-launch";
import { claudeFileNames, envValue, knownInstallFolders, pathFolders, pathsOf } from "./claude-install-places";
import { readLoginShellPath } from "./login-shell-path";
import { readCmdShimTarget } from "./windows-cmd-shim";

/** Where the CLI was found: the explicit setting, the app's PATH, the login shell's PATH, or a known install folder. */
export type ClaudeSource = "setting" | "path" | "login-shell-path" | "install-folder";

export type ClaudeLocation =
	| {
			kind: "found";
			path: string;
			source: ClaudeSource;
			launch: ClaudeLaunch;
			/** The login shell's PATH when it was read: give it to Claude's process, whose Bash tool needs it too. */
			loginShellPath?: readonly string[];
	  }
	/** The explicit path setting names something that cannot be run; the setting wins, so nothing else is tried. */
	| { kind: "setting-unusable"; path: string; problem: string }
	/** A `claude` was found but cannot be started (a shim whose program or Node is missing). */
	| { kind: "unrunnable"; path: string; problem: string }
	| { kind: "not-found"; searched: readonly string[] };

export interface LocateOptions {
	machine: CliMachine;
	/** The explicit path setting; blank means search. A leading `~` is the home folder. */
	explicitPath?: string;
	/** Reads the login shell's PATH (default: `readLoginShellPath`); called at most once, only if needed. */
	readShellPath?: (machine: CliMachine) => Promise<string[] | undefined>;
}

type Resolved = { launch: ClaudeLaunch } | { problem: string };

/**
 * Finds the user's Claude Code: the explicit path setting if there is one (checked: it exists and can be run);
 * otherwise the first `claude` on the app's PATH, then on the PATH the user's login shell sets up (read only when
 * the app's PATH has none), then in the folders installers use.
 */
export async function locateClaude(options: LocateOptions): Promise<ClaudeLocation> {
	const { machine } = options;
	const explicit = options.explicitPath?.trim() ?? "";
	if (explicit !== "") return locateExplicit(machine, expandHome(machine, explicit));

	const tried = new Set<string>();
	let unrunnable: ClaudeLocation | undefined;
	const searchFolders = async (folders: readonly string[], source: ClaudeSource, loginShellPath?: readonly string[]): Promise<ClaudeLocation | undefined> => {
		for (const folder of folders) {
			if (tried.has(folder)) continue;
			tried.add(folder);
			for (const name of claudeFileNames(machine.platform)) {
				const path = pathsOf(machine.platform).join(folder, name);
				if ((await machine.inspect(path)) !== "executable") continue;
				const resolved = await resolveLaunch(machine, path);
				if ("launch" in resolved) return { kind: "found", path, source, launch: resolved.launch, ...(loginShellPath ? { loginShellPath } : {}) };
				unrunnable ??= { kind: "unrunnable", path, problem: resolved.problem };
			}
		}
		return undefined;
	};

	const onAppPath = await searchFolders(pathFolders(machine, envValue(machine, "PATH")), "path");
	if (onAppPath) return onAppPath;
	const shellPath = await (options.readShellPath ?? readLoginShellPath)(machine);
	const onShellPath = shellPath ? await searchFolders(shellPath, "login-shell-path", shellPath) : undefined;
	if (onShellPath) return onShellPath;
	const inInstallFolder = await searchFolders(await knownInstallFolders(machine), "install-folder", shellPath);
	return inInstallFolder ?? unrunnable ?? { kind: "not-found", searched: [...tried] };
}

async function locateExplicit(machine: CliMachine, path: string): Promise<ClaudeLocation> {
	if (!pathsOf(machine.platform).isAbsolute(path)) return { kind: "setting-unusable", path, problem: "is not an absolute path" };
	switch (await machine.inspect(path)) {
		case "missing":
			return { kind: "setting-unusable", path, problem: "does not exist" };
		case "directory":
			return { kind: "setting-unusable", path, problem: "is a folder, not the claude program" };
		case "not-executable":
			return { kind: "setting-unusable", path, problem: "is not executable" };
		case "executable": {
			const resolved = await resolveLaunch(machine, path);
			return "launch" in resolved ? { kind: "found", path, source: "setting", launch: resolved.launch } : { kind: "setting-unusable", path, problem: resolved.problem };
		}
	}
}

function expandHome(machine: CliMachine, path: string): string {
	if (path === "~") return machine.homeDir;
	return /^~[\\/]/.test(path) ? pathsOf(machine.platform).join(machine.homeDir, path.slice(2)) : path;
}

/** How to start the file found: itself, or on Windows what its `.cmd` shim starts (see claude-launch.ts). */
async function resolveLaunch(machine: CliMachine, path: string): Promise<Resolved> {
	const paths = pathsOf(machine.platform);
	const extension = paths.extname(path).toLowerCase();
	if (machine.platform !== "win32" || (extension !== ".cmd" && extension !== ".bat")) return { launch: { kind: "direct", command: path, args: [] } };

	const text = await machine.readText(path);
	const target = text === undefined ? undefined : readCmdShimTarget(text, path);
	if (target === undefined) return { launch: { kind: "cmd-shim", comSpec: envValue(machine, "ComSpec") ?? "C:\\Windows\\System32\\cmd.exe", shim: path } };
	if (target.kind === "executable") {
		return (await machine.inspect(target.path)) === "executable"
			? { launch: { kind: "direct", command: target.path, args: [] } }
			: { problem: `${path} starts ${target.path}, which is missing (reinstall Claude Code)` };
	}
	if ((await machine.inspect(target.script)) === "missing") return { problem: `${path} runs ${target.script}, which is missing (reinstall Claude Code)` };
	const node = await findNode(machine, paths.dirname(path));
	return node === undefined
		? { problem: `${path} needs Node.js, which is not on the PATH (install Node.js, or the native claude.exe)` }
		: { launch: { kind: "direct", command: node, args: [target.script] } };
}

/** The `node.exe` an npm shim would use: the one beside the shim, else the first on PATH. */
async function findNode(machine: CliMachine, shimFolder: string): Promise<string | undefined> {
	const folders = [shimFolder, ...pathFolders(machine, envValue(machine, "PATH"))];
	for (const folder of folders) {
		const candidate = pathsOf(machine.platform).join(folder, "node.exe");
		if ((await machine.inspect(candidate)) === "executable") return candidate;
	}
	return undefined;
}
