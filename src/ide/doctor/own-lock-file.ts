import { dirname } from "node:path";
import { tokenFingerprint } from "../../server/auth";
import { LOCK_FILE_WRITER } from "../../server/lock-file";
import { LOCK_FILE_MODE } from "../../server/limits";
import {
	checkLockFolder,
	type LockFileRule,
	type LockFolderCheck,
	type LockFolderRule,
} from "../../server/lock-file-reader";
import type { DoctorEnvironment } from "./doctor-environment";
import { fail, octalMode, ok, type DoctorLine } from "./doctor-line";
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

/**
 * The lock folder and file as the shared reader judges them (a link, another owner, a loose mode or a port field
 * that disagrees with the name is refused, and said why), then the vault path in it. Returns the fields for the
 * connection check; a refused file returns none, so its token is never probed.
 */
export async function checkOwnLockFile(
	expected: OwnLockFileExpectation,
	env: DoctorEnvironment,
): Promise<{ lines: DoctorLine[]; fields?: LockFileFields }> {
	const directory = dirname(expected.path);
	const folder = await checkLockFolder(directory, env.platform);
	const lines: DoctorLine[] = [folderLine(directory, folder, env.platform)];
	if (folder.kind !== "ok") return { lines };

	const { path } = expected;
	const reading = await readLockFileFields(path, env.platform);
	switch (reading.kind) {
		case "missing":
			lines.push(
				fail(
					`The lock file ${path} is missing`,
					`${RESTART} If it keeps disappearing, another program is cleaning ${directory}.`,
				),
			);
			return { lines };
		case "unreadable":
			lines.push(fail(`The lock file cannot be read: ${reading.reason}`, RESTART));
			return { lines };
		case "refused":
			lines.push(fail(`The lock file ${path} is refused: ${reading.reason}`, refusedFileFix(reading.rule, path)));
			return { lines };
		case "not-json":
			lines.push(presentLine(path, env.platform));
			lines.push(
				fail(
					"The lock file is not valid JSON; Claude Code would take it for an old format without a token",
					RESTART,
				),
			);
			return { lines };
		case "read":
			break;
	}
	const { fields } = reading;
	lines.push(presentLine(path, env.platform), ownership(fields, expected));
	if (expected.realVaultPath !== undefined) lines.push(vaultPathLine(fields, expected.realVaultPath));
	return { lines, fields };
}

function folderLine(directory: string, folder: LockFolderCheck, platform: NodeJS.Platform): DoctorLine {
	switch (folder.kind) {
		case "missing":
			return fail(`The lock folder ${directory} does not exist`, "Restart the bridge: it creates the folder.");
		case "unreadable":
			return fail(
				`The lock folder ${directory} cannot be read: ${folder.reason}`,
				"Check that this user can open it, then restart the bridge.",
			);
		case "refused":
			return fail(
				`The lock folder ${directory} ${folder.problem}, so the lock files in it are refused`,
				refusedFolderFix(folder.rule, directory),
			);
		case "ok":
			if (platform === "win32")
				return ok(`The lock folder ${directory} exists (on Windows, access follows your user profile)`);
			return ok(`The lock folder ${directory} is private (${octalMode(folder.mode)})`);
	}
}

function refusedFolderFix(rule: LockFolderRule, directory: string): string {
	switch (rule) {
		case "folder-not-directory":
			return "Move that file away (Claude Code looks for lock files in a folder at that path), then restart the bridge.";
		case "folder-symlink":
			return `Replace the link with a folder of your own: rm "${directory}" && mkdir -m 700 "${directory}", then restart the bridge.`;
		case "folder-owner":
			return "Move it away (it may take an administrator), then restart the bridge: it creates the folder again.";
		case "folder-mode":
			return `Run chmod 700 "${directory}" (the bridge also tightens it on each start).`;
	}
}

function refusedFileFix(rule: LockFileRule, path: string): string {
	switch (rule) {
		case "symlink":
		case "not-regular":
			return `Delete it, then restart the bridge: rm "${path}"`;
		case "owner":
			return `Delete it (it may take an administrator), then restart the bridge: rm "${path}"`;
		case "mode":
			return `Restart the bridge: it writes a new lock file with mode ${octalMode(LOCK_FILE_MODE)} and a new token.`;
		default:
			return RESTART;
	}
}

function presentLine(path: string, platform: NodeJS.Platform): DoctorLine {
	return ok(
		platform === "win32"
			? `The lock file ${path} exists`
			: `The lock file ${path} exists with mode ${octalMode(LOCK_FILE_MODE)}`,
	);
}

function ownership(fields: LockFileFields, expected: OwnLockFileExpectation): DoctorLine {
	const problems: string[] = [];
	if (fields.pid !== expected.pid)
		problems.push(`its pid is ${fields.pid ?? "missing"}, not this app's ${expected.pid}`);
	if (expected.ideName !== undefined && fields.ideName !== expected.ideName) {
		problems.push(
			`its name is ${fields.ideName === undefined ? "missing" : `"${fields.ideName}"`}, not "${expected.ideName}"`,
		);
	}
	if (fields.writer !== LOCK_FILE_WRITER) problems.push("this plugin did not write it");
	if (fields.transport !== "ws") problems.push(`its transport is ${fields.transport ?? "missing"}, not ws`);
	const fingerprint = fields.authToken === undefined ? undefined : tokenFingerprint(fields.authToken);
	if (fingerprint === undefined) problems.push("it holds no token");
	else if (expected.tokenFingerprint !== undefined && fingerprint !== expected.tokenFingerprint) {
		problems.push(`its token (fingerprint ${fingerprint}) is not the bridge's (${expected.tokenFingerprint})`);
	}
	if (problems.length > 0) {
		return fail(
			`The lock file is not this bridge's: ${problems.join("; ")}`,
			`Another process wrote this port's lock file. ${RESTART}`,
		);
	}
	return ok(
		`The lock file is this bridge's: pid ${expected.pid}, "${fields.ideName ?? ""}", token fingerprint ${fingerprint ?? ""}`,
	);
}

function vaultPathLine(fields: LockFileFields, realVaultPath: string): DoctorLine {
	if (fields.workspaceFolders.includes(realVaultPath))
		return ok(`The lock file lists the vault's real path ${realVaultPath}`);
	const listed = fields.workspaceFolders.length > 0 ? fields.workspaceFolders.join(", ") : "no folder";
	return fail(
		`The lock file does not list the vault's real path ${realVaultPath} (it lists ${listed})`,
		`${RESTART} Claude Code compares its working folder with these paths exactly, without following symlinks.`,
	);
}
