import { promises as fs } from "node:fs";
import {
	factsFromText,
	linkFactsFromText,
	frontmatterOfBlock,
	tagsAndFrontmatterFromText,
	tagsFromBytes,
	tagsOfBytes,
} from "../notes/note-facts";
import { LineTable } from "../markdown/line-table";
import type { YamlCodec } from "../../shared/yaml-codec";
import { libraryYamlCodec } from "./yaml-library-codec";
import type { FrontmatterFact, LinkFact, NoteFacts, TagFact } from "../markdown/note-model";
import {
	LinksNotKeptError,
	NoteChangedError,
	completeBacklinks,
	type Backlink,
	type BacklinksFound,
	type BacklinksWanted,
	type RenameReport,
	type StrandedLink,
	type VaultIndex,
} from "../notes/vault-index";
import { ConfinedWrites } from "./confined-writes";
import {
	FolderNoteStore,
	NoteMemo,
	comparePaths,
	type FolderNoteStoreOptions,
	type NoteText,
} from "./folder-note-store";
import { BacklinkIndex } from "./backlink-index";
import { LinkTargetFilter, mayLeadTo } from "./link-target-filter";
import { rewriteLink } from "./link-rewrite";
import { SearchTextSlabs } from "./search-text-slabs";
import {
	filesSignature,
	sameFiles,
	type SavedFolderIndex,
	type SavedNote,
	type SavedNotes,
} from "./saved-folder-index";
import { describeError } from "../../shared/describe-error";
import { ownString, ownStrings } from "../../shared/own-string";

/**
 * While more than this share of the notes has no link paths known yet (a vault's first session, before its warm-up
 * read them), a backlinks question reads the notes with `LinkTargetFilter` and scans only those that may link to the
 * note, rather than having the reverse index scan every note's links first.
 */
const UNREAD_SHARE_FOR_FILTER = 1 / 4;

/** How many targets' passes of that kind are kept (for the files and note changes they began at). */
const FILTERED_TARGETS_KEPT = 8;
/**
 * How many notes a backlinks question asked of a part of the vault (`backlinksFrom`) looks at even when its time is
 * up, so that each page goes on (a page whose start-up took its time would otherwise look at none).
 */
const MIN_NOTES_PER_ASK = 64;
/** How often (in notes) such a pass looks at the clock. */
const DEADLINE_EVERY = 16;

/** A pass of `LinkTargetFilter` over the notes in path order, for one target: where it is and what it found so far. */
interface FilterScan {
	readonly paths: readonly string[];
	readonly filter: LinkTargetFilter;
	/** The position in `paths` of the next note to look at. */
	next: number;
	/** The notes with a link that leads to the target, in path order. */
	readonly sources: string[];
	/** Whether the target is one of them (a link to its own heading). */
	self?: boolean;
	/**
	 * How far the last pass for the target went before a change had this one begin again: this one looks that far
	 * whatever the time, so that pages asked while notes keep changing still get further each time.
	 */
	readonly floor: number;
}

/** How many notes' whole facts (headings, blocks, every link with its place) are kept: the notes read last. */
const WHOLE_FACTS_KEPT = 1024;

interface ParsedNote {
	facts: NoteFacts;
	/** Structure version the link targets were resolved at. */
	resolvedAt: number;
}

interface NoteLinks {
	links: LinkFact[];
	/** Structure version the link targets were resolved at. */
	resolvedAt: number;
}

/** What backlinks and renames need of every note: its link paths, and where they lead as of `resolvedAt`. */
interface Outgoing {
	/** Each link path once. */
	linkpaths: readonly string[];
	/** The notes (and files) they lead to, each once. */
	targets: readonly string[];
	/** Structure version the targets were resolved at. */
	resolvedAt: number;
}

/**
 * A saved note's link targets (for the files they were saved for) and its link paths, each made from the saved index
 * only when asked (the targets for a save or after a note changed, the link paths when files come or go, or for a
 * rename). A line without readable link paths counts as none: the file is only ever replaced whole, so only someone
 * editing it makes one.
 */
