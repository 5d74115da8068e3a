import type { VaultPaths } from "../vault/vault-paths";
import type { ToolDefinition } from "../protocol/mcp-types";
import { ToolRegistry } from "../protocol/tool-registry";
import { KeyedMutex } from "../shared/keyed-mutex";
import type { ActiveNoteSource, WriteReview } from "./kit/ports";
import { DEFAULT_TEXT_CAP, type VaultToolEnvironment } from "./kit/tool-kit";
import { createActiveNoteTool } from "./tools/active-note";
import { createCreateNoteTool } from "./tools/create-note";
import { createEditNoteTool } from "./tools/edit-note";
import { createLinksTool } from "./tools/links";
import { createListNotesTool } from "./tools/list-notes";
import { createMoveNoteTool } from "./tools/move-note";
import { createOutlineTool } from "./tools/outline";
import { createPropertiesTool } from "./tools/properties";
import { createReadNoteTool } from "./tools/read-note";
import { createSearchTool } from "./tools/search";
import { createSetPropertiesTool } from "./tools/set-properties";
import { createTagsTool } from "./tools/tags";
import type { VaultIndex } from "../vault/notes/vault-index";
import { VisibleVault } from "../vault/privacy/visible-vault";

export interface VaultToolsOptions {
	/** The vault: the folder adapter (`FolderVaultIndex`) or Obsidian's. */
	index: VaultIndex;
	/** Confinement: every path argument must resolve inside this vault. */
	paths: VaultPaths;
	/** The privacy decision for a vault path (e.g. `(path) => privacy.isPrivate({ relative: path })`). */
	isPrivate: (relativePath: string) => boolean;
	/**
	 * The review writes go through, asked per write so a settings switch takes effect at once. Returning
	 * undefined (or leaving this out) applies writes directly: review off.
	 */
	review?: () => WriteReview | undefined;
	/** When this returns a reason, write tools answer it as an error and change nothing. */
	writesUnavailable?: () => string | undefined;
	/** The note open in the editor, for `active_note`. */
	activeNote?: ActiveNoteSource;
	/** Characters per text answer before it is cut (default 24,000). */
	textCap?: number;
}

/** Read tools first, then writes: the order `tools/list` shows. */
export const VAULT_TOOL_NAMES = ["search", "read_note", "outline", "links", "tags", "properties", "list_notes", "active_note", "create_note", "edit_note", "set_properties", "move_note"] as const;

/** Claude's own vault tools, Obsidian-free, in the project's tool format; serve them with any McpSession. */
export function createVaultTools(options: VaultToolsOptions): ToolDefinition[] {
	const env: VaultToolEnvironment = {
		vault: new VisibleVault({ index: options.index, paths: options.paths, isPrivate: options.isPrivate }),
		writes: new KeyedMutex(),
		review: options.review ?? (() => undefined),
		writesUnavailable: options.writesUnavailable ?? (() => undefined),
		textCap: options.textCap ?? DEFAULT_TEXT_CAP,
	};
	if (options.activeNote) env.activeNote = options.activeNote;
	return [
		createSearchTool(env),
		createReadNoteTool(env),
		createOutlineTool(env),
		createLinksTool(env),
		createTagsTool(env),
		createPropertiesTool(env),
		createListNotesTool(env),
		createActiveNoteTool(env),
		createCreateNoteTool(env),
		createEditNoteTool(env),
		createSetPropertiesTool(env),
		createMoveNoteTool(env),
	];
}

/**
 * A note's tags from the index's cached facts, for a privacy filter with tag rules: privacy is decided for every
 * note on every call, so it must not read files (the headless `FolderVault.tagsOf` does).
 */
export function tagsFromIndex(index: VaultIndex): (relativePath: string) => string[] {
	return (relativePath) => (index.tagsOf ? index.tagsOf(relativePath) : index.facts(relativePath)?.tags)?.map((tag) => tag.tag) ?? [];
}

/** The vault tools in a registry of their own, ready for `new McpSession({ tools, … })`. */
export function createVaultToolRegistry(options: VaultToolsOptions): ToolRegistry {
	const registry = new ToolRegistry();
	for (const tool of createVaultTools(options)) registry.register(tool);
	return registry;
}
