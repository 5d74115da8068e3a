import { createHash } from "node:crypto";
import { lstatSync, readdirSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";

/**
 * Where the headless host and the stdio server keep a vault's journal: `$XDG_DATA_HOME` (when absolute) or
 * `~/.local/share`, then `claude-code-bridge/journal/<vault id>`. The id is the vault folder's name and a hash of
 * its real path, so two vaults of the same name never share a journal. Never inside the vault: a data folder
 * there is refused (the notes would carry the journal to every device the vault syncs to).
 */
export function journalFolder(vaultRoot: string, environment: Readonly<Record<string, string | undefined>>, homeDir: string): { folder: string } | { refused: string } {
	const configured = environment.XDG_DATA_HOME;
	const dataHome = configured !== undefined && isAbsolute(configured) ? configured : join(homeDir, ".local", "share");
	const folder = join(dataHome, "claude-code-bridge", "journal", vaultId(vaultRoot));
	const real = realPath(vaultRoot);
	for (const root of new Set([resolve(vaultRoot), real])) {
		const inside = relative(root, resolve(folder));
		if (inside === "" || (!inside.startsWith("..") && !isAbsolute(inside))) {
			return { refused: `the data folder ${dataHome} is inside the vault; the activity journal is kept outside the notes, so none is kept` };
		}
	}
	return { folder };
}

/** `<folder name>-<12 hex of the real path's SHA-256>`, with only safe characters in the name. */
export function vaultId(vaultRoot: string): string {
	const name = basename(resolve(vaultRoot)).replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^\.+/, "").slice(0, 40) || "vault";
	const hash = createHash("sha256").update(realPath(vaultRoot)).digest("hex").slice(0, 12);
	return `${name}-${hash}`;
}

function realPath(path: string): string {
	try {
		return realpathSync.native(path);
	} catch {
		return resolve(path);
	}
}

/**
 * The journal the plugin keeps in the vault's config folder (`<config folder>/plugins/claude-code-bridge/journal`),
 * when the plugin is installed in exactly one config folder (a dot folder at the vault's top, itself a folder and
 * not a symbolic link, whose `plugins/<id>/manifest.json` is a file). A process that serves the folder while
 * Obsidian is closed records there, so Obsidian's activity view lists its calls and can undo its changes.
 * Undefined when there is no such folder, or more than one (which one Obsidian uses cannot be known here).
 */
export function installedPluginJournalFolder(vaultRoot: string, pluginId: string): string | undefined {
	let entries;
	try {
		entries = readdirSync(vaultRoot, { withFileTypes: true });
	} catch {
		return undefined;
	}
	const installed = entries
		.filter((entry) => entry.isDirectory() && entry.name.startsWith(".") && entry.name !== "." && entry.name !== "..")
		.map((entry) => join(vaultRoot, entry.name, "plugins", pluginId))
		.filter((folder) => is(dirname(folder), "folder") && is(folder, "folder") && is(join(folder, "manifest.json"), "file"));
	return installed.length === 1 && installed[0] !== undefined ? join(installed[0], "journal") : undefined;
}

/** Whether `path` itself (not followed, if a symbolic link) is a folder or a regular file. */
function is(path: string, kind: "folder" | "file"): boolean {
	try {
		const stats = lstatSync(path, { throwIfNoEntry: false });
		return kind === "folder" ? stats?.isDirectory() === true : stats?.isFile() === true;
	} catch {
		return false;
	}
}
