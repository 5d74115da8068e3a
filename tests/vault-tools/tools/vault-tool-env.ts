import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { JsonObject } from "../../../src/protocol/json-rpc";
import type { ToolDefinition } from "../../../src/protocol/mcp-types";
import { KeyedMutex } from "../../../src/shared/keyed-mutex";
import { DEFAULT_TEXT_CAP, type VaultToolEnvironment } from "../../../src/vault-tools/kit/tool-kit";
import { FolderVaultIndex } from "../../../src/vault/folder/folder-vault-index";
import { VisibleVault } from "../../../src/vault/privacy/visible-vault";
import { VaultPaths } from "../../../src/vault/vault-paths";
import { makeTempDir } from "../../helpers/temp-dir";
import type { CallAnswer } from "../vault-fixture";
import { RegexScanner } from "../../../src/vault-tools/regex/regex-scanner";
import { libraryYamlCodec } from "../../../src/vault/folder/yaml-library-codec";

/** One vault tool built by its own factory over a temp-folder vault, with the environment's parts open to the test. */
export interface ToolUnderTest {
	root: string;
	env: VaultToolEnvironment;
	/** The folder index under the privacy layer. */
	index: FolderVaultIndex;
	call(args: JsonObject, signal?: AbortSignal): Promise<CallAnswer>;
	read(path: string): string;
	write(path: string, text: string): void;
	dispose(): void;
}

export function toolOver(
	create: (env: VaultToolEnvironment) => ToolDefinition,
	files: Record<string, string>,
	options: Partial<Omit<VaultToolEnvironment, "vault" | "writes" | "regex">> & {
		isPrivate?: (path: string) => boolean;
		regex?: RegexScanner;
	} = {},
): ToolUnderTest {
	const temp = makeTempDir("vault-tool");
	const write = (path: string, text: string): void => {
		mkdirSync(dirname(join(temp.path, path)), { recursive: true });
		writeFileSync(join(temp.path, path), text);
	};
	for (const [path, text] of Object.entries(files)) write(path, text);
	const index = new FolderVaultIndex({ root: temp.path, watch: false });
	const { isPrivate = (): boolean => false, regex = new RegexScanner(), ...rest } = options;
	const env: VaultToolEnvironment = {
		vault: new VisibleVault({ index, paths: new VaultPaths(temp.path), isPrivate }),
		writes: new KeyedMutex(),
		review: () => undefined,
		writesUnavailable: () => undefined,
		textCap: DEFAULT_TEXT_CAP,
		regex,
		yaml: libraryYamlCodec,
		...rest,
	};
	const tool = create(env);
	return {
		root: temp.path,
		env,
		index,
		async call(args, signal = new AbortController().signal) {
			const result = await tool.call(args, { sessionId: 1, signal });
			const blocks = result.content.map((block) => block.text);
			return { text: blocks.join("\n"), isError: result.isError === true, blocks };
		},
		read: (path) => readFileSync(join(temp.path, path), "utf8"),
		write,
		dispose() {
			index.dispose();
			temp.remove();
		},
	};
}
