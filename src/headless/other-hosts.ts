import { readdir, realpath } from "node:fs/promises";
import { join } from "node:path";
import { folderContains } from "../ide/doctor/vault-location";
import { isProcessAlive, lockDirectory, type ProcessAliveCheck } from "../server/lock-file";
import { LOCK_FILE_WRITER, portOfLockFileName, readLockFile } from "../server/lock-file-reader";

/** A running bridge of ours (plugin or headless host) whose lock file lists a folder holding the vault. */
export interface OtherBridge {
	pid: number;
	port: number;
	ideName: string;
}

/**
 * The bridges of this project already serving `vaultPath` (or a folder above it), from the lock files Claude Code
 * reads (`<home>/.claude/ide`, and `$CLAUDE_CONFIG_DIR/ide`): ours by their `writer`, alive by their pid, read as
 * untrusted input. A folder that cannot be read counts as none.
 */
export async function otherBridgesForVault(
	vaultPath: string,
	directories: readonly string[],
	ownPid: number = process.pid,
	isAlive: ProcessAliveCheck = isProcessAlive,
): Promise<OtherBridge[]> {
	const vault = await realpath(vaultPath).catch(() => vaultPath);
	const found: OtherBridge[] = [];
	for (const directory of directories) {
		const names = await readdir(directory).catch(() => [] as string[]);
		for (const name of names.sort()) {
			const port = name.endsWith(".lock") ? portOfLockFileName(name) : undefined;
			if (port === undefined) continue;
			const reading = await readLockFile(join(directory, name));
			if (reading.kind !== "read") continue;
			const { pid, ideName, writer, workspaceFolders } = reading.record;
			if (writer !== LOCK_FILE_WRITER || typeof pid !== "number" || pid === ownPid || !isAlive(pid)) continue;
			const folders = Array.isArray(workspaceFolders)
				? workspaceFolders.filter((folder): folder is string => typeof folder === "string")
				: [];
			if (!folders.some((folder) => folderContains(folder, vault))) continue;
			found.push({ pid, port, ideName: typeof ideName === "string" ? ideName : "an unnamed bridge" });
		}
	}
	return found;
}

/** The lock folders Claude Code scans: `<home>/.claude/ide`, and `<CLAUDE_CONFIG_DIR>/ide` when set. */
export function lockFolders(homeDir: string, claudeConfigDir: string | undefined): string[] {
	const folders = [lockDirectory(homeDir)];
	if (claudeConfigDir) folders.push(join(claudeConfigDir, "ide"));
	return [...new Set(folders)];
}
