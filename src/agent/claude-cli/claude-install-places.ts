import { posix, win32 } from "node:path";
import type { CliMachine } from "./cli-machine";

/** The path functions of the machine's platform (tests fake Windows on Linux and the reverse). */
export function pathsOf(platform: string): typeof posix {
	return platform === "win32" ? win32 : posix;
}

/** An environment variable, looked up case-insensitively on Windows (`Path`, `PATH`, `LocalAppData`). */
export function envValue(machine: CliMachine, name: string): string | undefined {
	if (machine.platform !== "win32") return machine.env[name] || undefined;
	const key = Object.keys(machine.env).find((candidate) => candidate.toUpperCase() === name.toUpperCase());
	return key === undefined ? undefined : machine.env[key] || undefined;
}

/** The folders of a PATH value, in order, without empty entries or repeats. */
export function pathFolders(machine: CliMachine, pathValue: string | undefined): string[] {
	if (!pathValue) return [];
	const separator = machine.platform === "win32" ? ";" : ":";
	const folders = pathValue.split(separator).map((folder) => folder.trim().replace(/^"(.*)"$/, "$1"));
	return [...new Set(folders.filter((folder) => pathsOf(machine.platform).isAbsolute(folder)))];
}

/**
 * The file names Claude Code has in a folder, best first. On Windows the native `claude.exe` comes before npm's
 * `claude.cmd` shim (the order of PATHEXT); npm's extensionless `claude` there is a shell script for Git Bash
 * that Windows cannot start, so it is never a candidate.
 */
export function claudeFileNames(platform: string): string[] {
	return platform === "win32" ? ["claude.exe", "claude.cmd"] : ["claude"];
}

/** Node versions installed by nvm, newest first (`v22.3.0` before `v20.11.1` before `v9.0.0`). */
function newestFirst(versions: string[]): string[] {
	const parts = (version: string): number[] =>
		version
			.replace(/^v/, "")
			.split(".")
			.map((part) => Number.parseInt(part, 10) || 0);
	return [...versions].sort((a, b) => {
		const [left, right] = [parts(a), parts(b)];
		for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
			const difference = (right[index] ?? 0) - (left[index] ?? 0);
			if (difference !== 0) return difference;
		}
		return 0;
	});
}

/**
 * Folders where installers put Claude Code (or npm, nvm, volta, bun put the `claude` command) although the app's
 * PATH may not include them, in the order they are tried.
 */
export async function knownInstallFolders(machine: CliMachine): Promise<string[]> {
	const paths = pathsOf(machine.platform);
	const join = (...parts: string[]): string => paths.join(...parts);
	const home = machine.homeDir;
	if (machine.platform === "win32") {
		const profile = envValue(machine, "USERPROFILE") ?? home;
		const localAppData = envValue(machine, "LOCALAPPDATA") ?? join(profile, "AppData", "Local");
		const appData = envValue(machine, "APPDATA") ?? join(profile, "AppData", "Roaming");
		return [
			// The native installer (install.ps1 / install.cmd).
			join(profile, ".local", "bin"),
			// winget's links for portable packages (`winget install Anthropic.ClaudeCode`).
			join(localAppData, "Microsoft", "WinGet", "Links"),
			// npm's global prefix (claude.cmd), volta, bun.
			join(appData, "npm"),
			join(localAppData, "Volta", "bin"),
			join(profile, ".bun", "bin"),
			// `claude migrate-installer`'s local install.
			join(profile, ".claude", "local"),
		];
	}
	const nvmRoot = envValue(machine, "NVM_DIR") ?? join(home, ".nvm");
	const nvmVersions = join(nvmRoot, "versions", "node");
	const nvmFolders = newestFirst(await machine.listFolder(nvmVersions)).map((version) =>
		join(nvmVersions, version, "bin"),
	);
	const activeNvm = envValue(machine, "NVM_BIN");
	const npmPrefix = envValue(machine, "NPM_CONFIG_PREFIX");
	return [
		...new Set([
			// The native installer, and `claude migrate-installer`'s local install.
			join(home, ".local", "bin"),
			join(home, ".claude", "local"),
			// npm global prefixes: a user prefix, then the system ones of Linux, Intel and Apple silicon Homebrew.
			...(npmPrefix === undefined ? [] : [join(npmPrefix, "bin")]),
			join(home, ".npm-global", "bin"),
			"/usr/local/bin",
			"/opt/homebrew/bin",
			// Version managers: the active nvm node first, then every installed one; volta; bun.
			...(activeNvm === undefined ? [] : [activeNvm]),
			...nvmFolders,
			join(home, ".volta", "bin"),
			join(home, ".bun", "bin"),
			"/usr/bin",
		]),
	];
}
