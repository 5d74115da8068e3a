import { dirname } from "node:path";
import { tokenFingerprint } from "../../server/auth";
import { LOCK_FILE_WRITER } from "../../server/lock-file";
import { LOCK_DIRECTORY_MODE, LOCK_FILE_MODE } from "../../server/limits";
import type { DoctorEnvironment, FileFacts } from "./doctor-environment";
import { fail, octalMode, ok, warn, type DoctorLine } from "./doctor-line";
import { readLockFileFields, type LockFileFields } from "./lock-file-reading";

export interface OwnLockFileExpectation {
	path: string;
	/** This app's process id, which the lock file must carry. */
	pid: number;
	ideName?: string;
	/** The running server's token fingerprint (never the token itself). */
	tokenFingerprint?: string;
	/** The vault's real path, which must be one of the lock file's workspace folders. */
	realVaultPath?: string;
}

const RESTART = "Restart the bridge: it writes the lock file again.";

/** The lock folder and file modes, the file's owner, and the vault path in it. Returns the fields for the connection check. */
export async function checkOwnLockFile(
	expected: OwnLockFileExpectation,
	env: DoctorEnvironment,
): Promise<{ lines: DoctorLine[]; fields?: LockFileFields }> {
	const lines: DoctorLine[] = [await checkFolder(dirname(expected.path), env)];
	const file = await checkFile(expected.path, env);
	lines.push(file.line);
	if (!file.present) return { lines };

	const reading = await readLockFileFields(expected.path, (path) => env.fs.readFile(path));
	if (reading.kind === "unreadable") {
		lines.push(fail(`The lock file cannot be read: ${reading.reason}`, RESTART));
		return { lines };
	}
	if (reading.kind === "not-json") {
		lines.push(fail("The lock file is not valid JSON; Claude Code would take it for an old format without a token", RESTART));
		return { lines };
	}
	const { fields } = reading;
	lines.push(ownership(fields, expected));
	if (expected.realVaultPath !== undefined) lines.push(vaultPathLine(fields, expected.realVaultPath));
	return { lines, fields };
}

async function checkFolder(directory: string, env: DoctorEnvironment): Promise<DoctorLine> {
	let facts;
	try {
		// A symlinked folder is fine: the bridge and Claude Code both follow it.
		facts = await env.fs.stat(directory);
	} catch {
		return fail(`The lock folder ${directory} does not exist`, "Restart the bridge: it creates the folder.");
	}
	if (!facts.isDirectory()) {
		return fail(`The lock folder ${directory} is not a folder`, "Move that file away (Claude Code looks for lock files in a folder at that path), then restart the bridge.");
	}
	if (env.platform === "win32") return ok(`The lock folder ${directory} exists (on Windows, access follows your user profile)`);
	const mode = facts.mode & 0o777;
	if (mode !== LOCK_DIRECTORY_MODE) {
		return warn(`The lock folder ${directory} has mode ${octalMode(mode)}, not ${octalMode(LOCK_DIRECTORY_MODE)}: other users can list it`, `Run chmod 700 "${directory}" (the bridge also tightens it on each start).`);
	}
	return ok(`The lock folder ${directory} is private (${octalMode(mode)})`);
}

async function checkFile(path: string, env: DoctorEnvironment): Promise<{ line: DoctorLine; present: boolean }> {
	let facts;
	try {
		facts = await env.fs.lstat(path);
	} catch {
		return {
			line: fail(`The lock file ${path} is missing`, `${RESTART} If it keeps disappearing, another program is cleaning ${dirname(path)}.`),
			present: false,
		};
	}
	return { line: fileModeLine(path, facts, env), present: true };
}

function fileModeLine(path: string, facts: FileFacts, env: DoctorEnvironment): DoctorLine {
	if (facts.isSymbolicLink() || !facts.isFile()) {
		return fail(`The lock file ${path} is not a regular file`, `Delete it, then restart the bridge: rm "${path}"`);
	}
	if (env.platform === "win32") return ok(`The lock file ${path} exists`);
	const mode = facts.mode & 0o777;
	if (mode !== LOCK_FILE_MODE) {
		return fail(
			`The lock file ${path} has mode ${octalMode(mode)}, not ${octalMode(LOCK_FILE_MODE)}: other users could read the token`,
			"Restart the bridge: it writes a new lock file with mode 0600 and a new token.",
		);
	}
	return ok(`The lock file ${path} exists with mode ${octalMode(mode)}`);
}

function ownership(fields: LockFileFields, expected: OwnLockFileExpectation): DoctorLine {
	const problems: string[] = [];
	if (fields.pid !== expected.pid) problems.push(`its pid is ${fields.pid ?? "missing"}, not this app's ${expected.pid}`);
	if (expected.ideName !== undefined && fields.ideName !== expected.ideName) {
		problems.push(`its name is ${fields.ideName === undefined ? "missing" : `"${fields.ideName}"`}, not "${expected.ideName}"`);
	}
	if (fields.writer !== LOCK_FILE_WRITER) problems.push("this plugin did not write it");
	if (fields.transport !== "ws") problems.push(`its transport is ${fields.transport ?? "missing"}, not ws`);
	const fingerprint = fields.authToken === undefined ? undefined : tokenFingerprint(fields.authToken);
	if (fingerprint === undefined) problems.push("it holds no token");
	else if (expected.tokenFingerprint !== undefined && fingerprint !== expected.tokenFingerprint) {
		problems.push(`its token (fingerprint ${fingerprint}) is not the bridge's (${expected.tokenFingerprint})`);
	}
	if (problems.length > 0) {
		return fail(`The lock file is not this bridge's: ${problems.join("; ")}`, `Another process wrote this port's lock file. ${RESTART}`);
	}
	return ok(`The lock file is this bridge's: pid ${expected.pid}, "${fields.ideName ?? ""}", token fingerprint ${fingerprint ?? ""}`);
}

function vaultPathLine(fields: LockFileFields, realVaultPath: string): DoctorLine {
	if (fields.workspaceFolders.includes(realVaultPath)) return ok(`The lock file lists the vault's real path ${realVaultPath}`);
	const listed = fields.workspaceFolders.length > 0 ? fields.workspaceFolders.join(", ") : "no folder";
	return fail(
		`The lock file does not list the vault's real path ${realVaultPath} (it lists ${listed})`,
		`${RESTART} Claude Code compares its working folder with these paths exactly, without following symlinks.`,
	);
}
