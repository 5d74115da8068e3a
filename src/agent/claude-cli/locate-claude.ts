import type { CliMachine } from "./cli-machine";
import type { ClaudeLaunch } from "./launch-command";
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
	/** The setting names, or the search found only, a program that lies in the vault (by where its links lead): never run. */
	| { kind: "inside-vault"; path: string; realPath: string; source: ClaudeSource }
	| { kind: "not-found"; searched: readonly string[] };

export interface LocateOptions {
	machine: CliMachine;
	/** The explicit path setting; blank means search. A leading `~` is the home folder. */
	explicitPath?: string;
	/**
	 * The vault's folder: a program whose real path lies in it (or that starts one there) is refused before anything
	 * runs it, even `--version`, since anyone who can write to the vault (a shared or synced folder) could have put it there.
	 */
	vaultRoot?: string;
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
	const insideVault = vaultFence(machine, options.vaultRoot);
	if (explicit !== "") return locateExplicit(machine, expandHome(machine, explicit), insideVault);

	const tried = new Set<string>();
	let unrunnable: ClaudeLocation | undefined;
	let refused: ClaudeLocation | undefined;
	const searchFolders = async (
		folders: readonly string[],
		source: ClaudeSource,
		loginShellPath?: readonly string[],
	): Promise<ClaudeLocation | undefined> => {
		for (const folder of folders) {
			if (tried.has(folder)) continue;
			tried.add(folder);
			for (const name of claudeFileNames(machine.platform)) {
				const path = pathsOf(machine.platform).join(folder, name);
				if ((await machine.inspect(path)) !== "executable") continue;
				const inside = await insideVault([path]);
				if (inside !== undefined) {
					refused ??= { kind: "inside-vault", path, realPath: inside, source };
					continue;
				}
				const resolved = await resolveLaunch(machine, path);
				const launchedInside =
					"launch" in resolved ? await insideVault(launchPaths(resolved.launch)) : undefined;
				if (launchedInside !== undefined) {
					refused ??= { kind: "inside-vault", path, realPath: launchedInside, source };
					continue;
				}
				if ("launch" in resolved)
					return {
						kind: "found",
						path,
						source,
						launch: resolved.launch,
						...(loginShellPath ? { loginShellPath } : {}),
					};
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
	return inInstallFolder ?? unrunnable ?? refused ?? { kind: "not-found", searched: [...tried] };
}

/** The first of `paths` whose real path lies in the vault, as that real path; undefined when none does. */
type VaultFence = (paths: readonly string[]) => Promise<string | undefined>;

function vaultFence(machine: CliMachine, vaultRoot: string | undefined): VaultFence {
	if (vaultRoot === undefined || vaultRoot.trim() === "") return () => Promise.resolve(undefined);
	const paths = pathsOf(machine.platform);
	const comparable = (path: string): string =>
		machine.platform === "win32" ? paths.normalize(path).toLowerCase() : paths.normalize(path);
	let root: Promise<string> | undefined;
	return async (candidates) => {
		root ??= machine.realPath(vaultRoot).then((real) => comparable(real ?? vaultRoot));
		const vault = await root;
		for (const candidate of candidates) {
			const real = (await machine.realPath(candidate)) ?? candidate;
			const between = paths.relative(vault, comparable(real));
			if (
				between === "" ||
				(between !== ".." && !between.startsWith(`..${paths.sep}`) && !paths.isAbsolute(between))
			)
				return real;
		}
		return undefined;
	};
}

/** Every file a launch starts or hands to the program it starts (a shim's `claude.exe`, `node` and the CLI's script). */
function launchPaths(launch: ClaudeLaunch): string[] {
	return launch.kind === "direct" ? [launch.command, ...launch.args] : [launch.shim];
}

async function locateExplicit(machine: CliMachine, path: string, insideVault: VaultFence): Promise<ClaudeLocation> {
	if (!pathsOf(machine.platform).isAbsolute(path))
		return { kind: "setting-unusable", path, problem: "is not an absolute path" };
	const inside = await insideVault([path]);
	if (inside !== undefined) return { kind: "inside-vault", path, realPath: inside, source: "setting" };
	switch (await machine.inspect(path)) {
		case "missing":
			return { kind: "setting-unusable", path, problem: "does not exist" };
		case "directory":
			return { kind: "setting-unusable", path, problem: "is a folder, not the claude program" };
		case "not-executable":
			return { kind: "setting-unusable", path, problem: "is not executable" };
		case "executable": {
			const resolved = await resolveLaunch(machine, path);
			if (!("launch" in resolved)) return { kind: "setting-unusable", path, problem: resolved.problem };
			const launchedInside = await insideVault(launchPaths(resolved.launch));
			return launchedInside === undefined
				? { kind: "found", path, source: "setting", launch: resolved.launch }
				: { kind: "inside-vault", path, realPath: launchedInside, source: "setting" };
		}
	}
}

function expandHome(machine: CliMachine, path: string): string {
	if (path === "~") return machine.homeDir;
	return /^~[\\/]/.test(path) ? pathsOf(machine.platform).join(machine.homeDir, path.slice(2)) : path;
}

/** How to start the file found: itself, or on Windows what its `.cmd` shim starts (see launch-command.ts). */
async function resolveLaunch(machine: CliMachine, path: string): Promise<Resolved> {
	const paths = pathsOf(machine.platform);
	const extension = paths.extname(path).toLowerCase();
	if (machine.platform !== "win32" || (extension !== ".cmd" && extension !== ".bat"))
		return { launch: { kind: "direct", command: path, args: [] } };

	const text = await machine.readText(path);
	const target = text === undefined ? undefined : readCmdShimTarget(text, path);
	if (target === undefined)
		return {
			launch: {
				kind: "cmd-shim",
				comSpec: envValue(machine, "ComSpec") ?? "C:\\Windows\\System32\\cmd.exe",
				shim: path,
			},
		};
	if (target.kind === "executable") {
		return (await machine.inspect(target.path)) === "executable"
			? { launch: { kind: "direct", command: target.path, args: [] } }
			: { problem: `${path} starts ${target.path}, which is missing (reinstall Claude Code)` };
	}
	if ((await machine.inspect(target.script)) === "missing")
		return { problem: `${path} runs ${target.script}, which is missing (reinstall Claude Code)` };
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