class SavedOutgoing implements Outgoing {
	private madeLinkpaths: readonly string[] | undefined;
	private madeTargets: readonly string[] | undefined;

	constructor(
		private readonly notes: SavedNotes,
		private readonly row: number,
		public resolvedAt: number,
	) {}

	get linkpaths(): readonly string[] {
		this.madeLinkpaths ??= this.notes.linkpaths(this.row) ?? [];
		return this.madeLinkpaths;
	}

	get targets(): readonly string[] {
		this.madeTargets ??= this.notes.targets(this.row) ?? [];
		return this.madeTargets;
	}

	set targets(targets: readonly string[]) {
		this.madeTargets = targets;
	}
}

/** A note's tags and frontmatter (one YAML parse for both). */
interface Description {
	readonly tags: readonly TagFact[];
	readonly frontmatter?: FrontmatterFact | undefined;
}

/**
 * A note's tags, and its frontmatter made only when asked (a tags overview of 100k notes makes no property objects):
 * from the saved index's line, or from the note's frontmatter block when it holds no tag key. A saved line without a
 * readable frontmatter counts as none: the file is only ever replaced whole, so only someone editing it makes one.
 */
class LazyDescription implements Description {
	private made: FrontmatterFact | undefined;

	constructor(
		readonly tags: readonly TagFact[],
		private make: (() => FrontmatterFact | undefined) | undefined,
	) {}

	get frontmatter(): FrontmatterFact | undefined {
		if (this.make) {
			this.made = this.make();
			this.make = undefined;
		}
		return this.made;
	}
}

/**
 * The vault tools' index of a folder on disk (Obsidian closed, or the headless host), over the folder's one store
 * (`FolderVault`). For every note it keeps only what questions about the whole vault need, per note version: the
 * search text (`searchTextOf`, in a few large buffers outside the JavaScript heap), the link paths with their
 * targets, the tags and the frontmatter; a note's whole facts are made from its text on disk when asked for (the
 * last ones kept). Backlinks are the notes whose targets hold the note (targets resolved again after files came or
 * went). Renames rewrite every link to the note with the shared scanner's link positions (never inside code).
 * Every write checks at the moment of writing that it stays in the vault's own folders (`ConfinedWrites`).
 */
export class FolderVaultIndex implements VaultIndex {
	private readonly store: FolderNoteStore;
	/** Whether the store is this index's own (made from options) and goes with it. */
	private readonly ownsStore: boolean;
	private readonly writes: ConfinedWrites;
	private readonly searchTexts: SearchTextSlabs;
	private readonly outgoing: NoteMemo<Outgoing>;
	/** Each note's tags and frontmatter (one YAML parse for both). */
	private readonly described: NoteMemo<Description>;
	private readonly parsed: NoteMemo<ParsedNote>;
	/** The links alone of the notes asked for last (backlinks read them: no YAML, headings or blocks). */
	private readonly links: NoteMemo<NoteLinks>;
	private readonly backlinkIndex: BacklinkIndex;
	/**
	 * The passes with `LinkTargetFilter` made last, by target (a few: privacy asks for a hidden namesake's too), as
	 * far as each went, for the files and note changes they began at: kept while no note changed and no file came or
	 * went, so that the next page of backlinks goes on where the last stopped.
	 */
	private filtered:
		{ version: number; changes: number; watched: number | undefined; scans: Map<string, FilterScan> } | undefined;
	/** How far the last filtered pass for each target went (`FilterScan.floor`). */
	private readonly reached = new Map<string, number>();
	/**
	 * Tags of notes only glanced at (no stamp, nothing else kept: a first session's tags overview before the warm-up
	 * read the notes), for the files, note changes and watcher count they were read at; the warm-up's reading of a
	 * note takes its entry out.
	 */
	private glanced:
		{ version: number; changes: number; watched: number; tags: Map<string, readonly TagFact[]> } | undefined;
	/** Counts the notes found changed (or added or removed). */
	private noteChanges = 0;
	/** Notes changed since the summaries were last saved (or loaded). */
	private changedSinceSave = 0;
	private loadedSaved = false;
	/** How many notes' summaries were taken up from the saved index (at the first refresh). */
	private takenUp = 0;
	/**
	 * Whether the saved index holds every note listed, as its file is now, with where its links lead: true from a
	 * first refresh that took up every note, false once a note's saved line is found unusable; `changedSinceSave`
	 * counts the changes since.
	 */
	private savedHoldsAll = false;
	private readonly unsubscribe: () => void;

