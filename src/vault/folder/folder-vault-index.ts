import { promises as fs } from "node:fs";
import { noteTags } from "../markdown/note-tags";
import { factsFromText } from "../notes/note-facts";
import { LineTable } from "../markdown/line-table";
import { LinksNotKeptError, NoteChangedError, type Backlink, type LinkFact, type NoteFacts, type RenameReport, type StrandedLink, type VaultIndex } from "../notes/vault-index";
import { ConfinedWrites } from "./confined-writes";
import { FolderNoteStore, MAX_CACHED_NOTE_BYTES, type FolderNoteStoreOptions } from "./folder-note-store";
import { rewriteLink } from "./link-rewrite";
import { describeError } from "../../shared/describe-error";

export type FolderVaultIndexOptions = Omit<FolderNoteStoreOptions, "onNoteChanged">;

interface ParsedNote {
	text: string;
	facts: NoteFacts;
	/** Structure version the link targets were resolved at. */
	resolvedAt: number;
}

interface BacklinkIndex {
	structureVersion: number;
	/** Resolved links of each note. */
	outgoing: Map<string, LinkFact[]>;
	/** Target → notes that link to it. */
	sources: Map<string, Set<string>>;
}

/**
 * The vault tools' index of a folder on disk (Obsidian closed, or the headless host): texts and facts cached per
 * note and refreshed per changed file; backlinks inverted once and then kept up to date note by note; renames
 * that rewrite every link to the note with the shared scanner's link positions (never inside code). Every write
 * checks at the moment of writing that it stays in the vault's own folders (`ConfinedWrites`).
 */
export class FolderVaultIndex implements VaultIndex {
	private readonly store: FolderNoteStore;
	private readonly writes: ConfinedWrites;
	private readonly parsed = new Map<string, ParsedNote>();
	/** `noteTags` of each note's text, read when privacy first asks. */
	private readonly tagsForPrivacy = new Map<string, { text: string; tags: readonly string[] }>();
	private backlinkIndex: BacklinkIndex | undefined;
	private readonly changedSinceBacklinks = new Set<string>();

	constructor(options: FolderVaultIndexOptions) {
		this.store = new FolderNoteStore({
			...options,
			onNoteChanged: (path) => {
				this.parsed.delete(path);
				this.tagsForPrivacy.delete(path);
				this.changedSinceBacklinks.add(path);
			},
		});
		this.writes = new ConfinedWrites(options.root);
	}

	refresh(): Promise<void> {
		this.store.refresh();
		return Promise.resolve();
	}

	notePaths(): readonly string[] {
		return this.store.notePaths();
	}

	async exists(path: string): Promise<boolean> {
		try {
			await fs.lstat(this.store.absolute(path));
			return true;
		} catch {
			return false;
		}
	}

	readText(path: string): Promise<string | undefined> {
		return Promise.resolve(this.store.text(path));
	}

	textNow(path: string): string | undefined {
		return this.store.text(path);
	}

	facts(path: string): NoteFacts | undefined {
		return this.factsNow(path);
	}

	resolveLink(linkpath: string, sourcePath: string, exists?: (path: string) => boolean): string | undefined {
		return this.store.files.resolve(linkpath, sourcePath, exists);
	}

	/**
	 * The note's tags as the privacy rules read them: `noteTags` (the IDE tools' reader: comments kept, a byte order
	 * mark skipped) of the text the tools would show, read once per version of the note. Undefined when it is not a
	 * note of the index. The facts' tags are for display (Obsidian's reading) and must not decide privacy.
	 */
	privacyTags(path: string): readonly string[] | undefined {
		const text = this.store.text(path);
		if (text === undefined) return undefined;
		const known = this.tagsForPrivacy.get(path);
		if (known?.text === text) return known.tags;
		const tags = noteTags(text);
		// A note too large for the store's cache is read again on each call: its text is not kept here either.
		if (text.length <= MAX_CACHED_NOTE_BYTES) this.tagsForPrivacy.set(path, { text, tags });
		return tags;
	}

	backlinks(path: string): Promise<Backlink[]> {
		const index = this.currentBacklinkIndex();
		const backlinks: Backlink[] = [];
		for (const source of index.sources.get(path) ?? []) {
			for (const link of index.outgoing.get(source) ?? []) if (link.target === path) backlinks.push({ source, link });
		}
		return Promise.resolve(backlinks);
	}

	async writeText(path: string, text: string, expected: string): Promise<void> {
		await this.writes.replace(path, text, expected);
		this.store.touched(path);
	}

	async createNote(path: string, text: string): Promise<void> {
		await this.writes.create(path, text);
		this.store.touched(path);
	}

	async renameNote(from: string, to: string): Promise<RenameReport> {
		this.store.refresh();
		const plan = this.planRename(from, to);
		await this.writes.move(from, to);
		const updates: RenameReport["updates"] = [];
		const problems: StrandedLink[] = [];
		for (const change of plan) {
			try {
				await this.writeText(change.path, change.text, change.before);
				updates.push({ path: change.path, links: change.links });
			} catch (error) {
				const reason = error instanceof NoteChangedError ? "it changed meanwhile" : describeError(error).split(this.store.root).join("");
				problems.push({ path: change.path, line: 0, original: "", reason: `its links could not be updated: ${reason}` });
			}
		}
		this.store.touched(from, to);
		if (problems.length > 0) throw new LinksNotKeptError(from, to, true, problems);
		return { updates };
	}

