import { lockFilePath, isProcessAlive, type ProcessAliveCheck } from "../../server/lock-file";
import { LOCK_FILE_WRITER, readLockFile } from "../../server/lock-file-reader";
import { readHttpTokenRecord } from "./http-token-record";

/**
 * Who holds `port`, when it is one of ours: another bridge's vault-tools endpoint (its token record names its pid and
 * vault) or a bridge's IDE server (its lock file names its pid and `/ide` name). Undefined for any other program.
 * Both files are read as untrusted input, through the same checks as their other readers; nothing here is secret.
 */
export async function ourPortHolder(
	homeDir: string,
	port: number,
	isAlive: ProcessAliveCheck = isProcessAlive,
): Promise<string | undefined> {
	try {
		const record = readHttpTokenRecord(homeDir, port, { isAlive });
		return `another Claude Code Bridge (pid ${record.pid}, the vault tools of ${record.vault})`;
	} catch {
		// Not a vault-tools endpoint of ours; perhaps an IDE server of ours.
	}
	const reading = await readLockFile(lockFilePath(homeDir, port));
	if (reading.kind !== "read") return undefined;
	const { pid, ideName, writer } = reading.record;
	if (writer !== LOCK_FILE_WRITER || typeof pid !== "number" || !isAlive(pid)) return undefined;
	return `Claude Code Bridge's IDE server (pid ${pid}${typeof ideName === "string" ? `, "${ideName}"` : ""})`;
}
