import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { VaultPaths } from "../../src/vault/vault-paths";
import type { JsonObject } from "../../src/protocol/json-rpc";
import type { ToolDefinition } from "../../src/protocol/mcp-types";
import { createVaultTools, type VaultToolsOptions } from "../../src/vault-tools/create-vault-tools";
import { FolderVault } from "../../src/vault/folder/folder-vault";
import type { FolderVaultIndex } from "../../src/vault/folder/folder-vault-index";
import { VisibleVault } from "../../src/vault/privacy/visible-vault";
import { makeTempDir } from "../helpers/temp-dir";
import { libraryYamlCodec } from "../../src/vault/folder/yaml-library-codec";

export interface CallAnswer {
	text: string;
	isError: boolean;
	blocks: string[];
}

export interface VaultFixture {
	root: string;
	/** The folder adapter: `index` is its vault-tools index, `folder.tagsOf` its privacy tag reader. */
	folder: FolderVault;
	index: FolderVaultIndex;
	tools: Map<string, ToolDefinition>;
	call(name: string, args: JsonObject, signal?: AbortSignal): Promise<CallAnswer>;
	read(path: string): string;
	write(path: string, text: string): void;
	dispose(): void;
}

/**
 * A temp-folder vault with the given notes, served by the folder adapter (no watcher unless `watch`: every call
 * re-checks the files).
 */
export function makeVault(
	files: Record<string, string>,
	options: Partial<Omit<VaultToolsOptions, "vault">> & {
		isPrivate?: (path: string) => boolean;
		watch?: boolean;
	} = {},
): VaultFixture {
	const temp = makeTempDir("vault-tools");
	const root = temp.path;
	const write = (path: string, text: string): void => {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), text);
	};
	for (const [path, text] of Object.entries(files)) write(path, text);
	const { isPrivate = (): boolean => false, watch = false, ...toolOptions } = options;
	const folder = new FolderVault({ root, watch });
	const index = folder.index;
	const vault = new VisibleVault({ index, paths: new VaultPaths(root), isPrivate });
	const tools = new Map(
		createVaultTools({ vault, yaml: libraryYamlCodec, ...toolOptions }).map((tool) => [tool.name, tool]),
	);
	return {
		root,
		folder,
		index,
		tools,
		async call(name, args, signal = new AbortController().signal) {
			const tool = tools.get(name);
			if (!tool) throw new Error(`no tool ${name}`);
			const result = await tool.call(args, { sessionId: 1, signal });
			const blocks = result.content.map((block) => block.text);
			return { text: blocks.join("\n"), isError: result.isError === true, blocks };
		},
		read: (path) => readFileSync(join(root, path), "utf8"),
		write,
		dispose() {
			folder.dispose();
			temp.remove();
		},
	};
}
