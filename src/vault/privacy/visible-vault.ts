import { VaultPathError, type VaultLocation, type VaultPaths } from "../vault-paths";
import type { FrontmatterFact, NoteFacts, TagFact } from "../markdown/note-model";
import type { FrontmatterNeed, WorkPace } from "../notes/notes";
import { WorkSlices, runAtOnce, runInSlices } from "../notes/work-slices";
import { sortSteps } from "../notes/sort-in-slices";
import {
	LinksNotKeptError,
	WriteRefusedError,
	backlinksSoFar,
	completeBacklinks,
	type Backlink,
	type BacklinksFound,
	type BacklinksWanted,
	type RenameReport,
	type VaultIndex,
	type WriteOrigin,
} from "../notes/vault-index";

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
	/**
	 * Optional: a value that stays the same (===) while `isPrivate` answers every path as it did (PrivacyFilter's
	 * `pathOnlyDecisions`); undefined when an answer may have changed. With it the list of visible notes is not
	 * decided again, path by path, on every call while neither the notes nor the rules changed.
	 */
	decisionsKey?: () => unknown;
	/**
	 * The part of it that needs no note (PrivacyFilter.isInPrivateFolder: hidden and private folders), for new
	 * paths, where tags cannot apply (Obsidian counts a note it does not know as private). Default: `isPrivate`.
	 */
	isInPrivateFolder?: (relativePath: string) => boolean;
	/** When it returns a reason (the privacy settings cannot be read), every tool and method answers it and reads nothing. */
	unavailable?: () => string | undefined;
}

/** Where a new note would go; `takenBy` says, for the user only, that a note the tools may not see is there. */
export interface NewNoteTarget {
	path: string;
	takenBy?: string;
}

