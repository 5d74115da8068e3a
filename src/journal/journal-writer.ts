import { readFile } from "node:fs/promises";
import { PRIVATE_NOTE } from "./argument-summary";
import { contentHash, sameBytes } from "./content-hash";
import type { Journal } from "./journal";
import type { JournalConversation } from "./journal-conversation";
import type { JournalSession, NoteChange, RewrittenNote, Surface } from "./journal-records";
import type { RenameReport } from "../vault/notes/vault-index";

/** A note's bytes as they are on disk now, by vault path; undefined when there is no note. */
export interface NoteBytes {
	readBytes(path: string): Promise<Uint8Array | undefined>;
}

/** A reviewed write a surface's own tool is about to make, kept in the journal with the file's bytes before it. */
export interface JournaledWrite {
	/** The tool reported its result: record what is on disk now (nothing when it failed). */
	finished(succeeded: boolean): Promise<void>;
}

/** A write a surface allowed, as the journal is told of it. */
export interface ApprovedWrite {
	path: string;
	tool: string;
	summary: string;
	sessionId?: string;
	/** The conversation turn that made the write (its user message's id), when known. */
	turn?: string;
	/** The file's bytes as the surface read them, once, for the review (undefined: no file yet): the write's pre-image. */
	before: Uint8Array | undefined;
}

/** Where a surface's allowed writes are recorded (the panel's gate's port). */
export interface WriteJournal {
	/** Called when a reviewed write is allowed, before the surface's tool makes it. */
	approved(write: ApprovedWrite): Promise<JournaledWrite>;
}

/** A surface whose own tool makes its writes (the panel's CLI), each recorded as a call of its own. */
export interface WritingSurface {
	surface: Surface;
	client: string;
	/** Reads the file after the tool wrote it (the tool writes outside the root's cache: read from disk). */
	bytes: NoteBytes;
	/** The conversation every write belongs to (its key and title), shared with its other recorders. */
	conversation?: JournalConversation;
}

/** A note's exact bytes before a write, by hash: what undo puts back. */
interface PreImageBytes {
	hash: string;
	bytes: Uint8Array;
}

export interface JournalWriterOptions {
	journal: Journal;
	/**
	 * The vault's privacy decision for a write (`writePrivacy`): a private note's name and text never reach the
	 * journal. With `text`, the note as it holds that text after the write: a write that leaves a note private is
	 * recorded as naming no note, with no change and no pre-image.
	 */
	isPrivate: (path: string, text?: string) => boolean;
	/** The vault's notes as they are on disk now: the pre-images and after-images of the writes made in this process. */
	bytes: NoteBytes;
	now?: () => number;
}

/**
 * The one journal writer of every surface's writes: the vault tools' (edits, whether reviewed or not;
 * `set_properties`; `create_note`; `move_note` and every note it rewrote, through `JournaledVaultIndex`) and the
 * panel's CLI's own Edit and Write (through `approvedBy`). A write's pre-image is the note's exact bytes before it
 * (those the caller already read, or read here once), its after-image the hash of what is on disk after it, so
 * that undo puts back the bytes and sees anyone else's change as a conflict. A write that leaves its note private
 * keeps no pre-image and no change.
 */
export class JournalWriter {
	constructor(private readonly options: JournalWriterOptions) {}

	/**
	 * A surface whose own tool writes later (the panel's CLI): each allowed write opens a call, in the surface's
	 * conversation when it has one, else in one journal session per surface session; the pre-image is the bytes the
	 * surface read for the review (not read again), kept with the change when the tool reports its result, recorded
	 * with the hash of what is then on disk.
	 */
	approvedBy(surface: WritingSurface): WriteJournal {
		const { journal } = this.options;
		const { conversation } = surface;
		const sessions = new Map<string, string>();
		const unnamedSession = journal.newSessionKey();
		const keyOf = (sessionId: string | undefined): string => {
			if (sessionId === undefined) return unnamedSession;
			let key = sessions.get(sessionId);
			if (key === undefined) sessions.set(sessionId, (key = journal.newSessionKey()));
			return key;
		};
		// The conversation's session is taken when each write opens: its title may be known only from then on.
		const sessionOf = (sessionId: string | undefined): JournalSession =>
			conversation
				? conversation.session({ client: surface.client })
				: { key: keyOf(sessionId), surface: surface.surface, client: surface.client };
		return { approved: (write) => Promise.resolve(this.openCall(write, surface, sessionOf(write.sessionId))) };
	}

