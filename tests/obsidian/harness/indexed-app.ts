import type { ObsidianVaultIndexOptions } from "../../../src/obsidian/vault-tools/obsidian-vault-index";
import { obsidianYamlCodec } from "../../../src/obsidian/notes/obsidian-yaml-codec";
import { App, type MetadataCache } from "../../__mocks__/obsidian";
import { parseNoteForCache } from "./metadata-parser";

/**
 * A fake app whose metadata cache indexes its vault with the fake parser, holding `files`, all parsed (as when
 * Obsidian has finished indexing at layout ready). Later writes wait for `app.metadataCache.parsePending()`.
 */
export async function createIndexedApp(files: Record<string, string>, basePath = "/vault"): Promise<App> {
	const app = new App(basePath, "Vault");
	// The fake Vault types `on` loosely (any event name, any listener); the cache's port names the events.
	app.metadataCache.attach(app.vault as unknown as Parameters<MetadataCache["attach"]>[0], parseNoteForCache);
	for (const [path, text] of Object.entries(files)) app.vault.writeExternally(path, text);
	await app.metadataCache.parsePending();
	return app;
}

/** The fake app's parts as ObsidianVaultIndex takes them. */
export function vaultIndexPorts(app: App): ObsidianVaultIndexOptions {
	return {
		vault: app.vault as unknown as ObsidianVaultIndexOptions["vault"],
		metadataCache: app.metadataCache,
		fileManager: app.fileManager,
		yaml: obsidianYamlCodec,
	};
}
