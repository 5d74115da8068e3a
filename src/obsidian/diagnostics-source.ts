import { Component, type CachedMetadata, type EventRef, type Pos } from "obsidian";
import { checkFrontmatter, type YamlParser } from "../bridge/diagnostics/frontmatter-check";
import { isExternalTarget } from "../bridge/diagnostics/link-syntax";
import type { FrontmatterProblem, NoteBlockId, NoteLink, NoteMetadata } from "../bridge/diagnostics/note-metadata";
import type { NoteSource } from "../bridge/diagnostics/note-source";
import type { TextRange } from "../bridge/diagnostics/diagnostic-types";
import { splitLines } from "../bridge/diagnostics/text-lines";

/** The file fields the source reads; Obsidian's TFile has them. */
export interface NoteFile {
	path: string;
	extension: string;
}

/** A file or folder as vault events name it (TAbstractFile). */
export interface VaultItem {
	path: string;
}

/** The parts of `app.vault` the source uses. */
export interface NotesVault {
	getMarkdownFiles(): NoteFile[];
	getFileByPath(path: string): NoteFile | null;
	cachedRead(file: NoteFile): Promise<string>;
	on(name: "create", callback: (file: VaultItem) => unknown): EventRef;
	on(name: "delete", callback: (file: VaultItem) => unknown): EventRef;
	on(name: "rename", callback: (file: VaultItem, oldPath: string) => unknown): EventRef;
}

/** The parts of `app.metadataCache` the source uses. */
export interface NotesMetadataCache {
	getFileCache(file: NoteFile): CachedMetadata | null;
	getFirstLinkpathDest(linkpath: string, sourcePath: string): NoteFile | null;
	on(name: "changed", callback: (file: NoteFile, data: string, cache: CachedMetadata) => unknown): EventRef;
}

export interface ObsidianNoteSourceOptions {
	vault: NotesVault;
	metadataCache: NotesMetadataCache;
	/** `parseYaml` from the obsidian module. */
	parseYaml: YamlParser;
}

/**
 * Feeds the diagnostics engine from Obsidian's metadata cache: links, headings, block ids and code sections
 * come from `getFileCache`, link resolution from `getFirstLinkpathDest`. Only the frontmatter check needs the
 * note's text; it comes with each `changed` event, and is read once for notes whose frontmatter Obsidian
 * recognised but could not parse (`frontmatterPosition` or a leading yaml section, and no `frontmatter`).
 */
export class ObsidianNoteSource extends Component implements NoteSource {
	private readonly notes = new Map<string, NoteMetadata>();
	/** Result of the text-based frontmatter check per note; null when the frontmatter is valid or absent. */
	private readonly frontmatter = new Map<string, FrontmatterProblem | null>();
	/** Notes whose frontmatter must be checked from their text before the next answer. */
	private readonly needText = new Set<string>();
	private structureChanges = 0;
	private warm = false;

	constructor(private readonly options: ObsidianNoteSourceOptions) {
		super();
	}

	override onload(): void {
		const { vault, metadataCache } = this.options;
		this.registerEvent(
			metadataCache.on("changed", (file, data) => {
				this.notes.delete(file.path);
				this.frontmatter.set(file.path, checkFrontmatter(splitLines(data), this.options.parseYaml) ?? null);
				this.needText.delete(file.path);
			}),
		);
		this.registerEvent(vault.on("create", () => this.structureChanges++));
		this.registerEvent(vault.on("delete", (file) => this.forget(file.path)));
		this.registerEvent(
			vault.on("rename", (file, oldPath) => {
				this.forget(oldPath);
				this.forget(file.path);
			}),
		);
	}

	get structureVersion(): number {
		return this.structureChanges;
	}

	/** Builds every note's metadata and reads the frontmatter Obsidian could not parse, e.g. once the layout is ready. */
	async refresh(): Promise<void> {
		if (!this.warm) {
			this.warm = true;
			for (const path of this.notePaths()) this.metadata(path);
		}
		const paths = [...this.needText];
		this.needText.clear();
		await Promise.all(paths.map((path) => this.checkText(path)));
	}

	async refreshNote(path: string): Promise<void> {
		this.metadata(path);
		if (this.needText.delete(path)) await this.checkText(path);
	}

