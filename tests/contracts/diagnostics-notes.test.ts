import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { FolderDiagnosticsNotes } from "../../src/vault/folder/folder-diagnostics-notes";
import { libraryYamlCodec } from "../../src/vault/folder/yaml-library-codec";
import { obsidianYamlCodec } from "../../src/obsidian/notes/obsidian-yaml-codec";
import { ObsidianDiagnosticsNotes } from "../../src/obsidian/notes/obsidian-diagnostics-notes";
import { makeTempDir } from "../helpers/temp-dir";
import { ManualScheduler, settle } from "../obsidian/harness/metadata-scheduler";
import { createMetadataHarness } from "../obsidian/harness/metadata-vault";
import { describeNoteSourceContract } from "./diagnostics-notes.contract";

describeNoteSourceContract("FolderDiagnosticsNotes (headless)", (files) => {
	const folder = makeTempDir("note-source-contract");
	const write = (path: string, text: string): void => {
		const absolute = join(folder.path, ...path.split("/"));
		mkdirSync(dirname(absolute), { recursive: true });
		writeFileSync(absolute, text);
	};
	for (const [path, text] of Object.entries(files)) write(path, text);
	// Without a watcher: every call checks the files itself, so nothing depends on when fs.watch reports.
	const source = new FolderDiagnosticsNotes({ root: folder.path, watch: false }, libraryYamlCodec);
	return Promise.resolve({
		source,
		writeExternally: write,
		removeExternally: (path) => rmSync(join(folder.path, ...path.split("/"))),
		run: (call) => call(),
		dispose: () => {
			source.dispose();
			folder.remove();
		},
	});
});

describeNoteSourceContract("ObsidianDiagnosticsNotes over the fake metadata cache", async (files) => {
	const { vault, metadataCache } = createMetadataHarness(files);
	await metadataCache.parsePending();
	const scheduler = new ManualScheduler();
	const source = new ObsidianDiagnosticsNotes({
		vault,
		metadataCache,
		yaml: obsidianYamlCodec,
		scheduler,
		indexWaitMs: 200,
	});
	source.load();
	return {
		source,
		writeExternally: (path, text) => vault.writeExternally(path, text),
		removeExternally: (path) => vault.removeExternally(path),
		// Obsidian's watcher and parser never catch up here: each call waits its full bound, then reads the disk.
		run: async (call) => {
			const result = call();
			await settle();
			scheduler.advance(200);
			return result;
		},
		dispose: () => source.unload(),
	};
});
