import { VaultPathError, type VaultPaths } from "../vault-paths";
import type { Backlink, FrontmatterFact, NoteFacts, RenameReport, TagFact, VaultIndex } from "../notes/vault-index";

/** A path argument that names no visible note, or a place a tool may not write: the message is for the model. */
export class VaultToolError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "VaultToolError";
	}
}

export interface VisibleVaultOptions {
	index: VaultIndex;
	paths: VaultPaths;
	/** The privacy decision (the project's PrivacyFilter.isPrivateRelative): a private note does not exist here. */
	isPrivate: (relativePath: string) => boolean;
}

/**
 * The vault as the tools may see it: confinement and privacy applied once, at the port. Hidden files (a path
 * part starting with a dot) and private notes do not exist for any tool: they are not listed, links to them
 * are unresolved, links from them are not backlinks, their tags and properties are not counted, and asking
 * for one by name answers exactly like a missing note. Paths from the model are vault paths or wikilink targets;
 * anything outside the vault (`..`, absolute paths elsewhere, symbolic links that lead out) is refused.
 */
export class VisibleVault {
	/** Decisions about paths that are not notes (attachments, folders), made afresh after each refresh. */
	private others = new Map<string, boolean>();
	private sorted: { from: readonly string[]; paths: readonly string[]; all: ReadonlySet<string> } | undefined;
	private visiblePaths: string[] | undefined;
	/** The visible notes as a set, rebuilt only when the list changed. */
	private visibleSet: { of: readonly string[]; set: Set<string> } | undefined;
	private readonly withoutLinks = new WeakMap<NoteFacts, NoteFacts>();

	constructor(private readonly options: VisibleVaultOptions) {}

	async refresh(): Promise<void> {
		await this.options.index.refresh();
		// Privacy may depend on settings and on tags, which may have changed since the last call.
		this.others = new Map();
		this.visiblePaths = undefined;
	}

	isVisible(path: string): boolean {
		const paths = this.notePaths();
		if (this.visibleSet?.of !== paths) this.visibleSet = { of: paths, set: new Set(paths) };
		if (this.visibleSet.set.has(path)) return true;
		if (this.sorted?.all.has(path)) return false;
		let answer = this.others.get(path);
		if (answer === undefined) {
			answer = !isHidden(path) && !this.options.isPrivate(path);
			this.others.set(path, answer);
		}
		return answer;
	}

	/** Every visible note, in a stable order (by path, code-unit order). Decided afresh after each refresh. */
	notePaths(): readonly string[] {
		if (this.visiblePaths) return this.visiblePaths;
		const all = this.options.index.notePaths();
		if (this.sorted?.from !== all) this.sorted = { from: all, paths: isSorted(all) ? all : [...all].sort(comparePaths), all: new Set(all) };
		const isPrivate = this.options.isPrivate;
		const visible = this.sorted.paths.filter((path) => !isHidden(path) && !isPrivate(path));
		const previous = this.visibleSet?.of;
		// Usually nothing changed: keep the previous list (and its set) rather than rebuilding them.
		this.visiblePaths = previous && sameList(previous, visible) ? (previous as string[]) : visible;
		return this.visiblePaths;
	}

	async readText(path: string): Promise<string | undefined> {
		return this.isVisible(path) ? this.options.index.readText(path) : undefined;
	}

	/** `readText`, answered without a promise when the index has the text at hand (searches read every note). */
	textNow(path: string): string | undefined | Promise<string | undefined> {
		if (!this.isVisible(path)) return undefined;
		const index = this.options.index;
		return index.textNow ? index.textNow(path) : index.readText(path);
	}

	/** A visible note's tags (what tag search and the tag overviews ask of every note, without its other facts). */
	tagsOf(path: string): readonly TagFact[] | undefined {
		if (!this.isVisible(path)) return undefined;
		const index = this.options.index;
		return index.tagsOf ? index.tagsOf(path) : index.facts(path)?.tags;
	}

	/** A visible note's frontmatter (what property search and the property overview ask of every note, without its other facts). */
	frontmatterOf(path: string): FrontmatterFact | undefined {
		if (!this.isVisible(path)) return undefined;
		const index = this.options.index;
		return index.frontmatterOf ? index.frontmatterOf(path) : index.facts(path)?.frontmatter;
	}

	/** A visible note's search text (`searchTextOf`) when the index keeps one; undefined otherwise. */
	searchText(path: string): Buffer | undefined {
		return this.isVisible(path) ? this.options.index.searchText?.(path) : undefined;
	}

	/**
	 * `searchText` of each path in turn, for a search over many notes: given `notePaths()` itself (the same array),
	 * every path is known to be visible and is not looked up again (a lookup per note is a tenth of a search over
	 * 100k notes); any other list is checked path by path.
	 */
	forEachSearchText(paths: readonly string[], each: (path: string, text: Buffer) => void): void {
		const index = this.options.index;
		if (!index.searchText) return;
		const checked = paths !== this.notePaths();
		for (const path of paths) {
			if (checked && !this.isVisible(path)) continue;
			const text = index.searchText(path);
			if (text) each(path, text);
		}
	}

	/** Whether the index keeps search texts (else the search makes its own from the notes' texts). */
	get keepsSearchTexts(): boolean {
		return this.options.index.searchText !== undefined;
	}

	/** A note's facts; links to notes that are not visible are unresolved. `withLinks: false` skips the links (faster). */
	facts(path: string, withLinks = true): NoteFacts | undefined {
		if (!this.isVisible(path)) return undefined;
		const facts = this.options.index.facts(path);
		if (!facts) return undefined;
		if (!withLinks) {
			let bare = this.withoutLinks.get(facts);
			if (!bare) this.withoutLinks.set(facts, (bare = { ...facts, links: [] }));
			return bare;
		}
		if (!facts.links.some((link) => link.target !== undefined && !this.isVisible(link.target))) return facts;
		return {
			...facts,
			links: facts.links.map((link) => {
				if (link.target === undefined || this.isVisible(link.target)) return link;
				const hidden = { ...link };
				delete hidden.target;
				return hidden;
			}),
		};
	}