	/**
	 * Over a folder's shared store, or (given options) over a store of its own; the YAML codec is the `yaml` library's
	 * unless given. With `saved`, the summaries of the last session are taken up at the first refresh and saved again
	 * by `save` (and on dispose when notes changed since).
	 */
	constructor(
		source: FolderNoteStore | FolderNoteStoreOptions,
		private readonly yaml: YamlCodec = libraryYamlCodec,
		private readonly saved?: SavedFolderIndex,
	) {
		this.ownsStore = !(source instanceof FolderNoteStore);
		this.store = source instanceof FolderNoteStore ? source : new FolderNoteStore(source);
		this.writes = new ConfinedWrites(this.store.root);
		this.searchTexts = new SearchTextSlabs(this.store);
		// Kept for every note: own strings, not views into the note's text (which would keep every text in memory).
		this.outgoing = new NoteMemo(this.store, (_path, read) => ({
			linkpaths: distinct(linkFactsFromText(read.text).map((link) => link.linkpath)).map(ownString),
			targets: [],
			resolvedAt: -1,
		}));
		// A tags overview reads every note: most are read from their bytes, decoding only the frontmatter.
		this.described = new NoteMemo(
			this.store,
			(_path, read) => ownedDescription(tagsAndFrontmatterFromText(read.text, yaml)),
			Infinity,
			(_path, bytes) => {
				const described = tagsFromBytes(bytes, yaml);
				if (!described?.later) return described && ownedDescription(described);
				const { tags } = ownedDescription({ tags: described.tags });
				const block = { endLine: described.later.endLine, yaml: ownString(described.later.yaml) };
				return new LazyDescription(tags, () => {
					const made = frontmatterOfBlock(block, yaml);
					return made && ownedDescription({ tags: [], frontmatter: made }).frontmatter;
				});
			},
		);
		this.parsed = new NoteMemo(
			this.store,
			(path, read) => ({ facts: factsFromText(path, read.text, yaml), resolvedAt: -1 }),
			WHOLE_FACTS_KEPT,
		);
		this.links = new NoteMemo(
			this.store,
			(_path, read) => ({ links: linkFactsFromText(read.text), resolvedAt: -1 }),
			WHOLE_FACTS_KEPT,
		);
		this.backlinkIndex = new BacklinkIndex(this.store, (source) => this.targetsOf(source));
		this.unsubscribe = this.store.onNoteChanged(() => {
			this.changedSinceSave++;
			this.noteChanges++;
		});
	}

	refresh(): Promise<void> {
		if (this.loadedSaved) this.store.refresh();
		else this.loadSaved();
		return Promise.resolve();
	}

	/** How many notes' tags are kept from a glance (`tagsOf` before the notes were read with their stamps). */
	get glancedNotes(): number {
		return this.glanced?.tags.size ?? 0;
	}

	/** How many notes' summaries the first refresh took up from the saved index. */
	get savedNotesTakenUp(): number {
		return this.takenUp;
	}

