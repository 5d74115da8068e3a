import type { JsonObject } from "../../protocol/json-rpc";
import type { MethodHandler } from "../../protocol/mcp-session";
import type { ActiveNoteSource } from "../kit/ports";
import { DEFAULT_PROMPTS_FOLDER, VaultPrompts } from "../prompts/vault-prompts";
import { DEFAULT_TEXT_CAP } from "../kit/tool-kit";
import type { VisibleVault } from "../../vault/privacy/visible-vault";
import { VaultResources } from "./vault-resources";

export interface VaultContentOptions {
	/** The notes as the tools see them (the same boundary): a private note is neither a resource nor a prompt. */
	vault: VisibleVault;
	vaultName: string;
	activeNote?: ActiveNoteSource;
	/** Today's daily note (Obsidian's Daily notes plugin); left out where there is none (the folder). */
	dailyNote?: () => string | undefined;
	/** The folder whose notes are prompts, read per call so a settings change applies at once. */
	promptsFolder?: () => string;
	textCap?: number;
}

/**
 * The vault-tools server's resources and prompts, for `VaultToolsAssemblyOptions.methods` and `capabilities`:
 * `resources/list`, `resources/read`, `resources/templates/list` (none), `prompts/list`, `prompts/get`.
 */
export function createVaultContentMethods(options: VaultContentOptions): {
	methods: ReadonlyMap<string, MethodHandler>;
	capabilities: JsonObject;
} {
	const vault = options.vault;
	const resources = new VaultResources({
		vault,
		vaultName: options.vaultName,
		textCap: options.textCap ?? DEFAULT_TEXT_CAP,
		...(options.activeNote ? { activeNote: options.activeNote } : {}),
		...(options.dailyNote ? { dailyNote: options.dailyNote } : {}),
	});
	const prompts = new VaultPrompts(vault, options.promptsFolder ?? (() => DEFAULT_PROMPTS_FOLDER));
	const methods = new Map<string, MethodHandler>([
		["resources/list", () => resources.list()],
		["resources/read", (params) => resources.read(params)],
		["resources/templates/list", () => ({ resourceTemplates: [] })],
		["prompts/list", (params) => prompts.list(params)],
		["prompts/get", (params) => prompts.get(params)],
	]);
	return { methods, capabilities: { resources: {}, prompts: {} } };
}
