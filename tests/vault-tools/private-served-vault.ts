import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { PrivacyRules } from "../../src/vault/privacy/privacy";
import { VaultPrivacy } from "../../src/vault/privacy/vault-privacy";
import { VaultPaths } from "../../src/vault/vault-paths";
import type { JsonObject } from "../../src/protocol/json-rpc";
import { ObsidianNoteStore } from "../../src/obsidian/notes/obsidian-note-store";
import { ObsidianVaultIndex } from "../../src/obsidian/vault-tools/obsidian-vault-index";
import { createVaultTools, type VaultToolsOptions } from "../../src/vault-tools/create-vault-tools";
import { FolderVault } from "../../src/vault/folder/folder-vault";
import type { VaultIndex } from "../../src/vault/notes/vault-index";
import type { App } from "../__mocks__/obsidian";
import { makeTempDir } from "../helpers/temp-dir";
import { createIndexedApp, vaultIndexPorts } from "../obsidian/harness/indexed-app";
import type { CallAnswer } from "./vault-fixture";
import { libraryYamlCodec } from "../../src/vault/folder/yaml-library-codec";
import { obsidianYamlCodec } from "../../src/obsidian/notes/obsidian-yaml-codec";

/** The vault tools over one adapter, with the privacy rules and tag reader its root gives them. */
export interface ServedVault {
	root: string;
	index: VaultIndex;
	/** The fake app, for the Obsidian adapter. */
	app?: App;
	call(name: string, args: JsonObject): Promise<CallAnswer>;
	/** A file's text as the adapter's vault holds it (the disk, or the fake app's vault); undefined when absent. */
	text(path: string): string | undefined;
	dispose(): void;
}

export type ToolOptions = Partial<Omit<VaultToolsOptions, "vault">>;

/**
 * The two adapters the vault tools run over, each with the tag reader its root passes to the privacy rules: the
 * folder (`FolderVault.tagsOf`, as `mcp --vault` and the headless host) and Obsidian (the fake app's
 * metadata cache through `ObsidianNoteStore.tagsOf`, as the plugin). The files are on disk for both, since path
 * arguments are confined through the real folder.
 */
export const ADAPTERS: [
	string,
	(files: Record<string, string>, rules: PrivacyRules, options?: ToolOptions) => Promise<ServedVault>,
][] = [
	[
		"the folder",
		(files, rules, options) => {
			const { root, remove } = writeVault(files);
			const folder = new FolderVault({ root, watch: false });
			const index = folder.index;
			const text = (path: string): string | undefined => {
				try {
					return readFileSync(join(root, path), "utf8");
				} catch {
					return undefined;
				}
			};
			return Promise.resolve(
				serve(
					root,
					index,
					rules,
					(path) => folder.tagsOf(path),
					text,
					{ yaml: libraryYamlCodec, ...options },
					() => {
						folder.dispose();
						remove();
					},
				),
			);
		},
	],
	[
		"Obsidian (fake app)",
		async (files, rules, options) => {
			const { root, remove } = writeVault(files);
			const app = await createIndexedApp(files, root);
			// One store for the index and the tags, as the plugin has.
			const ports = vaultIndexPorts(app);
			const store = new ObsidianNoteStore(ports.vault, ports.metadataCache, { yaml: obsidianYamlCodec });
			store.load();
			const index = new ObsidianVaultIndex({ ...ports, store });
			index.load();
			return {
				...serve(
					root,
					index,
					rules,
					(path) => store.tagsOf(path),
					(path) => app.vault.contents.get(path),
					{ yaml: obsidianYamlCodec, ...options },
					() => {
						index.unload();
						store.unload();
						remove();
					},
				),
				app,
			};
		},
	],
];

function writeVault(files: Record<string, string>): { root: string; remove: () => void } {
	const temp = makeTempDir("private-served");
	for (const [path, text] of Object.entries(files)) {
		mkdirSync(dirname(join(temp.path, path)), { recursive: true });
		writeFileSync(join(temp.path, path), text);
	}
	return { root: temp.path, remove: () => temp.remove() };
}

function serve(
	root: string,
	index: VaultIndex,
	rules: PrivacyRules,
	tagsOf: (path: string) => readonly string[],
	text: (path: string) => string | undefined,
	options: ToolOptions = {},
	dispose: () => void,
): ServedVault {
	const paths = new VaultPaths(root);
	const privacy = new VaultPrivacy({ paths, rules: () => rules, tagsOf });
	const tools = new Map(
		createVaultTools({ vault: privacy.visibleVault(index), yaml: libraryYamlCodec, ...options }).map((tool) => [
			tool.name,
			tool,
		]),
	);
	return {
		root,
		index,
		async call(name, args) {
			const tool = tools.get(name);
			if (!tool) throw new Error(`no tool ${name}`);
			const result = await tool.call(args, { sessionId: 1, signal: new AbortController().signal });
			const blocks = result.content.map((block) => block.text);
			return { text: blocks.join("\n"), isError: result.isError === true, blocks };
		},
		text,
		dispose,
	};
}