	/**
	 * Saves the summaries of every note made so far (its link paths, tags and frontmatter, with the stamp of the text
	 * they were made from), for the next session on the vault; nothing without a saved index.
	 */
	save(): void {
		if (!this.saved) return;
		// Nothing to add to the file this session took up whole (a later session's warm-up wrote the same lines again).
		if (this.savedHoldsAll && this.changedSinceSave === 0) return;
		const notes: SavedNote[] = [];
		for (const path of this.store.notePaths()) {
			let outgoing = this.outgoing.peek(path);
			let described = this.described.peek(path);
			if (!outgoing && !described) continue;
			// A note asked for one of the two since it changed: the other is made from the same text now.
			outgoing ??= this.outgoing.get(path);
			described ??= this.described.get(path);
			const stamp = this.store.stampOf(path);
			// Both still kept (a read that found the note changed drops both): made from the text of this stamp.
			if (!stamp || outgoing !== this.outgoing.peek(path) || described !== this.described.peek(path)) continue;
			if (!outgoing || !described) continue;
			const note: SavedNote = { path, stamp, linkpaths: outgoing.linkpaths, tags: described.tags };
			if (described.frontmatter) note.frontmatter = described.frontmatter;
			// Where its links lead now (found now if not yet): a later session with the same files needs no resolving.
			note.targets = this.targetsOf(path) ?? [];
			notes.push(note);
		}
		this.saved.save(notes, filesSignature(this.store.files.paths()));
		this.changedSinceSave = 0;
	}

	notePaths(): readonly string[] {
		return this.store.notePaths();
	}

