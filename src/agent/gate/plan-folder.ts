/**
 * Where Claude Code keeps the plans of plan mode. CLI 2.1.330 tells Claude, in plan mode, to write its plan to
 * `<config folder>/plans/<name>.md` (its own folder, outside the vault; the config folder is `$CLAUDE_CONFIG_DIR` or
 * `~/.claude`), and reads that file back when Claude asks to leave plan mode, to show the plan for approval. The
 * gate lets such a write through unasked while the session plans, as the CLI itself does; this says which paths
 * are such a plan file: a Markdown file directly in that folder (followed to its real place; the folder may not exist
 * yet), which is no link (a link could lead into the vault) and has no second name on disk (a hard link could be a
 * note's).
 */
import { lstat, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";

/** What the check reads of the disk (a fake stands in for it in tests). */
export interface PlanFolderDisk {
	/** The real path of a folder, or undefined when it does not exist. */
	realFolder(path: string): Promise<string | undefined>;
	/** What is at the path itself, links not followed; undefined when nothing is. */
	entry(path: string): Promise<{ file: boolean; link: boolean; names: number } | undefined>;
}

export class PlanFolder {
	constructor(
		/** The CLI's config folder (`$CLAUDE_CONFIG_DIR` or `~/.claude`). */
		private readonly configFolder: string,
		private readonly disk: PlanFolderDisk = nodeDisk,
	) {}

	/** Whether `path` (as the CLI gives it: absolute) names a plan file of this folder. */
	async holds(path: string): Promise<boolean> {
		if (!isAbsolute(path)) return false;
		const file = resolve(path);
		const name = basename(file);
		if (!name.toLowerCase().endsWith(".md") || name.startsWith(".")) return false;
		const [folder, plans] = await Promise.all([
			this.realPlace(dirname(file)),
			this.realPlace(join(resolve(this.configFolder), "plans")),
		]);
		if (folder === undefined || plans === undefined || folder !== plans) return false;
		const entry = await this.disk.entry(file);
		return entry === undefined || (entry.file && !entry.link && entry.names === 1);
	}

	/**
	 * Where a folder really is: its real path, or, while it does not exist yet (the CLI makes the plans folder with
	 * the first plan it writes), the real path of the nearest folder above it that does, with the rest of the path.
	 */
	private async realPlace(folder: string): Promise<string | undefined> {
		const real = await this.disk.realFolder(folder);
		if (real !== undefined) return real;
		const parent = dirname(folder);
		if (parent === folder) return undefined;
		const realParent = await this.realPlace(parent);
		return realParent === undefined ? undefined : join(realParent, basename(folder));
	}
}

const nodeDisk: PlanFolderDisk = {
	realFolder: async (path) => {
		try {
			return await realpath(path);
		} catch {
			return undefined;
		}
	},
	entry: async (path) => {
		try {
			const info = await lstat(path);
			return { file: info.isFile(), link: info.isSymbolicLink(), names: info.nlink };
		} catch {
			return undefined;
		}
	},
};