	dispose(): void {
		this.store.dispose();
	}

	private factsNow(path: string): NoteFacts | undefined {
		const text = this.store.text(path);
		if (text === undefined) return undefined;
		const version = this.store.structureVersion;
		let entry = this.parsed.get(path);
		if (!entry || entry.text !== text) {
			entry = { text, facts: factsFromText(path, text), resolvedAt: -1 };
			this.parsed.set(path, entry);
		}
		if (entry.resolvedAt !== version) {
			for (const link of entry.facts.links) {
				const target = this.store.files.resolve(link.linkpath, path);
				if (target === undefined) delete link.target;
				else link.target = target;
			}
			entry.resolvedAt = version;
		}
		return entry.facts;
	}

	private currentBacklinkIndex(): BacklinkIndex {
		const version = this.store.structureVersion;
		let index = this.backlinkIndex;
		if (!index || index.structureVersion !== version) {
			index = { structureVersion: version, outgoing: new Map(), sources: new Map() };
			for (const path of this.store.notePaths()) this.addOutgoing(index, path);
			this.changedSinceBacklinks.clear();
			this.backlinkIndex = index;
			return index;
		}
		for (const path of this.changedSinceBacklinks) {
			for (const link of index.outgoing.get(path) ?? []) if (link.target !== undefined) index.sources.get(link.target)?.delete(path);
			index.outgoing.delete(path);
			if (this.store.isNote(path)) this.addOutgoing(index, path);
		}
		this.changedSinceBacklinks.clear();
		return index;
	}

	private addOutgoing(index: BacklinkIndex, path: string): void {
		const facts = this.factsNow(path);
		if (!facts) return;
		index.outgoing.set(path, facts.links);
		for (const link of facts.links) {
			if (link.target === undefined) continue;
			let sources = index.sources.get(link.target);
			if (!sources) index.sources.set(link.target, (sources = new Set()));
			sources.add(path);
		}
	}

	/**
	 * The notes whose links must change for `from` to become `to`, with their new texts. Only links whose file
	 * name is the note's old or new name can change where they lead, plus the moved note's own links (its folder
	 * changes). Each is resolved before and (in the index, temporarily) after the move; every link whose target
	 * would change is rewritten, and the rewrite is checked to lead where the link led before.
	 */
	private planRename(from: string, to: string): { path: string; before: string; text: string; links: number }[] {
		const keys = new Set([nameKey(from), nameKey(to)]);
		const candidates = new Map<string, { text: string; links: { link: LinkFact; before: string }[] }>();
		for (const path of this.store.notePaths()) {
			const facts = this.factsNow(path);
			const text = this.store.text(path);
			if (!facts || text === undefined) continue;
			const links = facts.links.filter((link) => link.target !== undefined && (path === from || keys.has(nameKey(link.linkpath)) || (link.linkpath === "" && path === from)));
			if (links.length > 0) candidates.set(path, { text, links: links.map((link) => ({ link: { ...link }, before: link.target ?? "" })) });
		}
		const files = this.store.files;
		files.remove(from);
		files.add(to);
		try {
			const plan: { path: string; before: string; text: string; links: number }[] = [];
			const stranded: StrandedLink[] = [];
			for (const [path, note] of candidates) {
				const sourceAfter = path === from ? to : path;
				const replacements: { line: number; start: number; end: number; text: string }[] = [];
				for (const { link, before } of note.links) {
					const expected = before === from ? to : before;
					if (files.resolve(link.linkpath, sourceAfter) === expected) continue;
					const rewritten = rewriteLink(link, expected, sourceAfter, (linkpath) => files.resolve(linkpath, sourceAfter));
					if (rewritten === undefined) stranded.push({ path, line: link.line, original: link.original });
					else replacements.push({ line: link.line, start: link.start, end: link.end, text: rewritten });
				}
				if (replacements.length > 0) {
					plan.push({ path: sourceAfter, before: note.text, text: replaceOnLines(note.text, replacements), links: replacements.length });
				}
			}
			if (stranded.length > 0) throw new LinksNotKeptError(from, to, false, stranded);
			return plan;
		} finally {
			files.remove(to);
			files.add(from);
		}
	}
}

function nameKey(linkpath: string): string {
	const name = linkpath.slice(linkpath.lastIndexOf("/") + 1).toLowerCase();
	return name.endsWith(".md") ? name.slice(0, -3) : name;
}

function replaceOnLines(text: string, replacements: { line: number; start: number; end: number; text: string }[]): string {
	const table = new LineTable(text);
	let result = text;
	const ordered = [...replacements].sort((a, b) => b.line - a.line || b.start - a.start);
	for (const replacement of ordered) {
		const lineStart = table.starts[replacement.line] ?? 0;
		result = result.slice(0, lineStart + replacement.start) + replacement.text + result.slice(lineStart + replacement.end);
	}
	return result;
}