	isNote(path: string): boolean {
		return this.store.isNote(path);
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

	factsWithoutLinks(path: string): NoteFacts | undefined {
		return this.parsed.get(path)?.facts;
	}

	/**
	 * A note's tags: kept with its other facts once read with its stamp; before that, while the vault is watched, from
	 * a glance (no stat, no frontmatter kept), kept per the watcher's count of changes (a note changed after the
	 * glance moves it); without a watcher, read with its stamp.
	 */
	tagsOf(path: string): readonly TagFact[] | undefined {
		const watched = this.store.changeVersion;
		if (watched === undefined || this.described.holds(path)) return this.described.get(path)?.tags;
		return this.glancedTags(path, watched);
	}

	frontmatterOf(path: string): FrontmatterFact | undefined {
		return this.described.get(path)?.frontmatter;
	}

	searchText(path: string): Buffer | undefined {
		return this.searchTexts.get(path);
	}

	forEachSearchText(paths: readonly string[], each: (position: number, text: Buffer) => void): void {
		this.searchTexts.forEach(paths, each);
	}

	/** Makes what questions about the whole vault need of one note, reading it once (a warm-up, note by note). */
	warmNote(path: string): void {
		this.glanced?.tags.delete(path);
		if (this.store.savedRowOf(path) !== undefined) {
			// Taken up from the saved index: reading the note for its search text checks its stamp too (an fstat),
			// so the others need no stat of their own (a later session's warm-up made one lstat a note more).
			this.searchTexts.get(path);
			this.outgoing.get(path);
			this.described.get(path);
			return;
		}
		this.outgoing.get(path);
		this.described.get(path);
		// Last: made from the text the others read (the store keeps it for the next reader), not read again.
		this.searchTexts.get(path);
	}

	resolveLink(linkpath: string, sourcePath: string, exists?: (path: string) => boolean): string | undefined {
		return this.store.files.resolve(linkpath, sourcePath, exists);
	}

	backlinks(path: string): Promise<Backlink[]> {
		// In path order, as a pass over every note found them.
		return Promise.resolve(this.linksFrom(path, [...this.sourcesOf(path)].sort(comparePaths)));
	}

	/**
	 * Complete at once from the reverse index (most notes read, or a later session's saved targets); else the filtered
	 * pass over the notes goes on in path order from where it stopped, until it has enough or the time is up.
	 */
	backlinksFrom(path: string, want: BacklinksWanted): Promise<BacklinksFound> {
		const scan = this.scanFor(path);
		if (!scan) {
			const soFar = this.soFarFromSaved(path, want);
			if (soFar) return Promise.resolve(soFar);
			const sources = [...this.backlinkIndex.sourcesOf(path)].sort(comparePaths);
			return Promise.resolve(completeBacklinks(this.linksFrom(path, sources)));
		}
		this.advance(scan, want);
		const complete = scan.next >= scan.paths.length;
		return Promise.resolve({
			backlinks: this.linksFrom(path, scan.sources),
			complete,
			through: complete ? undefined : scan.paths[scan.next - 1],
			looked: scan.next,
			notes: scan.paths.length,
		});
	}

	/**
	 * A later session's backlinks from a prefix of the notes in path order, while the worker checking the saved stamps
	 * is not done: the notes up to the first saved row it has not checked yet, when they hold links from enough notes
	 * (the prefix then ends before the first note past those); undefined when the reverse index is to answer whole.
	 */
	private soFarFromSaved(target: string, want: BacklinksWanted): BacklinksFound | undefined {
		const soFar = this.backlinkIndex.sourcesSoFar(target);
		if (!soFar) return undefined;
		const sources = soFar.sources;
		const enough = want.sources + (sources.includes(target) ? 1 : 0);
		if (sources.length < enough) return undefined;
		const before = sources[enough] ?? soFar.before;
		const paths = this.store.notePaths();
		const looked = firstAtOrAfter(paths, before);
		return {
			backlinks: this.linksFrom(target, sources.slice(0, enough)),
			complete: false,
			through: paths[looked - 1],
			looked,
			notes: paths.length,
		};
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
				const reason =
					error instanceof NoteChangedError
						? "it changed meanwhile"
						: describeError(error).split(this.store.root).join("");
				problems.push({
					path: change.path,
					line: 0,
					original: "",
					reason: `its links could not be updated: ${reason}`,
				});
			}
		}
		this.store.touched(from, to);
		if (problems.length > 0) throw new LinksNotKeptError(from, to, true, problems);
		return { updates };
	}

	dispose(): void {
		if (this.saved && this.changedSinceSave > 0) {
			try {
				this.save();
			} catch {
				// A cache: the next session reads the notes instead.
			}
		}
		this.unsubscribe();
		this.glanced = undefined;
		for (const memo of [
			this.searchTexts,
			this.outgoing,
			this.described,
			this.parsed,
			this.links,
			this.backlinkIndex,
		])
			memo.dispose();
		if (this.ownsStore) this.store.dispose();
	}

	private readonly tagsOfText = (read: NoteText): readonly TagFact[] =>
		tagsAndFrontmatterFromText(read.text, this.yaml).tags;
	private readonly tagsOfBytes = (bytes: Buffer): readonly TagFact[] => tagsOfBytes(bytes, this.yaml);

	/** `tagsOf` of a note nothing is kept of, from a glance (kept while no file came or went and nothing changed). */
	private glancedTags(path: string, watched: number): readonly TagFact[] | undefined {
		const version = this.store.structureVersion;
		let glanced = this.glanced;
		if (glanced?.version !== version || glanced.changes !== this.noteChanges || glanced.watched !== watched)
			glanced = this.glanced = { version, changes: this.noteChanges, watched, tags: new Map() };
		const known = glanced.tags.get(path);
		if (known) return known;
		const tags = this.store.glance(path, this.tagsOfText, this.tagsOfBytes);
		if (tags) glanced.tags.set(path, tags);
		return tags;
	}

	/**
	 * Lists the folder and takes up the saved summaries of notes listed that nothing is known of yet; each is checked
	 * against its file and made from the saved index's line when first asked.
	 */
	private loadSaved(): void {
		this.loadedSaved = true;
		const notes = this.saved?.load();
		// Every adopted stamp is checked before what was saved of its note is used (backlinks from the saved targets
		// check them all first, tags and properties each note's): a worker starts on that now, parsing the saved
		// stamps while the folder is listed, and stats the notes once every folder is watched.
		this.store.statAhead(notes?.savedStamps());
		this.store.refresh();
		if (!notes) return;
		// The saved targets hold while the vault has the files they were found among (where a link leads depends on
		// nothing else): then neither the link paths nor their targets are made again.
		const version = this.store.structureVersion;
		const targetsHold = sameFiles(notes.files, filesSignature(this.store.files.paths()));
		const outgoing = (row: number): Outgoing | undefined => {
			if (targetsHold && notes.linkTargetsOf()?.hasTargets(row)) return new SavedOutgoing(notes, row, version);
			this.savedHoldsAll = false;
			const linkpaths = notes.linkpaths(row);
			return linkpaths ? { linkpaths, targets: [], resolvedAt: -1 } : undefined;
		};
		const described = (row: number): Description | undefined => {
			const tags = notes.tags(row);
			if (!tags) this.savedHoldsAll = false;
			return tags ? new LazyDescription(tags, () => notes.frontmatter(row) ?? undefined) : undefined;
		};
		this.outgoing.useSaved(outgoing);
		this.described.useSaved(described);
		notes.forEach((path, stamp, row) => {
			if (this.store.adopt(path, stamp, row)) this.takenUp++;
		}, this.store.notePaths());
		// Backlinks of the notes taken up as saved come from the saved targets' numbers, turned around once.
		if (targetsHold) this.backlinkIndex.useSaved({ version, targets: () => notes.linkTargetsOf() });
		this.savedHoldsAll = targetsHold && this.takenUp === this.store.notePaths().length;
		this.changedSinceSave = 0;
	}

	private factsNow(path: string): NoteFacts | undefined {
		const entry = this.parsed.get(path);
		if (!entry) return undefined;
		entry.resolvedAt = this.resolve(entry.facts.links, path, entry.resolvedAt);
		return entry.facts;
	}

	/**
	 * A note's links, those that may lead to a file with these name keys (`nameKeys`) with their targets as of now: a
	 * link leads to a file only when the last part of its link path is one of the file's name keys. The others are not
	 * resolved (a later session's first backlinks then resolve a few links, not every file's name).
	 */
	private linksTo(path: string, keys: ReadonlySet<string>): readonly LinkFact[] {
		const entry = this.links.get(path);
		if (!entry) return [];
		if (entry.resolvedAt === this.store.structureVersion) return entry.links;
		const links = entry.links.filter((link) => mayLeadTo(link.linkpath, keys));
		this.resolve(links, path, -1);
		return links;
	}

	/** The notes with a link that leads to `target`: from the reverse index, or (most notes unread) by filtered reading. */
	private sourcesOf(target: string): readonly string[] {
		const scan = this.scanFor(target);
		if (!scan) return this.backlinkIndex.sourcesOf(target);
		this.advance(scan, undefined);
		return scan.sources;
	}

	/**
	 * The pass of `LinkTargetFilter` over the notes for `target`, as far as it went, while no note changed and no file
	 * came or went since it began; a new one when most notes are unread (else undefined: the reverse index answers).
	 */
	private scanFor(target: string): FilterScan | undefined {
		const version = this.store.structureVersion;
		// Notes the pass only glanced at have no stamp: the watcher's count of changes tells that one changed since.
		const watched = this.store.changeVersion;
		const kept =
			this.filtered?.version === version &&
			this.filtered.changes === this.noteChanges &&
			this.filtered.watched === watched;
		const known = kept ? this.filtered?.scans.get(target) : undefined;
		if (known) return known;
		const paths = this.store.notePaths();
		if (this.fewUnread(paths)) {
			this.filtered = undefined;
			return undefined;
		}
		// Kept as of before any reading: a note found changed meanwhile has the next question look again.
		if (!kept || !this.filtered) this.filtered = { version, changes: this.noteChanges, watched, scans: new Map() };
		if (this.filtered.scans.size >= FILTERED_TARGETS_KEPT) this.filtered.scans.clear();
		const floor = this.reached.get(target) ?? 0;
		const scan: FilterScan = { paths, filter: new LinkTargetFilter(target), next: 0, sources: [], floor };
		this.filtered.scans.set(target, scan);
		return scan;
	}

	/**
	 * Whether no more than `UNREAD_SHARE_FOR_FILTER` of the notes have no link paths known: the notes with a saved row
	 * have them (a later session's take-up), so when they are enough no pass over the notes counts them.
	 */
	private fewUnread(paths: readonly string[]): boolean {
		const most = paths.length * UNREAD_SHARE_FOR_FILTER;
		if (this.takenUp > 0 && paths.length - this.store.savedRowNotes <= most) return true;
		let unread = 0;
		for (const path of paths) if (!this.outgoing.holds(path)) unread++;
		return unread <= most;
	}

	/**
	 * Goes on with a filtered pass in path order: to the last note, or (`want`) until links from `want.sources` notes
	 * are found or the deadline passed, once `MIN_NOTES_PER_ASK` notes were looked at.
	 */
	private advance(scan: FilterScan, want: BacklinksWanted | undefined): void {
		const { paths, filter, sources } = scan;
		// Without a watcher a note's stamp is what tells it changed: each is read with its stamp then.
		const stampless = this.store.changeVersion !== undefined;
		const mayLink = (text: NoteText): boolean => filter.mayLinkFromText(text.text);
		const mayLinkBytes = (bytes: Buffer): boolean => filter.mayLinkFromBytes(bytes);
		// Past where it began (or the last pass for the target got to), it looks at a few notes whatever the time.
		const timed = Math.max(scan.next, scan.floor) + MIN_NOTES_PER_ASK;
		const began = scan.next;
		const beganAt = performance.now();
		let finishing = false;
		for (; scan.next < paths.length;) {
			if (want) {
				if (!finishing && sources.length - (scan.self ? 1 : 0) >= want.sources) {
					if (!this.mayFinish(scan, began, beganAt, want.finishBy)) break;
					finishing = true;
				}
				if (scan.next >= timed && scan.next % DEADLINE_EVERY === 0 && performance.now() >= want.deadline) break;
			}
			const source = paths[scan.next] ?? "";
			scan.next++;
			const candidate =
				this.outgoing.holds(source) ||
				filter.mayLinkFromPath(source) ||
				(stampless
					? this.store.glance(source, mayLink, mayLinkBytes)
					: this.store.readEither(source, mayLink, mayLinkBytes)) === true;
			if (candidate && this.leadsTo(source, filter)) {
				sources.push(source);
				if (source === filter.target) scan.self = true;
			}
		}
		if (this.reached.size >= FILTERED_TARGETS_KEPT && !this.reached.has(filter.target)) this.reached.clear();
		this.reached.set(filter.target, scan.next);
	}

	/**
	 * Whether a pass that has enough may go on to the last note: when its pace since `began` says it gets there by
	 * `finishBy` (a pass that has not looked at a note yet in this ask has no pace, and stops).
	 */
	private mayFinish(scan: FilterScan, began: number, beganAt: number, finishBy: number | undefined): boolean {
		const looked = scan.next - began;
		if (finishBy === undefined || looked === 0) return false;
		const now = performance.now();
		return now + ((now - beganAt) * (scan.paths.length - scan.next)) / looked <= finishBy;
	}

	/** Every link of these notes (in this order) that leads to `target`. */
	private linksFrom(target: string, sources: Iterable<string>): Backlink[] {
		const backlinks: Backlink[] = [];
		const keys = new Set(nameKeys(target));
		for (const source of sources)
			for (const link of this.linksTo(source, keys)) if (link.target === target) backlinks.push({ source, link });
		return backlinks;
	}

	/** Sets each link's target as of now, unless they were resolved at this structure version already; returns the version. */
	private resolve(links: LinkFact[], source: string, resolvedAt: number): number {
		const version = this.store.structureVersion;
		if (resolvedAt === version) return version;
		for (const link of links) {
			const target = this.store.files.resolve(link.linkpath, source);
			if (target === undefined) delete link.target;
			else link.target = target;
		}
		return version;
	}

	/**
	 * Whether a link of the note leads to the filter's target now: its targets when they are resolved at this
	 * structure version, else only the links that may name the target are resolved (a first pass's candidates hold
	 * many links that cannot).
	 */
	private leadsTo(source: string, filter: LinkTargetFilter): boolean {
		const entry = this.outgoing.get(source);
		if (!entry) return false;
		if (entry.resolvedAt === this.store.structureVersion) return entry.targets.includes(filter.target);
		return filter.leadsTo(entry.linkpaths, (linkpath) => this.store.files.resolve(linkpath, source));
	}

	/** Where a note's links lead now (resolved again when files came or went since); undefined when it cannot be read. */
	private targetsOf(path: string): readonly string[] | undefined {
		const entry = this.outgoing.get(path);
		if (!entry) return undefined;
		const version = this.store.structureVersion;
		if (entry.resolvedAt !== version) {
			entry.targets = distinct(
				entry.linkpaths.flatMap((linkpath) => this.store.files.resolve(linkpath, path) ?? []),
			);
			entry.resolvedAt = version;
		}
		return entry.targets;
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
			// Only the moved note and notes with a link by either name can be changed: the others are not parsed.
			if (
				path !== from &&
				!(this.outgoing.get(path)?.linkpaths ?? []).some((linkpath) => keys.has(nameKey(linkpath)))
			)
				continue;
			const facts = this.factsNow(path);
			const text = this.store.text(path);
			if (!facts || text === undefined) continue;
			const links = facts.links.filter(
				(link) =>
					link.target !== undefined &&
					(path === from || keys.has(nameKey(link.linkpath)) || (link.linkpath === "" && path === from)),
			);
			if (links.length > 0)
				candidates.set(path, {
					text,
					links: links.map((link) => ({ link: { ...link }, before: link.target ?? "" })),
				});
		}
		const files = this.store.files;
		// The store keeps a note's entry with its file: it goes back with it (and a file already at `to` stays).
		const entry = files.valueFor(from);
		const toListed = files.has(to);
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
					const rewritten = rewriteLink(link, expected, sourceAfter, (linkpath) =>
						files.resolve(linkpath, sourceAfter),
					);
					if (rewritten === undefined) stranded.push({ path, line: link.line, original: link.original });
					else replacements.push({ line: link.line, start: link.start, end: link.end, text: rewritten });
				}
				if (replacements.length > 0) {
					plan.push({
						path: sourceAfter,
						before: note.text,
						text: replaceOnLines(note.text, replacements),
						links: replacements.length,
					});
				}
			}
			if (stranded.length > 0) throw new LinksNotKeptError(from, to, false, stranded);
			return plan;
		} finally {
			if (!toListed) files.remove(to);
			files.add(from, entry);
		}
	}
}