	resolveLink(linkpath: string, sourcePath: string): string | undefined {
		const target = this.options.index.resolveLink(linkpath, sourcePath);
		return target !== undefined && this.isVisible(target) ? target : undefined;
	}

	async backlinks(path: string): Promise<Backlink[]> {
		if (!this.isVisible(path)) return [];
		return (await this.options.index.backlinks(path)).filter((backlink) => this.isVisible(backlink.source));
	}

	/**
	 * The visible note a path argument names: a vault path (with or without `.md`), an absolute path inside the
	 * vault, or a wikilink target (`Note`, `[[Note]]`, `Folder/Note`) resolved as Obsidian resolves it.
	 */
	locateNote(input: string, argument = "path"): string {
		const cleaned = cleanPathArgument(input);
		const relative = this.confine(cleaned, argument);
		for (const candidate of [relative, `${relative}.md`]) {
			if (this.isNote(candidate) && this.isVisible(candidate) && this.sorted?.all.has(candidate) === true) return candidate;
		}
		const resolved = this.resolveLink(cleaned.replace(/^\/+/, "").split("#", 1)[0] ?? "", "");
		if (resolved !== undefined && resolved.toLowerCase().endsWith(".md")) return resolved;
		throw new VaultToolError(`No note "${input}" in the vault. Use search (mode "path") or list_notes to find the note's path.`);
	}

	/**
	 * A vault path where a tool may put a new note: inside the vault, not hidden, not private, a `.md` file
	 * (`.md` is added when the name has no extension), nothing there yet.
	 */
	async locateNewNote(input: string, argument: string): Promise<string> {
		const cleaned = cleanPathArgument(input);
		let relative = this.confine(cleaned, argument);
		if (relative === "" || /[\\/]$/.test(cleaned)) throw new VaultToolError(`"${argument}" must name a note, not a folder: ${input} (give the full path, e.g. "${relative === "" ? "" : `${relative}/`}Name.md")`);
		const name = relative.slice(relative.lastIndexOf("/") + 1);
		if (!name.includes(".")) {
			if (await this.options.index.exists(relative)) throw new VaultToolError(`"${argument}" names a folder: ${input}; give the note's full new path, e.g. "${relative}/Name.md"`);
			relative = `${relative}.md`;
		}
		else if (!relative.toLowerCase().endsWith(".md")) throw new VaultToolError(`"${argument}" must be a Markdown note (.md): ${input}`);
		if (isHidden(relative)) throw new VaultToolError(`Refused: ${relative} is in a hidden folder or is a hidden file; vault tools never write there`);
		if (this.options.isPrivate(relative)) throw new VaultToolError(`Refused: ${relative} is not available to vault tools (a private folder or excluded file)`);
		if (await this.options.index.exists(relative)) {
			if (!this.isVisible(relative)) {
				throw new VaultToolError(`Refused: ${relative} is not available to vault tools (a private folder or excluded file)`);
			}
			throw new VaultToolError(`Refused: ${relative} already exists; vault tools never overwrite. Use edit_note to change it, or choose another path.`);
		}
		return relative;
	}

	writeText(path: string, text: string, expected: string): Promise<void> {
		this.assertVisible(path);
		return this.options.index.writeText(path, text, expected);
	}

	createNote(path: string, text: string): Promise<void> {
		return this.options.index.createNote(path, text);
	}

	/** Renames; the report lists only visible notes (links in private notes are kept working but not reported). */
	async renameNote(from: string, to: string): Promise<RenameReport> {
		this.assertVisible(from);
		const report = await this.options.index.renameNote(from, to);
		return { updates: report.updates.filter((update) => this.isVisible(update.path)) };
	}

	private isNote(path: string): boolean {
		return path.toLowerCase().endsWith(".md");
	}

	private assertVisible(path: string): void {
		if (!this.isVisible(path)) throw new VaultToolError(`No note "${path}" in the vault.`);
	}

	/** The vault-relative path of an argument, refusing anything outside the vault. */
	private confine(cleaned: string, argument: string): string {
		try {
			const location = this.options.paths.resolve(cleaned);
			if (location.realRelative !== undefined && (isHidden(location.realRelative) || this.options.isPrivate(location.realRelative))) {
				throw new VaultToolError(`No note "${cleaned}" in the vault.`);
			}
			return location.relative;
		} catch (error) {
			if (error instanceof VaultPathError) throw new VaultToolError(`"${argument}" refused: ${error.message}. Vault tools only reach notes inside the vault.`);
			throw error;
		}
	}
}

/** `[[Note|alias]]` → `Note`; surrounding space and a leading `./` removed. */
function cleanPathArgument(input: string): string {
	let text = input.trim();
	const wikilink = /^!?\[\[([^\]]*)\]\]$/.exec(text);
	if (wikilink) text = (wikilink[1] ?? "").split("|", 1)[0] ?? "";
	return text.replace(/^\.\//, "").trim();
}

function isHidden(path: string): boolean {
	return path.startsWith(".") || path.includes("/.");
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
	if (a.length !== b.length) return false;
	for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
	return true;
}

function isSorted(paths: readonly string[]): boolean {
	for (let index = 1; index < paths.length; index++) if (comparePaths(paths[index - 1] ?? "", paths[index] ?? "") > 0) return false;
	return true;
}

function comparePaths(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}
