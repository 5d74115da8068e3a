import { basename, join } from "node:path";
import type { DoctorEnvironment } from "./doctor-environment";
import { ok, warn, type DoctorLine } from "./doctor-line";
import { portOfLockFile, readLockFileFields } from "./lock-file-reading";
import { folderContains } from "./vault-location";

export interface OtherLockFilesQuery {
	/** Every folder Claude Code scans; a missing one is skipped. */
	directories: string[];
	/** This bridge's own lock file, left out of the listing. */
	ownPath?: string;
	ownPort?: number;
	/** Where Claude Code would run: lock files whose folders contain it compete with this bridge. */
	realVaultPath?: string;
}

/** Names the other editors' lock files, and flags stale ones and those that also claim this vault. */
export async function checkOtherLockFiles(query: OtherLockFilesQuery, env: DoctorEnvironment): Promise<DoctorLine[]> {
	const lines: DoctorLine[] = [];
	const running: string[] = [];
	for (const path of await lockFilesIn(query.directories, env)) {
		const name = basename(path);
		if (path === query.ownPath) continue;
		const port = portOfLockFile(path);
		const reading = await readLockFileFields(path, (file) => env.fs.readFile(file));
		if (reading.kind !== "read") {
			const why = reading.kind === "unreadable" ? `cannot be read (${reading.reason})` : "is not valid JSON";
			lines.push(warn(`The lock file ${name} ${why}; Claude Code may list it as an editor that does not answer`, `Delete it if no editor uses port ${port ?? "?"}: rm "${path}"`));
			continue;
		}
		const { fields } = reading;
		const label = `${fields.ideName ?? "an unnamed editor"} (port ${port ?? "?"}${fields.pid === undefined ? "" : `, pid ${fields.pid}`})`;
		if (fields.pid !== undefined && !env.isProcessAlive(fields.pid)) {
			lines.push(warn(`Stale lock file ${name}: ${label} is no longer running`, `Claude Code deletes it the next time it starts; you may delete it now: rm "${path}"`));
			continue;
		}
		running.push(label);
		const vault = query.realVaultPath;
		const claimed = vault === undefined ? undefined : fields.workspaceFolders.find((folder) => folderContains(folder, vault));
		if (claimed !== undefined) {
			const bind = query.ownPort === undefined ? "" : `, or start it with CLAUDE_CODE_SSE_PORT=${query.ownPort} claude --ide to bind it to this vault`;
			lines.push(
				warn(
					`${label} also covers this vault (its folder ${claimed}): with two matching editors Claude Code does not connect on its own`,
					`In Claude Code run /ide and pick this vault${bind}.`,
				),
			);
		}
	}
	lines.unshift(running.length > 0 ? ok(`Other editors' lock files: ${running.join(", ")}`) : ok("No other editors' lock files"));
	return lines;
}

/** The `*.lock` files of each folder, a folder reached twice (by a symlink) read once, as the CLI does. */
async function lockFilesIn(directories: readonly string[], env: DoctorEnvironment): Promise<string[]> {
	const seen = new Set<string>();
	const paths: string[] = [];
	for (const directory of directories) {
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
		for (const name of names.filter((entry) => entry.endsWith(".lock")).sort()) paths.push(join(directory, name));
	}
	return paths;
}
