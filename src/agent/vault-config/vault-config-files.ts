import { constants } from "node:fs";
import { lstat, open, readdir, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";

/** A configuration file of the vault is read whole up to this size; a bigger one is described, not read. */
export const CONFIG_FILE_LIMIT_BYTES = 256 * 1024;
/** A configuration folder lists at most this many entries (a planted folder of a million files is not walked). */
export const CONFIG_FOLDER_LIMIT = 200;

/** One file of the vault's Claude Code configuration as read: its text, absent, or why it could not be read. */
export type VaultConfigFile =
	{ kind: "text"; text: string } | { kind: "missing" } | { kind: "unreadable"; problem: string };

/**
 * Reads the vault's own Claude Code configuration files, files anyone who can write to the vault may have written:
 * only inside the vault (a symbolic link is judged by where it leads, and one leading out is not followed), never
 * more than `CONFIG_FILE_LIMIT_BYTES` of a file, and any failure becomes a description instead of an exception.
 */
export class VaultConfigFiles {
	private rootReal: Promise<string> | undefined;

	constructor(readonly vaultRoot: string) {}

	/** `relativePath` uses `/`; the text is UTF-8. */
	async read(relativePath: string): Promise<VaultConfigFile> {
		const where = await this.locate(relativePath);
		if ("kind" in where) return where;
		try {
			const info = await stat(where.real);
			if (!info.isFile()) return { kind: "unreadable", problem: "is not a file" };
			if (info.size > CONFIG_FILE_LIMIT_BYTES)
				return { kind: "unreadable", problem: `is larger than ${CONFIG_FILE_LIMIT_BYTES / 1024} KB` };
			const handle = await open(where.real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
			try {
				const buffer = Buffer.alloc(CONFIG_FILE_LIMIT_BYTES + 1);
				const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
				if (bytesRead > CONFIG_FILE_LIMIT_BYTES)
					return { kind: "unreadable", problem: `is larger than ${CONFIG_FILE_LIMIT_BYTES / 1024} KB` };
				return { kind: "text", text: buffer.subarray(0, bytesRead).toString("utf8") };
			} finally {
				await handle.close();
			}
		} catch (error) {
			return { kind: "unreadable", problem: `could not be read (${errorCode(error)})` };
		}
	}

	/** The names in a folder of the vault, sorted, at most `CONFIG_FOLDER_LIMIT`; `missing` when there is no such folder. */
	async list(
		relativePath: string,
	): Promise<VaultConfigFile | { kind: "folder"; names: string[]; truncated: boolean }> {
		const where = await this.locate(relativePath);
		if ("kind" in where) return where;
		try {
			if (!(await stat(where.real)).isDirectory()) return { kind: "unreadable", problem: "is not a folder" };
			const names = (await readdir(where.real)).sort();
			return {
				kind: "folder",
				names: names.slice(0, CONFIG_FOLDER_LIMIT),
				truncated: names.length > CONFIG_FOLDER_LIMIT,
			};
		} catch (error) {
			return { kind: "unreadable", problem: `could not be read (${errorCode(error)})` };
		}
	}

	/** Whether an absolute path (a CLAUDE.md import) lies in the vault, by where it leads. */
	async isInside(path: string): Promise<boolean> {
		const root = await this.root();
		const real = await realpath(path).catch(() => undefined);
		return real !== undefined && inside(root, real);
	}

	private async locate(relativePath: string): Promise<{ real: string } | VaultConfigFile> {
		const root = await this.root();
		const path = join(root, ...relativePath.split("/"));
		try {
			await lstat(path);
		} catch (error) {
			return errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR"
				? { kind: "missing" }
				: { kind: "unreadable", problem: `could not be read (${errorCode(error)})` };
		}
		let real: string;
		try {
			real = await realpath(path);
		} catch (error) {
			return {
				kind: "unreadable",
				problem:
					errorCode(error) === "ENOENT" ? "is a link to nothing" : `could not be read (${errorCode(error)})`,
			};
		}
		return inside(root, real) ? { real } : { kind: "unreadable", problem: `leads outside the vault, to ${real}` };
	}

	private root(): Promise<string> {
		this.rootReal ??= realpath(this.vaultRoot).catch(() => this.vaultRoot);
		return this.rootReal;
	}
}

function inside(root: string, real: string): boolean {
	const path = relative(root, real);
	return path === "" || (path !== ".." && !path.startsWith(`..${sep}`) && !isAbsolute(path));
}

function errorCode(error: unknown): string {
	return typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "string"
		? (error as { code: string }).code
		: String(error);
}
