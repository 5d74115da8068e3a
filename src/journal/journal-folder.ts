import { createHash } from "node:crypto";
import { readdirSync, realpathSync, statSync } from "node:fs";
import { basename, isAbsolute, join, relative, resolve } from "node:path";

/**
 * Where the headless host and the stdio server keep a vault's journal: `$XDG_DATA_HOME` (when absolute) or
 * `~/.local/share`, then `claude-code-bridge/journal/<vault id>`. The id is the vault folder's name and a hash of
 * its real path, so two vaults of the same name never share a journal. Never inside the vault: a data folder
 * there is refused (the notes would carry the journal to every device the vault syncs to).
 */
export function journalFolder(
	vaultRoot: string,
	environment: Readonly<Record<string, string | undefined>>,
	homeDir: string,
): { folder: string } | { refused: string } {
	const home = dataHome(environment, homeDir);
	const folder = join(home, "claude-code-bridge", "journal", vaultId(vaultRoot));
	const real = realPath(vaultRoot);
	for (const root of new Set([resolve(vaultRoot), real])) {
		if (isWithin(root, resolve(folder))) {
			return {
				refused: `the data folder ${home} is inside the vault; the activity journal is kept outside the notes, so none is kept`,
			};
		}
	}
	return { folder };
}

/** The user's data folder: `$XDG_DATA_HOME` when absolute, else `~/.local/share`. */
export function dataHome(environment: Readonly<Record<string, string | undefined>>, homeDir: string): string {
	const configured = environment.XDG_DATA_HOME;
	return configured !== undefined && isAbsolute(configured) ? configured : join(homeDir, ".local", "share");
}

/** `<folder name>-<12 hex of the real path's SHA-256>`, with only safe characters in the name. */
export function vaultId(vaultRoot: string): string {
	const name =
		basename(resolve(vaultRoot))
			.replace(/[^A-Za-z0-9._-]+/g, "_")
			.replace(/^\.+/, "")
			.slice(0, 40) || "vault";
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
 * The folder the plugin keeps its journal in, given its own folder (absolute): `journal` there, or
 * `journal/<vault id>` when that folder's real path is outside the vault. A config folder linked into several vaults
 * (a way to share settings) would otherwise mix their journals, whose paths are vault-relative.
 */
export function pluginJournalFolderIn(vaultRoot: string, pluginFolder: string): string {
	const folder = join(pluginFolder, "journal");
	return leadsOutOf(vaultRoot, pluginFolder) ? join(folder, vaultId(vaultRoot)) : folder;
}

/**
 * The journal the plugin keeps (`pluginJournalFolderIn`), when the plugin is installed in exactly one config
 * folder: a dot folder at the vault's top (or a link to one) whose `plugins/<id>/manifest.json` is a file. A process
 * that serves the folder while Obsidian is closed records there, so Obsidian's activity view lists its calls and can
 * undo its changes. Undefined when there is no such folder, or more than one (which one Obsidian uses cannot be
 * known here).
 */
export function installedPluginJournalFolder(vaultRoot: string, pluginId: string): string | undefined {
	let entries;
	try {
		entries = readdirSync(vaultRoot, { withFileTypes: true });
	} catch {
		return undefined;
	}
	const installed = entries
		.filter(
			(entry) =>
				(entry.isDirectory() || entry.isSymbolicLink()) &&
				entry.name.startsWith(".") &&
				entry.name !== "." &&
				entry.name !== "..",
		)
		.map((entry) => join(vaultRoot, entry.name, "plugins", pluginId))
		.filter((folder) => isFile(join(folder, "manifest.json")));
	return installed.length === 1 && installed[0] !== undefined
		? pluginJournalFolderIn(vaultRoot, installed[0])
		: undefined;
}

function isFile(path: string): boolean {
	try {
		return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
	} catch {
		return false;
	}
}

/** Whether `path`'s real path is not inside `vaultRoot`'s (a symbolic link on the way leads elsewhere). */
function leadsOutOf(vaultRoot: string, path: string): boolean {
	try {
		return !isWithin(realpathSync.native(vaultRoot), realpathSync.native(path));
	} catch {
		return false;
	}
}

/** Whether `path` is `root` or below it (both resolved). */
export function isWithin(root: string, path: string): boolean {
	const inside = relative(root, path);
	return inside === "" || (!inside.startsWith("..") && !isAbsolute(inside));
}
