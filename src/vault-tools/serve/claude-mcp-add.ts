import type { HttpServerEntry } from "./headers-helper";

/**
 * The names Claude Code knows the vault tools by: the recommended stdio server as `obsidian` (tools reach the model as
 * `mcp__obsidian__<tool>`), the HTTP endpoint as `obsidian-http`, so that adding both never fails with "already exists".
 */
export const STDIO_SERVER_NAME = "obsidian";
export const HTTP_SERVER_NAME = "obsidian-http";

/**
 * `claude mcp add --scope local`: kept in the user's own Claude Code configuration for the folder the command runs
 * in (the vault), never in a file inside the vault that sync would copy to devices where the paths differ.
 */
export const ADD_SCOPE = "local";

/** The permission rule that lets every tool of a server run without asking: `--allowedTools "mcp__obsidian"`. */
export function allowedToolsRule(serverName: string): string {
	return `mcp__${serverName}`;
}

/** One shell word for the platform's usual shell: PowerShell on Windows (single quotes), a POSIX shell elsewhere. */
export function shellWord(word: string, platform: NodeJS.Platform): string {
	if (platform === "win32") return `'${word.replace(/'/g, "''")}'`;
	return `"${word.replace(/["\\$`]/g, (c) => `\\${c}`)}"`;
}

/** `cd "<vault>" && <command>`: the scope is local to the folder Claude Code runs in, so the line goes there first. */
export function inVaultFolder(vaultPath: string, command: string, platform: NodeJS.Platform): string {
	return platform === "win32"
		? `cd ${shellWord(vaultPath, platform)}; ${command}`
		: `cd ${shellWord(vaultPath, platform)} && ${command}`;
}

/** `claude mcp add --scope local obsidian -- <program…> mcp --vault <vault> [privacy options]`, run in the vault folder. */
export function stdioAddLine(
	program: readonly string[],
	serverArgs: readonly string[],
	vaultPath: string,
	platform: NodeJS.Platform,
): string {
	const words = [...program, ...serverArgs].map((word) =>
		/^[\w./:=@-]+$/.test(word) ? word : shellWord(word, platform),
	);
	return inVaultFolder(
		vaultPath,
		`claude mcp add --scope ${ADD_SCOPE} ${STDIO_SERVER_NAME} -- ${words.join(" ")}`,
		platform,
	);
}

/**
 * `claude mcp add-json --scope local obsidian-http '<entry>'` (`claude mcp add` has no option for a headers helper),
 * run in the vault folder. On Windows the JSON goes through stdin: PowerShell mangles quotes inside native arguments.
 */
export function httpAddLine(entry: HttpServerEntry, vaultPath: string, platform: NodeJS.Platform): string {
	const json = JSON.stringify(entry);
	const command =
		platform === "win32"
			? `${shellWord(json, platform)} | claude mcp add-json --scope ${ADD_SCOPE} ${HTTP_SERVER_NAME} -`
			: `claude mcp add-json --scope ${ADD_SCOPE} ${HTTP_SERVER_NAME} '${json.replace(/'/g, "'\\''")}'`;
	return inVaultFolder(vaultPath, command, platform);
}