	private openCall(write: ApprovedWrite, surface: WritingSurface, session: JournalSession): JournaledWrite {
		const { journal } = this.options;
		const now = this.options.now ?? (() => performance.now());
		const started = now();
		const id = journal.begin({
			session,
			...(write.turn !== undefined && { turn: write.turn }),
			tool: write.tool,
			notes: [write.path],
			args: write.summary,
		});
		let done = false;
		return {
			finished: async (succeeded: boolean) => {
				if (done) return;
				done = true;
				const after = succeeded ? await surface.bytes.readBytes(write.path) : undefined;
				if (after !== undefined && this.options.isPrivate(write.path, utf8(after))) {
					journal.redescribe(id, { notes: [], args: `${write.tool} ${PRIVATE_NOTE}` });
				} else if (after !== undefined && !(write.before !== undefined && sameBytes(write.before, after))) {
					const image = preImageOf(write.before);
					await journal.recordChange(
						id,
						changeOf(write.path, image, contentHash(after)),
						image ? [image] : [],
					);
				}
				journal.finish(id, {
					outcome: succeeded ? "ok" : "error",
					durationMs: Math.round((now() - started) * 10) / 10,
					answerBytes: 0,
				});
			},
		};
	}

	/**
	 * A note rewritten (or, `created`, made) now by the call `journalId` (a vault tool's): the note's bytes before
	 * it reach the journal before `run` writes, so the write can be undone even if the process stops; released when
	 * the write fails or leaves the note private. The after-image is the hash of what is on disk after it.
	 */
	async write(
		write: { journalId: string | undefined; path: string; text: string; created?: boolean },
		run: () => Promise<void>,
	): Promise<void> {
		const { journal, isPrivate } = this.options;
		const image = write.created ? undefined : preImageOf(await this.options.bytes.readBytes(write.path));
		const images = image ? [image] : [];
		if (image) await journal.keepPreImages(images);
		try {
			await run();
		} catch (error) {
			if (image) await journal.releasePreImages(images);
			throw error;
		}
		if (!image && !write.created) return;
		if (isPrivate(write.path, write.text)) {
			if (image) await journal.releasePreImages(images);
			return;
		}
		const after = await this.afterHash(write.path, write.text);
		await journal.recordChange(write.journalId, changeOf(write.path, image, after), images);
	}

	/**
	 * A note moved now by the call `journalId` (a vault tool's), with the notes the move may rewrite (`candidates`:
	 * the moved note and those linking to it): their bytes are kept before it, and those it changed recorded. Private
	 * notes are left out (their links are put back by the reverse move when it is undone). A move that failed part
	 * way (links not kept) still moved the note: it is recorded, then the error goes on.
	 */
	async move(
		write: { journalId: string | undefined; from: string; to: string; candidates: Iterable<string> },
		run: () => Promise<RenameReport>,
	): Promise<RenameReport> {
		const { journal, bytes, isPrivate } = this.options;
		const { from, to } = write;
		const before = new Map<string, PreImageBytes>();
		for (const path of write.candidates) {
			if (isPrivate(path)) continue;
			const image = preImageOf(await bytes.readBytes(path));
			if (image) before.set(path, image);
		}
		const images = [...before.values()];
		await journal.keepPreImages(images);
		let report: RenameReport | undefined;
		let failure: unknown;
		try {
			report = await run();
		} catch (error) {
			failure = error;
		}
		const moved = await bytes.readBytes(to);
		if (moved !== undefined && isPrivate(to, utf8(moved))) await journal.releasePreImages(images);
		else if (moved !== undefined && (await bytes.readBytes(from)) === undefined) {
			const rewrites: RewrittenNote[] = [];
			for (const [path, image] of before) {
				const now = path === from ? to : path;
				const current = now === to ? moved : await bytes.readBytes(now);
				if (current === undefined || sameBytes(current, image.bytes)) continue;
				rewrites.push({
					path: now,
					before: { hash: image.hash, bytes: image.bytes.byteLength },
					after: contentHash(current),
				});
			}
			await journal.recordChange(
				write.journalId,
				{ kind: "move", from, to, after: contentHash(moved), rewrites },
				images,
			);
		} else await journal.releasePreImages(images);
		if (failure !== undefined || !report) throw failure;
		return report;
	}

	/**
	 * The hash of the note after a write of `text`: of the bytes on disk when they are the text written (in UTF-8, or
	 * read back as it), else of the text's UTF-8, so that undo sees someone else's change as a conflict.
	 */
	private async afterHash(path: string, text: string): Promise<string> {
		const written = Buffer.from(text, "utf8");
		const now = await this.options.bytes.readBytes(path);
		if (now !== undefined && (sameBytes(now, written) || utf8(now) === text)) return contentHash(now);
		return contentHash(written);
	}
}

/** A file's bytes on disk by its absolute path; undefined when there is none. */
export async function bytesOnDisk(absolutePath: string): Promise<Uint8Array | undefined> {
	try {
		return await readFile(absolutePath);
	} catch {
		return undefined;
	}
}

function utf8(bytes: Uint8Array): string {
	return Buffer.from(bytes).toString("utf8");
}

function preImageOf(bytes: Uint8Array | undefined): PreImageBytes | undefined {
	return bytes === undefined ? undefined : { hash: contentHash(bytes), bytes };
}

/** A write's change: an edit from the note's pre-image, or a note created (none). */
function changeOf(path: string, before: PreImageBytes | undefined, after: string): NoteChange {
	return before === undefined
		? { kind: "create", path, after }
		: { kind: "edit", path, before: { hash: before.hash, bytes: before.bytes.byteLength }, after };
}
