import type { ToolDefinition } from "../protocol/mcp-types";
import { ToolRegistry } from "../protocol/tool-registry";
import { KeyedMutex } from "../shared/keyed-mutex";
import type { EditReview } from "../review/edit-proposal";
import type { ActiveNoteSource } from "./kit/ports";
import { DEFAULT_TEXT_CAP, type VaultToolEnvironment } from "./kit/tool-kit";
import { RegexScanner } from "./regex/regex-scanner";
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
import type { VisibleVault } from "../vault/privacy/visible-vault";
import type { YamlCodec } from "../shared/yaml-codec";

export interface VaultToolsOptions {
	/**
	 * The notes as the tools may see them: the vault's index (the folder adapter or Obsidian's) through its privacy
	 * boundary (`VaultPrivacy.visibleVault`), which also confines every path argument to the vault.
	 */
	vault: VisibleVault;
	/** The YAML the tools read and write frontmatter with: Obsidian's in the plugin, the `yaml` library's elsewhere. */
	yaml: YamlCodec;
	/**
	 * The review writes go through, asked per write so a settings switch takes effect at once. Returning
	 * undefined (or leaving this out) applies writes directly: review off.
	 */
	review?: () => EditReview | undefined;
	/** When this returns a reason, write tools answer it as an error and change nothing. */
	writesUnavailable?: () => string | undefined;
	/** The note open in the editor, for `active_note`. */
	activeNote?: ActiveNoteSource;
	/** Characters per text answer before it is cut (default 24,000). */
	textCap?: number;
	/**
	 * Where regex search runs (default: a scanner of its own, a Web Worker where the runtime has them, else a Node
	 * worker thread, started at the first regex search). A root that unloads (the plugin) passes one it disposes.
	 */
	regex?: RegexScanner;
}

/** Read tools first, then writes: the order `tools/list` shows. */
export const VAULT_TOOL_NAMES = [
	"search",
	"read_note",
	"outline",
	"links",
	"tags",
	"properties",
	"list_notes",
	"active_note",
	"create_note",
	"edit_note",
	"set_properties",
	"move_note",
] as const;

/** Claude's own vault tools, Obsidian-free, in the project's tool format; serve them with any McpSession. */
export function createVaultTools(options: VaultToolsOptions): ToolDefinition[] {
	const env: VaultToolEnvironment = {
		vault: options.vault,
		yaml: options.yaml,
		writes: new KeyedMutex(),
		review: options.review ?? (() => undefined),
		writesUnavailable: options.writesUnavailable ?? (() => undefined),
		textCap: options.textCap ?? DEFAULT_TEXT_CAP,
		regex: options.regex ?? new RegexScanner(),
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

/** The vault tools in a registry of their own, ready for `new McpSession({ tools, … })`. */
export function createVaultToolRegistry(options: VaultToolsOptions): ToolRegistry {
	const registry = new ToolRegistry();
	for (const tool of createVaultTools(options)) registry.register(tool);
	return registry;
}
