/**
 * Claude Code's built-in file tools (Read, Grep, Glob, Edit, Write) read the vault directly, so the bridge's
 * privacy rules never see them. What keeps them out is a `permissions.deny` rule in a Claude Code settings file.
 *
 * Only `Read(path)` and `Edit(path)` rules take part in the CLI's file checks (2.1.330: a `Write(…)`,
 * `Glob(…)` or `NotebookEdit(…)` path rule gets the start-up warning "is not matched by file permission checks —
 * only Edit(path) rules are … Read rules cover all file-reading tools"; see the permissions page of Claude Code's
 * docs). A Read deny rule also makes Edit and Write refuse the file ("File is covered by a Read deny rule in your
 * permission settings and cannot be edited"), and Grep/Glob results leave such files out; the Edit rule is kept
 * as well so that creating a new note in the folder is refused whatever the CLI version.
 *
 * Paths are gitignore-style patterns; `./` anchors them at the folder Claude Code runs in, which is the vault
 * when it is started with the plugin's launch command.
 */

/** What stays out of Claude Code's file tools. */
export interface DenyRuleSources {
	/** Vault-relative private folders (the privacy rules' folders). */
	folders: readonly string[];
	/** The vault's config folder(s) (Obsidian's `Vault#configDir`); its plugin settings can hold API keys. */
	configDirs: readonly string[];
	/** Private tags: they cannot be written as path rules, so they only appear in `uncovered`. */
	tags: readonly string[];
}

export interface DenyRules {
	/** The rules, in a stable order, without duplicates. */
	rules: string[];
	/** The folders they cover, as given (normalised). */
	folders: string[];
	/** What the rules cannot cover, in words, for the preview and the docs. */
	uncovered: string[];
}

/** Obsidian's own trash folder: a deleted private note lands there with its text. */
export const VAULT_TRASH_FOLDER = ".trash";

export function denyRulesFor(sources: DenyRuleSources): DenyRules {
	const privateFolders = sources.folders.map(normaliseFolder).filter((folder) => folder !== "");
	const tags = sources.tags.map((tag) => tag.trim()).filter((tag) => tag !== "");
	// The trash matters once something is private: a deleted private note keeps its text there.
	const trash = privateFolders.length > 0 || tags.length > 0 ? [VAULT_TRASH_FOLDER] : [];
	const folders = unique(
		[...privateFolders, ...sources.configDirs.map(normaliseFolder), ...trash].filter((folder) => folder !== ""),
	);
	const rules = unique(
		folders.flatMap((folder) =>
			["Read", "Edit"].flatMap((tool) =>
				patternsFor(folder).map((pattern) => `${tool}(${escapeRuleContent(pattern)})`),
			),
		),
	);
	const uncovered: string[] = [];
	if (tags.length > 0) {
		uncovered.push(
			`Notes made private by a tag (${tags.map((tag) => (tag.startsWith("#") ? tag : `#${tag}`)).join(", ")}) are not covered: a tag is not a path, so Claude Code's Read and Grep can still open them. Move such notes into a private folder.`,
		);
	}
	uncovered.push(
		"Shell commands (Bash) are not covered by these rules: cat or grep run by Claude Code can still read any file the user can.",
	);
	return { rules, folders, uncovered };
}

/**
 * Whether a rule has the shape of those `denyRulesFor` writes: `Read(./…)` or `Edit(./…)` over a path inside the
 * folder Claude Code runs in. What the record file lists is checked with this before any rule is taken out: a
 * record is vault data, and must not name the user's own rules of other kinds for removal.
 */
export function hasBridgeRuleShape(rule: string): boolean {
	const match = /^(?:Read|Edit)\(\.\/(.+)\)$/.exec(rule);
	return (
		match?.[1] !== undefined &&
		match[1].split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..")
	);
}

/** Both the folder itself and everything under it: `./X` alone is not documented to cover its children. */
function patternsFor(folder: string): string[] {
	const escaped = escapeGitignore(folder);
	return [`./${escaped}`, `./${escaped}/**`];
}

/** As the privacy rules read a folder: trimmed, forward slashes, no leading or trailing slash; "" for one outside the vault. */
export function normaliseFolder(folder: string): string {
	const segments = folder
		.trim()
		.replace(/\\/g, "/")
		.split("/")
		.filter((segment) => segment !== "" && segment !== ".");
	return segments.includes("..") ? "" : segments.join("/");
}

/** A folder name taken literally by a gitignore-style matcher: its wildcard and escape characters escaped (a leading `!` or `#` cannot occur after `./`). */
export function escapeGitignore(path: string): string {
	return path.replace(/[\\*?[\]]/g, (character) => `\\${character}`);
}

/**
 * The CLI reads a rule's content by replacing `\(` and `\)` with parentheses, then `\\` with one backslash
 * (2.1.330's rule parser), so a backslash is doubled first and parentheses escaped after.
 */
export function escapeRuleContent(content: string): string {
	return content.replace(/\\/g, "\\\\").replace(/[()]/g, (paren) => `\\${paren}`);
}

function unique(values: readonly string[]): string[] {
	return [...new Set(values)];
}