function ownedDescription(described: { tags: TagFact[]; frontmatter?: FrontmatterFact }): {
	tags: TagFact[];
	frontmatter?: FrontmatterFact;
} {
	for (const tag of described.tags) tag.tag = ownString(tag.tag);
	if (described.frontmatter?.properties) ownStrings(described.frontmatter.properties);
	if (described.frontmatter?.problem !== undefined)
		described.frontmatter.problem = ownString(described.frontmatter.problem);
	return described;
}

/** Where `path` is, or would be, in sorted `paths`: how many of them sort before it. */
function firstAtOrAfter(paths: readonly string[], path: string): number {
	let low = 0;
	let high = paths.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if ((paths[middle] ?? "") < path) low = middle + 1;
		else high = middle;
	}
	return low;
}

function distinct<T>(items: readonly T[]): readonly T[] {
	return items.length < 2 ? items : [...new Set(items)];
}

/** A file's name keys, as links name it (`LinkResolver`): its name lower-cased, and a note's without `.md`. */
function nameKeys(path: string): string[] {
	const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
	return name.endsWith(".md") ? [name, name.slice(0, -3)] : [name];
}

function nameKey(linkpath: string): string {
	const name = linkpath.slice(linkpath.lastIndexOf("/") + 1).toLowerCase();
	return name.endsWith(".md") ? name.slice(0, -3) : name;
}

function replaceOnLines(
	text: string,
	replacements: { line: number; start: number; end: number; text: string }[],
): string {
	const table = new LineTable(text);
	let result = text;
	const ordered = [...replacements].sort((a, b) => b.line - a.line || b.start - a.start);
	for (const replacement of ordered) {
		const lineStart = table.starts[replacement.line] ?? 0;
		result =
			result.slice(0, lineStart + replacement.start) +
			replacement.text +
			result.slice(lineStart + replacement.end);
	}
	return result;
}
