import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ObsidianVaultIndex } from "../../src/obsidian/vault-tools/obsidian-vault-index";
import { FolderVaultIndex } from "../../src/vault/folder/folder-vault-index";
import { SavedFolderIndex } from "../../src/vault/folder/saved-folder-index";
import { libraryYamlCodec } from "../../src/vault/folder/yaml-library-codec";
import { makeTempDir } from "../helpers/temp-dir";
import { createIndexedApp, vaultIndexPorts } from "../obsidian/harness/indexed-app";
import { describeVaultIndexContract } from "./vault-index.contract";

describeVaultIndexContract("FolderVaultIndex (the folder on disk)", (files) => {
	const folder = makeTempDir("vault-index-contract");
	const write = (path: string, text: string): void => {
		const absolute = join(folder.path, ...path.split("/"));
		mkdirSync(dirname(absolute), { recursive: true });
		writeFileSync(absolute, text);
	};
	for (const [path, text] of Object.entries(files)) write(path, text);
	// Without a watcher: every refresh checks the files itself, so nothing depends on when fs.watch reports.
	const index = new FolderVaultIndex({ root: folder.path, watch: false });
	return Promise.resolve({
		index,
		writeExternally: write,
		dispose: () => {
			index.dispose();
			folder.remove();
		},
	});
});

describeVaultIndexContract("FolderVaultIndex taken up from the summaries a session before saved", async (files) => {
	const folder = makeTempDir("vault-index-contract-saved");
	const cache = makeTempDir("vault-index-contract-cache");
	const write = (path: string, text: string): void => {
		const absolute = join(folder.path, ...path.split("/"));
		mkdirSync(dirname(absolute), { recursive: true });
		writeFileSync(absolute, text);
	};
	for (const [path, text] of Object.entries(files)) write(path, text);
	const saved = new SavedFolderIndex({
		file: join(cache.path, "index.json"),
		vault: folder.path,
		version: "contract",
	});
	const before = new FolderVaultIndex({ root: folder.path, watch: false }, libraryYamlCodec, saved);
	await before.refresh();
	for (const path of before.notePaths()) before.warmNote(path);
	before.save();
	before.dispose();
	const index = new FolderVaultIndex({ root: folder.path, watch: false }, libraryYamlCodec, saved);
	return {
		index,
		writeExternally: write,
		dispose: () => {
			index.dispose();
			folder.remove();
			cache.remove();
		},
	};
});

describeVaultIndexContract("ObsidianVaultIndex over the fake vault and metadata cache", async (files) => {
	const app = await createIndexedApp(files);
	const index = new ObsidianVaultIndex(vaultIndexPorts(app));
	index.load();
	return {
		index,
		// The vault's watcher reports the file at once; Obsidian's parser never catches up here.
		writeExternally: (path, text) => void app.vault.writeExternally(path, text),
		dispose: () => index.unload(),
	};
});
