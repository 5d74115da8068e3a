import type { DiagnosticsNotes } from "../notes/notes";
import type { VaultFileBytes } from "../notes/vault-files";
import type { VaultIndex } from "../notes/vault-index";
import { VaultPathError, type VaultLocation, type VaultPaths } from "../vault-paths";
import { HardLinkWarnings } from "./hard-link-warnings";
import { PrivacyFilter, type PrivacyRules, type PrivacySubject, type TagsOf } from "./privacy";
import { PrivateFiles } from "./private-files";
import { PrivateDiagnosticsNotes } from "./private-diagnostics-notes";
import { VisibleVault } from "./visible-vault";

export interface VaultPrivacyOptions {
	paths: VaultPaths;
	/** The rules in force, read at each decision (settings can change while the bridge runs). */
	rules: () => PrivacyRules;
	/** A note's tags as `noteTags` reads them (the one tag reader), or `TAGS_NOT_KNOWN`. */
	tagsOf: TagsOf;
	/**
	 * The same reader's answer for the note version the vault tools' index holds, when the root has it cheaper
	 * (privacy is decided for every note on every vault-tool call). Default: `tagsOf`.
	 */
	indexedTagsOf?: TagsOf;
	/** Where a warning about a served file with more than one hard link goes (see SECURITY.md). */
	warn?: (message: string) => void;
}

/**
 * The one privacy boundary of a vault: the only way any feature reaches notes. Built once per vault by the
 * assembly; every port a feature reads (files, notes for diagnostics, the vault tools' index, the editor's
 * selection, the IDE's workspace) is wrapped here, and every yes/no question about a path is answered here.
 * A private or hidden note looks like a note that does not exist, to every tool and method alike, in words and
 * as far as practical in time (the same lookups are made for both), so nothing tells whether it exists.
 */
export class VaultPrivacy {
	readonly paths: VaultPaths;
	private readonly rules: () => PrivacyRules;
	private readonly filter: PrivacyFilter;
	/** The same rules over the index's tags: what the vault tools see of a note is the version they would show. */
	private readonly indexedFilter: PrivacyFilter;
	private readonly hardLinks: HardLinkWarnings;

	constructor(options: VaultPrivacyOptions) {
		this.paths = options.paths;
		this.rules = options.rules;
		this.filter = new PrivacyFilter(options.rules, options.tagsOf, options.paths.identity);
		this.indexedFilter = options.indexedTagsOf
			? new PrivacyFilter(options.rules, options.indexedTagsOf, options.paths.identity)
			: this.filter;
		this.hardLinks = new HardLinkWarnings(options.paths, options.warn ?? (() => undefined));
	}

	/** Why nothing is served, while the settings holding the rules cannot be read (then every note counts as private). */
	unavailable(): string | undefined {
		return this.rules().unreadable;
	}

	/** A resolved location (its real path too, for a symbolic link): private or hidden. */
	hides(location: PrivacySubject): boolean {
		return this.filter.isPrivate(location);
	}

	/** A vault-relative path as the vault's own index lists it (no symbolic link to follow). */
	hidesListed(relativePath: string): boolean {
		return this.filter.isPrivateRelative(relativePath);
	}

	/**
	 * A path from the wire or the editor (absolute, vault-relative or file://), or a location already resolved
	 * (then no second real-path lookup is made); anything outside the vault counts as hidden.
	 */
	hidesPath(path: string | VaultLocation): boolean {
		const location = typeof path === "string" ? this.locate(path) : path;
		return location === undefined || this.filter.isPrivate(location);
	}

	/**
	 * A vault-relative path as listed, judged with the tags of a text it holds or is about to hold (a write's): a
	 * note that a write makes private is private from that write on.
	 */
	hidesListedWithTags(relativePath: string, noteTags: readonly string[]): boolean {
		return this.filter.isPrivateRelative(relativePath) || this.filter.isPrivateWithTags(relativePath, noteTags);
	}

	/** Whether a search of this vault-relative folder could meet a private note (see `PrivacyFilter.mayHoldPrivate`). */
	mayHoldPrivate(relativeFolder: string): boolean {
		return this.filter.mayHoldPrivate(relativeFolder);
	}

	/** Hidden, or inside a private folder: the rules that need no file (for link targets that may not exist). */
	isInPrivateFolder(relativePath: string): boolean {
		return this.filter.isInPrivateFolder(relativePath);
	}

	/**
	 * A folder named by a path from the wire or the panel: hidden, outside the vault, or in a private folder by its
	 * own path or, for a symbolic link, by where it leads. (Tags do not apply to folders.)
	 */
	hidesFolder(path: string | VaultLocation): boolean {
		const location = typeof path === "string" ? this.locate(path) : path;
		if (location === undefined) return true;
		return (
			this.filter.isInPrivateFolder(location.relative) ||
			(location.realRelative !== undefined && this.filter.isInPrivateFolder(location.realRelative))
		);
	}

	/**
	 * A selection source that answers undefined (no active note) while the note is private, judged by the path the
	 * snapshot names (a snapshot is the wire's open shape: nothing else in it is trusted).
	 */
	selection<Snapshot extends { filePath: string }>(source: () => Snapshot | undefined): () => Snapshot | undefined {
		return () => {
			const snapshot = source();
			return snapshot && !this.hidesPath(snapshot.filePath) ? snapshot : undefined;
		};
	}

	/**
	 * A text reader (openFile's) that answers "no such note" for private ones, without reading them: openFile's
	 * `startText` search then never runs over a private note's text, so it is no oracle.
	 */
	textReader(
		read: (absolutePath: string) => Promise<string | undefined>,
	): (absolutePath: string) => Promise<string | undefined> {
		return this.fileReader(read);
	}

	/** The same boundary for any reader of a file's content (the panel's images are read as bytes). */
	fileReader<Content>(
		read: (absolutePath: string) => Promise<Content | undefined>,
	): (absolutePath: string) => Promise<Content | undefined> {
		return async (absolutePath) => {
			const location = this.locate(absolutePath);
			if (location === undefined || this.filter.isPrivate(location)) return undefined;
			const content = await read(absolutePath);
			if (content !== undefined) this.hardLinks.check(location);
			return content;
		};
	}

	/** The vault's files without private ones (the IDE's `files/read`, `resources/*`). */
	files(port: VaultFileBytes): VaultFileBytes {
		return new PrivateFiles(port, this.filter, (relativePath) => this.locate(relativePath), this.hardLinks);
	}

	/** The notes as the diagnostics see them: private ones are not notes, links into them are not checked. */
	notes(source: DiagnosticsNotes): DiagnosticsNotes {
		return new PrivateDiagnosticsNotes(source, this.filter);
	}

	/** The notes as Claude's vault tools see them: private and hidden ones do not exist. */
	visibleVault(index: VaultIndex): VisibleVault {
		return new VisibleVault({
			index,
			paths: this.paths,
			isPrivate: (relativePath) => this.indexedFilter.isPrivateRelative(relativePath),
			decisionsKey: () => this.indexedFilter.pathOnlyDecisions(),
			isInPrivateFolder: (relativePath) => this.indexedFilter.isInPrivateFolder(relativePath),
			unavailable: () => this.unavailable(),
		});
	}

	private locate(path: string): VaultLocation | undefined {
		try {
			return this.paths.resolve(path);
		} catch (error) {
			if (error instanceof VaultPathError) return undefined;
			throw error;
		}
	}
}
