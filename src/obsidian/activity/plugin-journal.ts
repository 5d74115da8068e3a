import { Notice, type App, type PluginManifest } from "obsidian";
import { join } from "node:path";
import { deviceJournalSeal, type JournalAssemblyOptions } from "../../assembly/journal-wiring";
import { userHomeDirectory } from "../../server/lock-file";
import { contentHash } from "../../journal/content-hash";
import { FolderJournalStore } from "../../journal/folder-journal-store";
import { pluginJournalFolderIn } from "../../journal/journal-folder";
import { obsidianYamlCodec } from "../notes/obsidian-yaml-codec";

/**
 * The plugin's activity journal: kept in the plugin's own folder of the config folder (`<configDir>/plugins/<id>/
 * journal`), which Obsidian never lists as notes (so the vault tools never offer it to Claude) and which is not
 * data.json. The plugin only runs on a local vault (the bridge needs its path), so the folder store of the headless
 * host serves here too, with its atomic appends, compaction lock and private file modes.
 */
export function pluginJournalFolder(
	vaultPath: string,
	configDir: string,
	manifest: Pick<PluginManifest, "id" | "dir">,
): string {
	return pluginJournalFolderIn(vaultPath, join(vaultPath, manifest.dir ?? `${configDir}/plugins/${manifest.id}`));
}

/**
 * The journal's store, this device's seal of its records (the key in the user's data folder, which every host of
 * this device reads and no sync carries: the journal itself syncs with the config folder), and undo's writes through
 * Obsidian's vault API (so editors, the cache and sync see them).
 */
export function pluginJournal(
	app: App,
	vaultPath: string,
	manifest: Pick<PluginManifest, "id" | "dir">,
	environment: Readonly<Record<string, string | undefined>> = process.env,
	homeDir: string = userHomeDirectory(),
	warn: (message: string) => void = (message) => new Notice(`Claude Code Bridge: ${message}`),
): JournalAssemblyOptions {
	const seal = deviceJournalSeal(vaultPath, environment, homeDir, warn);
	return {
		store: new FolderJournalStore(pluginJournalFolder(vaultPath, app.vault.configDir, manifest)),
		...(seal ? { seal } : {}),
		yaml: obsidianYamlCodec,
		undo: {
			writeBytes: async (path, bytes, expectedHash) => {
				const file = app.vault.getFileByPath(path);
				if (!file) throw new Error(`${path} is gone; nothing was written`);
				const current = new Uint8Array(await app.vault.readBinary(file));
				if (contentHash(current) !== expectedHash)
					throw new Error(`${path} changed since; nothing was written`);
				await app.vault.modifyBinary(
					file,
					bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
				);
			},
			// The user's trash setting (Obsidian's trash, the system's, or deletion) decides where it goes.
			trash: async (path) => {
				const file = app.vault.getFileByPath(path);
				if (!file) throw new Error(`${path} is gone; nothing was trashed`);
				await app.fileManager.trashFile(file);
			},
		},
	};
}
