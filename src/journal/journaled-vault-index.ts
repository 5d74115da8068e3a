import type { FrontmatterFact, NoteFacts, TagFact } from "../vault/markdown/note-model";
import type { Backlink, RenameReport, VaultIndex, WriteOrigin } from "../vault/notes/vault-index";
import { contentHash, sameBytes } from "./content-hash";
import type { Journal } from "./journal";
import type { RewrittenNote } from "./journal-records";

/** A note's bytes as they are on disk now; undefined when there is no note. */
export interface NoteBytes {
	readBytes(path: string): Promise<Uint8Array | undefined>;
}

export interface JournaledVaultIndexOptions {
	index: VaultIndex;
	journal: Journal;
	bytes: NoteBytes;
	/**
	 * The vault's privacy decision: a private note's name and text never reach the journal. With `text`, the note
	 * as it holds that text (after a write): a write that makes a note private is not recorded.
	 */
	isPrivate: (path: string, text?: string) => boolean;
}

/**
 * The vault index with every write recorded for undo: the one place vault-tool writes reach disk (edits, whether
 * reviewed or not; `set_properties`; `create_note`; `move_note` and every note it rewrote). Before a write the
 * note's exact bytes are kept; after it, the hash of what is on disk. Private notes a move rewrote are left out
 * (their links are put back by the reverse move when it is undone).
 */
export class JournaledVaultIndex implements VaultIndex {
	// The index's optional faster reads, offered only where it has them (a reader checks for them).
	readonly textNow?: (path: string) => string | undefined;
	readonly tagsOf?: (path: string) => readonly TagFact[] | undefined;
	readonly frontmatterOf?: (path: string) => FrontmatterFact | undefined;
	readonly searchText?: (path: string) => Buffer | undefined;
	readonly searchTextsOf?: (paths: readonly string[]) => readonly (Buffer | undefined)[];

	constructor(private readonly options: JournaledVaultIndexOptions) {
		const index = options.index;
		if (index.textNow) this.textNow = (path) => index.textNow?.(path);
		if (index.tagsOf) this.tagsOf = (path) => index.tagsOf?.(path);
		if (index.frontmatterOf) this.frontmatterOf = (path) => index.frontmatterOf?.(path);
		if (index.searchText) this.searchText = (path) => index.searchText?.(path);
		if (index.searchTextsOf) this.searchTextsOf = (paths) => index.searchTextsOf?.(paths) ?? [];
	}

	refresh(): Promise<void> {
		return this.options.index.refresh();
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

	async writeText(path: string, text: string, expected: string, origin?: WriteOrigin): Promise<void> {
		const journal = this.options.journal;
		const before = await this.options.bytes.readBytes(path);
		const image = before === undefined ? undefined : { hash: contentHash(before), bytes: before };
		// On disk before the write: whatever happens next, the note's earlier bytes can be put back.
		if (image) await journal.keepPreImages([image]);
		try {
			await this.options.index.writeText(path, text, expected, origin);
		} catch (error) {
			if (image) await journal.releasePreImages([image]);
			throw error;
		}
		if (!image) return;
		if (this.options.isPrivate(path, text)) {
			await journal.releasePreImages([image]);
			return;
		}
		const after = await this.afterHash(path, text);
		await journal.recordChange(
			origin?.journalId,
			{ kind: "edit", path, before: { hash: image.hash, bytes: image.bytes.byteLength }, after },
			[image],
		);
	}

	async createNote(path: string, text: string, origin?: WriteOrigin): Promise<void> {
		await this.options.index.createNote(path, text, origin);
		if (this.options.isPrivate(path, text)) return;
		await this.options.journal.recordChange(
			origin?.journalId,
			{ kind: "create", path, after: await this.afterHash(path, text) },
			[],
		);
	}

	/**
	 * Keeps the bytes of the notes a move may rewrite (the moved note, every visible note linking to it) before it,
	 * then records those it changed.
	 */
	async renameNote(from: string, to: string, origin?: WriteOrigin): Promise<RenameReport> {
		const journal = this.options.journal;
		const candidates = new Set([
			from,
			...(await this.options.index.backlinks(from)).map((backlink) => backlink.source),
		]);
		const before = new Map<string, { hash: string; bytes: Uint8Array }>();
		for (const path of candidates) {
			if (this.options.isPrivate(path)) continue;
			const bytes = await this.options.bytes.readBytes(path);
			if (bytes !== undefined) before.set(path, { hash: contentHash(bytes), bytes });
		}
		const images = [...before.values()];
		await journal.keepPreImages(images);
		let report: RenameReport | undefined;
		let failure: unknown;
		try {
			report = await this.options.index.renameNote(from, to, origin);
		} catch (error) {
			failure = error;
		}
		// A move that failed part way (links not kept) still moved the note: it is recorded, then the error goes on.
		const moved = await this.options.bytes.readBytes(to);
		if (moved !== undefined && this.options.isPrivate(to, Buffer.from(moved).toString("utf8")))
			await journal.releasePreImages(images);
		else if (moved !== undefined && (await this.options.bytes.readBytes(from)) === undefined) {
			const rewrites: RewrittenNote[] = [];
			for (const [path, image] of before) {
				const now = path === from ? to : path;
				const current = now === to ? moved : await this.options.bytes.readBytes(now);
				if (current === undefined || sameBytes(current, image.bytes)) continue;
				rewrites.push({
					path: now,
					before: { hash: image.hash, bytes: image.bytes.byteLength },
					after: contentHash(current),
				});
			}
			await journal.recordChange(
				origin?.journalId,
				{ kind: "move", from, to, after: contentHash(moved), rewrites },
				images,
			);
		} else await journal.releasePreImages(images);
		if (failure !== undefined || !report) throw failure;
		return report;
	}

	/**
	 * The hash of the note after a write: of the bytes on disk when they are the text written (in UTF-8, or read
	 * back as it), else of the text's UTF-8, so that undo sees someone else's change as a conflict.
	 */
	private async afterHash(path: string, text: string): Promise<string> {
		const written = Buffer.from(text, "utf8");
		const now = await this.options.bytes.readBytes(path);
		if (now !== undefined && (sameBytes(now, written) || Buffer.from(now).toString("utf8") === text))
			return contentHash(now);
		return contentHash(written);
	}
}