/** Said to the user (never to Claude) when a write's path holds a note the tools may not see. */
export const HIDDEN_OCCUPANT =
	"A note the vault tools cannot show (private or hidden) is already at this path, so this change cannot be made. Claude is told it was not accepted, as after Reject.";

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
	/** Every note sorted; `all` as a set, made only when a path is not decided alone (see `alone`). */
	private sorted:
		{ from: readonly string[]; paths: readonly string[]; all: ReadonlySet<string> | undefined } | undefined;
	private visiblePaths: string[] | undefined;
	/** The visible notes decided last, from which list, under which decisions (`decisionsKey`). */
	private decided: { from: readonly string[]; key: unknown; visible: string[] } | undefined;
	/** The visible notes as a set, rebuilt only when the list changed. */
	private visibleSet: { of: readonly string[]; set: ReadonlySet<string> } | undefined;
	/**
	 * Notes the tools may not see, by lower-cased name without `.md` (the ones that could shadow a visible note): for
	 * one list of visible notes and of every note, or (decided alone) for one list of the index's and one `decisionsKey`.
	 */
	private hiddenByName: { of: unknown; all: readonly string[] | undefined; names: Map<string, string[]> } | undefined;
	private readonly withoutLinks = new WeakMap<NoteFacts, NoteFacts>();
	/** `isVisible` as a link resolver's `exists`: links resolve as if invisible files were not in the vault. */
	private readonly exists = (path: string): boolean => this.isVisible(path);

	constructor(private readonly options: VisibleVaultOptions) {}

	async refresh(need?: FrontmatterNeed): Promise<void> {
		const unavailable = this.options.unavailable?.();
		if (unavailable !== undefined) throw new VaultToolError(unavailable);
		await this.options.index.refresh(need);
		// Privacy may depend on settings and on tags, which may have changed since the last call.
		this.others = new Map();
		this.visiblePaths = undefined;
		const pace = this.options.index.pace;
		if (pace) {
			const slices = new WorkSlices(pace);
			await runInSlices(this.decide(slices), slices);
		}
	}

	/**
	 * The visible notes decided afresh, with what `isVisible` looks in: every note sorted (when the list changed), a
	 * privacy decision each (unless `decisionsKey` says none changed), their set. Written as steps that yield where a
	 * slice of `slices` ended: `refresh` runs them in slices for an index on a thread that must stay responsive (over
	 * 100k notes a sort and a few passes, hundreds of milliseconds), `notePaths` at once (no pace: no yield). Answers
	 * the list; it becomes `notePaths`'s answer unless another decision was made while this one waited (then that
	 * one stands).
	 */
	private *decide(slices: WorkSlices): Generator<void, readonly string[]> {
		const all = this.options.index.notePaths();
		const alone = this.alone();
		if (this.sorted?.from !== all) {
			const paths = yield* sortSteps(all, comparePaths, slices);
			let set: Set<string> | undefined;
			if (!alone) {
				set = new Set<string>();
				for (const path of all) {
					set.add(path);
					if (slices.due()) yield;
				}
			}
			this.sorted = { from: all, paths, all: set };
		}
		const sorted = this.sorted;
		const key = this.options.decisionsKey?.();
		let paths: string[];
		if (key !== undefined && this.decided?.from === sorted.paths && this.decided.key === key) {
			paths = this.decided.visible;
		} else {
			const isPrivate = this.options.isPrivate;
			const visible: string[] = [];
			for (const path of sorted.paths) {
				if (!isHidden(path) && !isPrivate(path)) visible.push(path);
				if (slices.due()) yield;
			}
			// Usually nothing changed: keep the previous list (and its set) rather than rebuilding them.
			const previous = this.visibleSet?.of;
			paths = previous && sameList(previous, visible) ? (previous as string[]) : visible;
		}
		if (!alone && this.visibleSet?.of !== paths) {
			// Every note visible (the usual case): the set of every note is the same set.
			let set = sorted.all;
			if (set === undefined || paths.length < sorted.paths.length) {
				const some = new Set<string>();
				for (const path of paths) {
					some.add(path);
					if (slices.due()) yield;
				}
				set = some;
			}
			this.visibleSet = { of: paths, set };
		}
		if (this.visiblePaths === undefined && this.sorted === sorted) {
			this.visiblePaths = paths;
			this.decided = key === undefined ? undefined : { from: sorted.paths, key, visible: paths };
		}
		return paths;
	}

	/**
	 * Whether a note listed as visible for this call is still not private: asked of a note whose text a search
	 * matched, since the text searched may be newer than the tags the list was decided by (see `readText`).
	 */
	stillPublic(path: string): boolean {
		return !this.options.isPrivate(path);
	}

	isVisible(path: string): boolean {
		// Decided alone, a note and any other path get the answer the list of visible notes would give them.
		if (this.alone()) return !isHidden(path) && !this.options.isPrivate(path);
		const paths = this.notePaths();
		if (this.visibleSet?.of !== paths) this.visibleSet = { of: paths, set: new Set(paths) };
		if (this.visibleSet.set.has(path)) return true;
		// A note of the list that is not visible (without the set, made while deciding alone: judged as any path).
		if (this.sorted?.all?.has(path)) return false;
		let answer = this.others.get(path);
		if (answer === undefined) {
			answer = !isHidden(path) && !this.options.isPrivate(path);
			this.others.set(path, answer);
		}
		return answer;
	}

	/** Every visible note, in a stable order (by path, code-unit order). Decided afresh after each refresh. */
	notePaths(): readonly string[] {
		return this.visiblePaths ?? runAtOnce(this.decide(new WorkSlices(undefined)));
	}

	async readText(path: string): Promise<string | undefined> {
		return this.isVisible(path) ? this.stillVisible(path, await this.options.index.readText(path)) : undefined;
	}

	/** `readText`, answered without a promise when the index has the text at hand (searches read every note). */
	textNow(path: string): string | undefined | Promise<string | undefined> {
		if (!this.isVisible(path)) return undefined;
		const index = this.options.index;
		const text = index.textNow ? index.textNow(path) : index.readText(path);
		return text instanceof Promise
			? text.then((read) => this.stillVisible(path, read))
			: this.stillVisible(path, text);
	}

	/** A visible note's tags (what tag search and the tag overviews ask of every note, without its other facts). */
	tagsOf(path: string): readonly TagFact[] | undefined {
		if (!this.isVisible(path)) return undefined;
		const index = this.options.index;
		return index.tagsOf ? index.tagsOf(path) : index.facts(path)?.tags;
	}

	/**
	 * `tagsOf`, for an overview that asks it of each of `paths` in turn: given `notePaths()` itself (the same array),
	 * every path is known to be visible and is not decided again while that list stands (privacy asked per note is a
	 * tenth of a first tags overview); any other list is checked path by path.
	 */
	tagsReader(paths: readonly string[]): (path: string) => readonly TagFact[] | undefined {
		if (paths !== this.notePaths()) return (path) => this.tagsOf(path);
		const index = this.options.index;
		const read = index.tagsOf ? (path: string) => index.tagsOf?.(path) : (path: string) => index.facts(path)?.tags;
		// The list may be decided again while an overview waits between slices: then each path is checked.
		return (path) => (this.visiblePaths === paths ? read(path) : this.tagsOf(path));
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
	 * 100k notes), and a text the index does not keep yet is lent for the call alone (`VaultIndex.forEachSearchText`);
	 * any other list is checked path by path.
	 */
	forEachSearchText(paths: readonly string[], each: (path: string, text: Buffer) => void): void {
		const index = this.options.index;
		if (!index.searchText) return;
		const checked = paths !== this.notePaths();
		if (!checked && index.forEachSearchText) {
			index.forEachSearchText(paths, (position, text) => each(paths[position] ?? "", text));
			return;
		}
		for (const path of paths) {
			if (checked && !this.isVisible(path)) continue;
			const text = index.searchText(path);
			if (text) each(path, text);
		}
	}

	/**
	 * `forEachSearchText`, for an index that reads texts asynchronously (`VaultIndex.scanSearchTexts`, in slices of
	 * its pace) too.
	 */
	async eachSearchText(paths: readonly string[], each: (path: string, text: Buffer) => void): Promise<void> {
		const index = this.options.index;
		if (!index.scanSearchTexts) return this.forEachSearchText(paths, each);
		await index.scanSearchTexts(paths, (position, text) => {
			const path = paths[position] ?? "";
			// The list of visible notes may be decided again while this waits between slices: then each path is checked.
			if (this.visiblePaths === paths || this.isVisible(path)) each(path, text);
		});
	}

	/** The index's pace for work over every note (`VaultIndex.pace`); undefined: no need to yield. */
	get pace(): WorkPace | undefined {
		return this.options.index.pace;
	}

	/** Whether the index keeps search texts (else the search makes its own from the notes' texts). */
	get keepsSearchTexts(): boolean {
		return this.options.index.searchText !== undefined;
	}

	/**
	 * A note's facts, with links resolved as if the notes the tools may not see were not in the vault: a link to
	 * one is unresolved, or leads to the visible note it would lead to without it. `withLinks: false` skips the
	 * links (faster).
	 */
	facts(path: string, withLinks = true): NoteFacts | undefined {
		if (!this.isVisible(path)) return undefined;
		const index = this.options.index;
		const facts = !withLinks && index.factsWithoutLinks ? index.factsWithoutLinks(path) : index.facts(path);
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
				const { target: _hidden, ...unresolved } = link;
				const target = this.resolveLink(link.linkpath, path);
				return target === undefined ? unresolved : { ...unresolved, target };
			}),
		};
	}

	/** Where a link leads among the visible files: a note the tools may not see never shadows one they may. */
	resolveLink(linkpath: string, sourcePath: string): string | undefined {
		const target = this.options.index.resolveLink(linkpath, sourcePath, this.exists);
		return target !== undefined && this.isVisible(target) ? target : undefined;
	}

	/**
	 * Visible notes' links that lead to `path`: those the index resolves to it, and those it resolves to a note the
	 * tools may not see of the same name, which lead to `path` once that note is set aside.
	 */
	async backlinks(path: string): Promise<Backlink[]> {
		if (!this.isVisible(path)) return [];
		const backlinks = (await this.options.index.backlinks(path)).filter((backlink) =>
			this.isVisible(backlink.source),
		);
		for (const namesake of this.hiddenNamesakes(path)) {
			for (const backlink of await this.options.index.backlinks(namesake)) {
				if (
					this.isVisible(backlink.source) &&
					this.resolveLink(backlink.link.linkpath, backlink.source) === path
				) {
					backlinks.push({ source: backlink.source, link: { ...backlink.link, target: path } });
				}
			}
		}
		return backlinks;
	}

	/**
	 * `backlinks` from a complete prefix of the notes in path order (`VaultIndex.backlinksFrom`), going on until links
	 * from `want.sources` visible notes (other than `path`) are found, every note was looked at, or the deadline passed. A hidden
	 * namesake's links count as in `backlinks`; the prefix is then the shorter of the two passes'.
	 */
	async backlinksFrom(path: string, want: BacklinksWanted): Promise<BacklinksFound> {
		if (!this.isVisible(path)) return completeBacklinks([]);
		const index = this.options.index;
		for (let asked = want.sources, round = 0; ; round++) {
			const own = await backlinksSoFar(index, path, { ...want, sources: asked });
			const found = [own];
			const namesakeLinks: Backlink[] = [];
			for (const namesake of this.hiddenNamesakes(path)) {
				const theirs = await backlinksSoFar(index, namesake, { ...want, sources: asked });
				found.push(theirs);
				for (const backlink of theirs.backlinks)
					if (this.resolveLink(backlink.link.linkpath, backlink.source) === path)
						namesakeLinks.push({ source: backlink.source, link: { ...backlink.link, target: path } });
			}
			// The prefix every pass looked at whole.
			const shortest = found.reduce((a, b) => (b.complete || (!a.complete && a.looked <= b.looked) ? a : b));
			const within = (backlink: Backlink): boolean =>
				this.isVisible(backlink.source) &&
				(shortest.complete ||
					(shortest.through !== undefined && comparePaths(backlink.source, shortest.through) <= 0));
			const backlinks = [...own.backlinks, ...namesakeLinks].filter(within);
			const answer: BacklinksFound = { ...shortest, backlinks };
			if (answer.complete) return answer;
			const visibleSources = new Set(backlinks.map((backlink) => backlink.source));
			visibleSources.delete(path);
			const missing = want.sources - visibleSources.size;
			// Once more even when the time is up: the first ask may have been answered by what was found before (hidden
			// notes among it), and each page must look further than the last.
			if (missing <= 0 || (round > 0 && performance.now() >= want.deadline)) return answer;
			// Hidden notes among those found (or a namesake's pass stopped first): as many more as were missing.
			const ownSources = new Set(own.backlinks.map((backlink) => backlink.source));
			ownSources.delete(path);
			asked = Math.max(asked, ownSources.size) + missing;
		}
	}

	/**
	 * The visible note a path argument names: a vault path (with or without `.md`), an absolute path inside the
	 * vault, or a wikilink target (`Note`, `[[Note]]`, `Folder/Note`) resolved as Obsidian resolves it. A note the
	 * tools may not see, by any path that leads to it, is answered as a missing note, in the same words.
	 */
	locateNote(input: string, argument = "path"): string {
		const cleaned = cleanPathArgument(input);
		const location = this.confine(cleaned, argument);
		// Through a symbolic link, a note is judged by where the link leads too.
		if (location.realRelative !== undefined && !this.mayShowPath(location.realRelative)) throw missingNote(input);
		const relative = location.relative;
		for (const candidate of [relative, `${relative}.md`]) {
			if (
				this.isNote(candidate) &&
				this.isVisible(candidate) &&
				(this.options.index.isNote?.(candidate) ?? this.sorted?.all?.has(candidate)) === true
			)
				return candidate;
		}
		const resolved = this.resolveLink(cleaned.replace(/^\/+/, "").split("#", 1)[0] ?? "", "");
		if (resolved !== undefined && resolved.toLowerCase().endsWith(".md")) return resolved;
		throw missingNote(input);
	}

	/**
	 * A vault path where a tool may put a new note: inside the vault, not in a hidden or private folder (by its path
	 * and, through a symbolic link, where it leads), a `.md` file (`.md` is added when the name has no extension),
	 * and no visible note there. `takenBy` is set when a note the tools may not see is there: the write must fail
	 * without saying why (see `ProposedWrite.conflict`), since a missing note would not make it fail.
	 */
	async locateNewNote(input: string, argument: string): Promise<NewNoteTarget> {
		const cleaned = cleanPathArgument(input);
		const location = this.confine(cleaned, argument);
		let relative = location.relative;
		if (relative === "" || /[\\/]$/.test(cleaned))
			throw new VaultToolError(
				`"${argument}" must name a note, not a folder: ${input} (give the full path, e.g. "${relative === "" ? "" : `${relative}/`}Name.md")`,
			);
		const name = relative.slice(relative.lastIndexOf("/") + 1);
		let real = location.realRelative;
		if (!name.includes(".")) {
			if (await this.options.index.exists(relative))
				throw new VaultToolError(
					`"${argument}" names a folder: ${input}; give the note's full new path, e.g. "${relative}/Name.md"`,
				);
			relative = `${relative}.md`;
			if (real !== undefined) real = `${real}.md`;
		} else if (!relative.toLowerCase().endsWith(".md"))
			throw new VaultToolError(`"${argument}" must be a Markdown note (.md): ${input}`);
		// Decided by path alone, the same whether a note is there or not: nothing tells whether one exists.
		if ([relative, real].some((path) => path !== undefined && (isHidden(path) || this.isInPrivateFolder(path)))) {
			throw new VaultToolError(
				`Refused: ${relative} is not available to vault tools (in a hidden folder, a private folder or an excluded file); vault tools never write there`,
			);
		}
		if (!(await this.options.index.exists(relative))) return { path: relative };
		if (this.isVisible(relative) && (real === undefined || this.mayShowPath(real))) {
			throw new VaultToolError(
				`Refused: ${relative} already exists; vault tools never overwrite. Use edit_note to change it, or choose another path.`,
			);
		}
		return { path: relative, takenBy: HIDDEN_OCCUPANT };
	}

	/*
	 * The writes check their paths again right before calling the index: a write may have waited minutes for the
	 * user's review, and a folder on the way may have been replaced by a link meanwhile (an index over Obsidian's
	 * app.vault would write through it). An index that refuses at the moment of writing (the folder adapter does)
	 * answers WriteRefusedError, given to the model as a tool error.
	 */

	writeText(path: string, text: string, expected: string, origin?: WriteOrigin): Promise<void> {
		this.assertVisible(path);
		this.assertStillConfined(path, false);
		return refusalsAsToolErrors(() => this.options.index.writeText(path, text, expected, origin));
	}

	createNote(path: string, text: string, origin?: WriteOrigin): Promise<void> {
		this.assertStillConfined(path, true);
		// A new note has no tags yet: only its folder can make its path private (Obsidian counts an unknown note as private).
		if (this.isInPrivateFolder(path))
			throw new VaultToolError(
				`Refused: ${path} is not available to vault tools (a private folder or excluded file); nothing was written`,
			);
		return refusalsAsToolErrors(() => this.options.index.createNote(path, text, origin));
	}

	/**
	 * Renames. Links in notes the tools may not see are kept working like any other, and never named, counted or
	 * quoted: the report lists visible notes only, and a link that could not be kept in a hidden note is reported
	 * without its note, line or text.
	 */
	async renameNote(from: string, to: string, origin?: WriteOrigin): Promise<RenameReport> {
		this.assertVisible(from);
		this.assertStillConfined(from, false);
		this.assertStillConfined(to, true);
		if (this.isInPrivateFolder(to))
			throw new VaultToolError(
				`Refused: ${to} is not available to vault tools (a private folder or excluded file); nothing was written`,
			);
		try {
			const report = await refusalsAsToolErrors(() => this.options.index.renameNote(from, to, origin));
			return { updates: report.updates.filter((update) => this.isVisible(update.path)) };
		} catch (error) {
			// The moved note was visible before the move; the index may not list it under its new path yet.
			if (error instanceof LinksNotKeptError)
				throw new VaultToolError(error.describe((path) => path === to || this.isVisible(path)));
			if (isAlreadyExists(error)) throw createdMeanwhile(to, "moved");
			throw error;
		}
	}

	/**
	 * Notes the tools may not see whose name (lower-cased, without `.md`) is that of `path`: those of the sorted list
	 * not in the visible one, or (decided alone) the index's notes judged one by one, for one `decisionsKey`.
	 */
	private hiddenNamesakes(path: string): readonly string[] {
		const alone = this.alone();
		const of = alone || this.notePaths();
		const all = alone ? this.options.index.notePaths() : this.sorted?.paths;
		// Both are the same while nothing changed: the map is built again only when one did.
		let kept = this.hiddenByName;
		if (kept === undefined || kept.of !== of || kept.all !== all) {
			const names = new Map<string, string[]>();
			if (all && (alone || (of as readonly string[]).length < all.length)) {
				for (const note of all) {
					if (this.isVisible(note)) continue;
					const key = nameKey(note);
					const list = names.get(key);
					if (list) list.push(note);
					else names.set(key, [note]);
				}
			}
			kept = this.hiddenByName = { of, all, names };
		}
		return kept.names.get(nameKey(path)) ?? [];
	}

	/**
	 * The decisions' key (`decisionsKey`) when a path is decided alone, not looked up in the list of visible notes
	 * (else a falsy value): the index can say whether a path is a note (`VaultIndex.isNote`), and every privacy rule
	 * looks at paths alone (no tag rule, which needs the note's tags), so a note's answer is that of its path, as for
	 * any other path.
	 */
	private alone(): unknown {
		return this.options.index.isNote && this.options.decisionsKey?.();
	}

	/** A path a note may be shown under: not hidden, not private. */
	private mayShowPath(path: string): boolean {
		return !isHidden(path) && !this.options.isPrivate(path);
	}

	/** The rules that need no note (hidden, private folders), for paths where nothing may exist yet. */
	private isInPrivateFolder(path: string): boolean {
		return (this.options.isInPrivateFolder ?? this.options.isPrivate)(path);
	}

	private isNote(path: string): boolean {
		return path.toLowerCase().endsWith(".md");
	}

	private assertVisible(path: string): void {
		if (!this.isVisible(path)) throw missingNote(path);
	}

	/** A vault path a tool is about to write (`isNew`: no note there yet): it still resolves inside the vault, to a place neither hidden nor private. */
	private assertStillConfined(path: string, isNew: boolean): void {
		let real: string | undefined;
		try {
			real = this.options.paths.resolve(path).realRelative;
		} catch (error) {
			if (error instanceof VaultPathError)
				throw new VaultToolError(
					`Refused: ${path} now leads out of the vault (a folder on its way was replaced after the tool checked it); nothing was written`,
				);
			throw error;
		}
		// A new note has no tags yet: only its folder can make it private (as for the path it was created under).
		if (
			isHidden(path) ||
			(real !== undefined &&
				(isHidden(real) || (isNew ? this.isInPrivateFolder(real) : this.options.isPrivate(real))))
		) {
			throw new VaultToolError(
				`Refused: ${path} now leads to a private or hidden place (a folder on its way was replaced after the tool checked it); nothing was written`,
			);
		}
	}

	/** Where an argument leads inside the vault, refusing anything outside it. */
	private confine(cleaned: string, argument: string): VaultLocation {
		try {
			return this.options.paths.resolve(cleaned);
		} catch (error) {
			if (error instanceof VaultPathError)
				throw new VaultToolError(
					`"${argument}" refused: ${error.message}. Vault tools only reach notes inside the vault.`,
				);
			throw error;
		}
	}

	/**
	 * The text read, unless its note is private now: the list of visible notes is decided once per call, and a note
	 * tagged private since (before the folder's watcher reported it) is judged again on the text just read.
	 */
	private stillVisible(path: string, text: string | undefined): string | undefined {
		return text === undefined || this.options.isPrivate(path) ? undefined : text;
	}
}