	*notePaths(): Iterable<string> {
		for (const file of this.options.vault.getMarkdownFiles()) yield file.path;
	}

	metadata(path: string): NoteMetadata | undefined {
		const known = this.notes.get(path);
		if (known) return known;
		const file = this.options.vault.getFileByPath(path);
		if (!file || file.extension !== "md") return undefined;
		const cache = this.options.metadataCache.getFileCache(file);
		// Not indexed yet: nothing to report, and nothing cached so the next call looks again.
		if (!cache) return emptyMetadata(path);
		const metadata = toNoteMetadata(path, cache);
		const problem = this.frontmatter.get(path);
		if (problem) metadata.frontmatterProblem = problem;
		else if (problem === undefined && frontmatterDidNotParse(cache)) this.needText.add(path);
		this.notes.set(path, metadata);
		return metadata;
	}

	resolveLink(linkpath: string, sourcePath: string): string | undefined {
		if (linkpath === "") return sourcePath;
		return this.options.metadataCache.getFirstLinkpathDest(linkpath, sourcePath)?.path;
	}

	private forget(path: string): void {
		this.notes.delete(path);
		this.frontmatter.delete(path);
		this.needText.delete(path);
		this.structureChanges++;
	}

	private async checkText(path: string): Promise<void> {
		const file = this.options.vault.getFileByPath(path);
		if (!file) return;
		try {
			const text = await this.options.vault.cachedRead(file);
			this.frontmatter.set(path, checkFrontmatter(splitLines(text), this.options.parseYaml) ?? null);
			this.notes.delete(path);
		} catch {
			// Unreadable now; a later change event brings the text.
		}
	}
}

/** Obsidian found a frontmatter block (it records its position) but produced no properties from it. */
function frontmatterDidNotParse(cache: CachedMetadata): boolean {
	return cache.frontmatter === undefined && (cache.frontmatterPosition !== undefined || cache.sections?.[0]?.type === "yaml");
}

function toNoteMetadata(path: string, cache: CachedMetadata): NoteMetadata {
	const links: NoteLink[] = [];
	for (const [items, embed] of [[cache.links ?? [], false], [cache.embeds ?? [], true]] as const) {
		for (const item of items) {
			const link = toNoteLink(item.link, item.original, item.position, embed);
			if (link) links.push(link);
		}
	}
	return {
		path,
		links,
		headings: (cache.headings ?? []).map((heading) => ({ text: heading.heading, level: heading.level, range: toRange(heading.position) })),
		blockIds: blockIdsOf(cache),
		codeRanges: (cache.sections ?? []).filter((section) => section.type === "code").map((section) => toRange(section.position)),
	};
}

function toNoteLink(target: string, original: string, position: Pos, embed: boolean): NoteLink | undefined {
	if (isExternalTarget(target)) return undefined;
	const hash = target.indexOf("#");
	const linkpath = (hash < 0 ? target : target.slice(0, hash)).trim();
	const subpath = hash < 0 ? "" : target.slice(hash + 1).trim();
	if (linkpath === "" && subpath === "") return undefined;
	const link: NoteLink = { embed, linkpath, original, range: toRange(position) };
	if (subpath !== "") link.subpath = subpath;
	return link;
}

/**
 * `cache.blocks` keeps one entry per id, so repeats are found in the ids of sections and list items. Obsidian
 * gives the block's position, not the marker's; the marker is taken to end the block's last line.
 */
function blockIdsOf(cache: CachedMetadata): NoteBlockId[] {
	const byLine = new Map<number, NoteBlockId>();
	for (const item of [...(cache.sections ?? []), ...(cache.listItems ?? [])]) {
		if (!item.id) continue;
		const end = item.position.end;
		if (byLine.has(end.line)) continue;
		const start = Math.max(0, end.col - item.id.length - 1);
		byLine.set(end.line, { id: item.id, range: { start: { line: end.line, character: start }, end: { line: end.line, character: end.col } } });
	}
	return [...byLine.values()].sort((a, b) => a.range.start.line - b.range.start.line);
}

function toRange(position: Pos): TextRange {
	return {
		start: { line: position.start.line, character: position.start.col },
		end: { line: position.end.line, character: position.end.col },
	};
}

function emptyMetadata(path: string): NoteMetadata {
	return { path, links: [], headings: [], blockIds: [], codeRanges: [] };
}
