import type { FrontmatterFact, NoteFacts, TagFact } from "../vault/markdown/note-model";
import type {
	Backlink,
	BacklinksFound,
	BacklinksWanted,
	RenameReport,
	VaultIndex,
	WriteOrigin,
} from "../vault/notes/vault-index";
import type { FrontmatterNeed, WorkPace } from "../vault/notes/notes";
import type { JournalWriter } from "./journal-writer";

export interface JournaledVaultIndexOptions {
	index: VaultIndex;
	/** The one journal writer (the panel's writes go through it too). */
	writer: JournalWriter;
}

/**
 * The vault index with every write recorded for undo: the one place vault-tool writes reach disk (edits, whether
 * reviewed or not; `set_properties`; `create_note`; `move_note` and every note it rewrote), each handed to the one
 * `JournalWriter`, which keeps the note's exact bytes before it and the hash of what is on disk after it.
 */
export class JournaledVaultIndex implements VaultIndex {
	// The index's optional faster reads, offered only where it has them (a reader checks for them).
	readonly textNow?: (path: string) => string | undefined;
	readonly factsWithoutLinks?: (path: string) => NoteFacts | undefined;
	readonly tagsOf?: (path: string) => readonly TagFact[] | undefined;
	readonly frontmatterOf?: (path: string) => FrontmatterFact | undefined;
	readonly searchText?: (path: string) => Buffer | undefined;
	readonly forEachSearchText?: (paths: readonly string[], each: (position: number, text: Buffer) => void) => void;
	readonly scanSearchTexts?: (
		paths: readonly string[],
		each: (position: number, text: Buffer) => void,
	) => Promise<void>;
	readonly pace?: WorkPace;
	readonly isNote?: (path: string) => boolean;
	readonly backlinksFrom?: (path: string, want: BacklinksWanted) => Promise<BacklinksFound>;

	constructor(private readonly options: JournaledVaultIndexOptions) {
		const index = options.index;
		if (index.pace) this.pace = index.pace;
		if (index.isNote) this.isNote = (path) => index.isNote?.(path) === true;
		if (index.textNow) this.textNow = (path) => index.textNow?.(path);
		if (index.factsWithoutLinks) this.factsWithoutLinks = (path) => index.factsWithoutLinks?.(path);
		if (index.tagsOf) this.tagsOf = (path) => index.tagsOf?.(path);
		if (index.frontmatterOf) this.frontmatterOf = (path) => index.frontmatterOf?.(path);
		if (index.searchText) this.searchText = (path) => index.searchText?.(path);
		if (index.forEachSearchText) this.forEachSearchText = (paths, each) => index.forEachSearchText?.(paths, each);
		if (index.scanSearchTexts) this.scanSearchTexts = async (paths, each) => index.scanSearchTexts?.(paths, each);
		if (index.backlinksFrom) {
			const from = index.backlinksFrom.bind(index);
			this.backlinksFrom = (path, want) => from(path, want);
		}
	}

	refresh(need?: FrontmatterNeed): Promise<void> {
		return this.options.index.refresh(need);
	}

	notePaths(): readonly string[] {
		return this.options.index.notePaths();
	}

	exists(path: string): Promise<boolean> {
		return this.options.index.exists(path);
	}

	readText(path: string): Promise<string | undefined> {
		return this.options.index.readText(path);
	}

	facts(path: string): NoteFacts | undefined {
		return this.options.index.facts(path);
	}

	resolveLink(linkpath: string, sourcePath: string, exists?: (path: string) => boolean): string | undefined {
		return this.options.index.resolveLink(linkpath, sourcePath, exists);
	}

	backlinks(path: string): Promise<Backlink[]> {
		return this.options.index.backlinks(path);
	}

	writeText(path: string, text: string, expected: string, origin?: WriteOrigin): Promise<void> {
		return this.options.writer.write({ journalId: origin?.journalId, path, text }, () =>
			this.options.index.writeText(path, text, expected, origin),
		);
	}

	createNote(path: string, text: string, origin?: WriteOrigin): Promise<void> {
		return this.options.writer.write({ journalId: origin?.journalId, path, text, created: true }, () =>
			this.options.index.createNote(path, text, origin),
		);
	}

	/** Hands the writer the notes a move may rewrite: the moved note, every note linking to it. */
	async renameNote(from: string, to: string, origin?: WriteOrigin): Promise<RenameReport> {
		const index = this.options.index;
		const candidates = new Set([from, ...(await index.backlinks(from)).map((backlink) => backlink.source)]);
		return this.options.writer.move({ journalId: origin?.journalId, from, to, candidates }, () =>
			index.renameNote(from, to, origin),
		);
	}
}
