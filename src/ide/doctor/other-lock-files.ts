import { basename, join } from "node:path";
import {
	checkLockFolder,
	portOfLockFileName,
	type LockFileRule,
	type LockFolderRule,
} from "../../server/lock-file-reader";
import type { DoctorEnvironment } from "./doctor-environment";
import { ok, warn, withCommand, type DoctorLine } from "./doctor-line";
import { readLockFileFields } from "./lock-file-reading";
import { folderContains } from "./vault-location";

export interface OtherLockFilesQuery {
	/** Every folder Claude Code scans; a missing one is skipped. */
	directories: string[];
	/** This bridge's own lock file, left out of the listing. */
	ownPath?: string;
	ownPort?: number;
	/** A folder the own lock file's check already judged: not judged again here. */
	checkedFolder?: string;
	/** Where Claude Code would run: lock files whose folders contain it compete with this bridge. */
	realVaultPath?: string;
}

/**
 * Names the other editors' lock files, and flags stale ones, those that also claim this vault, and those (or whole
 * folders) the shared untrusted-input reader refuses, with its reason.
 */
export async function checkOtherLockFiles(query: OtherLockFilesQuery, env: DoctorEnvironment): Promise<DoctorLine[]> {
	const lines: DoctorLine[] = [];
	const running: string[] = [];
	for (const path of await lockFilesIn(query, env, lines)) {
		const name = basename(path);
		if (path === query.ownPath) continue;
		const reading = await readLockFileFields(path, env.platform);
		if (reading.kind === "missing") continue;
		if (reading.kind === "refused") {
			lines.push(warn(`The lock file ${name} is refused: ${reading.reason}`, refusedFileFix(reading.rule, path)));
			continue;
		}
		if (reading.kind !== "read") {
			const why = reading.kind === "unreadable" ? `cannot be read (${reading.reason})` : "is not valid JSON";
			lines.push(
				withCommand(
					warn(
						`The lock file ${name} ${why}; Claude Code may list it as an editor that does not answer`,
						`Delete it if no editor uses port ${portOfLockFileName(name) ?? "?"}: rm "${path}"`,
					),
					`rm "${path}"`,
				),
			);
			continue;
		}
		const { fields, port } = reading;
		const label = `${fields.ideName ?? "an unnamed editor"} (port ${port ?? "?"}${fields.pid === undefined ? "" : `, pid ${fields.pid}`})`;
		if (fields.pid !== undefined && !env.isProcessAlive(fields.pid)) {
			lines.push(
				withCommand(
					warn(
						`Stale lock file ${name}: ${label} is no longer running`,
						`Claude Code deletes it the next time it starts; you may delete it now: rm "${path}"`,
					),
					`rm "${path}"`,
				),
			);
			continue;
		}
		running.push(label);
		const vault = query.realVaultPath;
		const claimed =
			vault === undefined ? undefined : fields.workspaceFolders.find((folder) => folderContains(folder, vault));
		if (claimed !== undefined) {
			const bind =
				query.ownPort === undefined
					? ""
					: `, or start it with CLAUDE_CODE_SSE_PORT=${query.ownPort} claude --ide to bind it to this vault`;
			lines.push(
				warn(
					`${label} also covers this vault (its folder ${claimed}): with two matching editors Claude Code does not connect on its own`,
					`In Claude Code run /ide and pick this vault${bind}.`,
				),
			);
		}
	}
	lines.unshift(
		running.length > 0
			? ok(`Other editors' lock files: ${running.join(", ")}`)
			: ok("No other editors' lock files"),
	);
	return lines;
}

/**
 * The `*.lock` files of each folder, a folder reached twice (by a symlink) read once, as the CLI does. A folder the
 * reader refuses adds a line instead of its files.
 */
async function lockFilesIn(query: OtherLockFilesQuery, env: DoctorEnvironment, lines: DoctorLine[]): Promise<string[]> {
	const seen = new Set<string>();
	const paths: string[] = [];
	for (const directory of query.directories) {
		let real: string;
		let names: string[];
		try {
			real = await env.fs.realpath(directory);
			names = await env.fs.readdir(directory);
		} catch {
			continue;
		}
		if (seen.has(real)) continue;
		seen.add(real);
		const folder = await checkLockFolder(directory, env.platform);
		if (folder.kind === "refused") {
			if (directory !== query.checkedFolder) {
				lines.push(
					warn(
						`The lock folder ${directory} ${folder.problem}, so the lock files in it are refused`,
						refusedFolderFix(folder.rule, directory),
					),
				);
			}
			continue;
		}
		for (const name of names.filter((entry) => entry.endsWith(".lock")).sort()) paths.push(join(directory, name));
	}
	return paths;
}

function refusedFolderFix(rule: LockFolderRule, directory: string): string {
	switch (rule) {
		case "folder-mode":
			return `Run chmod 700 "${directory}" if its lock files are yours.`;
		case "folder-symlink":
			return `If its lock files are yours, replace the link with a folder of your own: rm "${directory}" && mkdir -m 700 "${directory}"`;
		case "folder-owner":
		case "folder-not-directory":
			return `Move it away if no editor of yours uses it (it may take an administrator).`;
	}
}

function refusedFileFix(rule: LockFileRule, path: string): string {
	switch (rule) {
		case "symlink":
			return `Delete the link: rm "${path}"`;
		case "mode":
			return `If an editor of yours wrote it, run chmod 600 "${path}" (other users could read its token); otherwise delete it.`;
		default:
			return `Delete it if no editor of yours wrote it: rm "${path}"`;
	}
}
