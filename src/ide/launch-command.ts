/** The shell line that starts Claude Code in the vault, quoted for the platform's usual shell. */
export function launchCommand(vaultPath: string, platform: NodeJS.Platform = process.platform): string {
	if (platform === "win32") {
		// PowerShell: single quotes are literal; a quote inside is doubled.
		return `cd '${vaultPath.replace(/'/g, "''")}'; claude --ide`;
	}
	return `cd "${vaultPath.replace(/["\\$`]/g, (c) => `\\${c}`)}" && claude --ide`;
}