/** The answer for a note that is not there, or that the tools may not see: the same words for both. */
function missingNote(input: string): VaultToolError {
	return new VaultToolError(
		`No note "${input}" in the vault. Use search (mode "path") or list_notes to find the note's path.`,
	);
}

/** A write the index refused at the moment of writing, as the tool error the model reads. */
async function refusalsAsToolErrors<T>(write: () => Promise<T>): Promise<T> {
	try {
		return await write();
	} catch (error) {
		if (error instanceof WriteRefusedError) throw new VaultToolError(error.message);
		throw error;
	}
}

/** `[[Note|alias]]` → `Note`; surrounding space and a leading `./` removed. */
function cleanPathArgument(input: string): string {
	let text = input.trim();
	const wikilink = /^!?\[\[([^\]]*)\]\]$/.exec(text);
	if (wikilink) text = (wikilink[1] ?? "").split("|", 1)[0] ?? "";
	return text.replace(/^\.\//, "").trim();
}

function nameKey(path: string): string {
	const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
	return name.endsWith(".md") ? name.slice(0, -3) : name;
}

/** The answer when a write's target turned out to be taken (also given when a note the tools may not see holds it). */
export function createdMeanwhile(path: string, done: "written" | "moved"): VaultToolError {
	return new VaultToolError(`${path} was created by someone else meanwhile; nothing was ${done}.`);
}

/** The error both adapters throw when a note or file is already where one is created or moved to. */
export function isAlreadyExists(error: unknown): boolean {
	return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "EEXIST";
}

function isHidden(path: string): boolean {
	return path.startsWith(".") || path.includes("/.");
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
	if (a.length !== b.length) return false;
	for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
	return true;
}

function comparePaths(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}
