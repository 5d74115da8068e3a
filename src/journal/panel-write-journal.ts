import { readFile } from "node:fs/promises";
import { contentHash, sameBytes } from "./content-hash";
import type { Journal } from "./journal";
import type { NoteChange } from "./journal-records";
import { PRIVATE_NOTE } from "./argument-summary";

/** A reviewed write the CLI is about to make, kept in the activity journal with the file's bytes before it. */
export interface JournaledWrite {
	/** The CLI reported the tool's result: record what is on disk now (nothing when it failed). */
	finished(succeeded: boolean): Promise<void>;
}

/** A write the panel's gate allowed, as the journal is told of it. */
export interface ApprovedWrite {
	path: string;
	tool: string;
	summary: string;
	sessionId?: string;
	/** The file's bytes as the gate read them, once, for the review (undefined: no file yet): the write's pre-image. */
	before: Uint8Array | undefined;
}

/** Where the panel's allowed writes are recorded. */
export interface WriteJournal {
	/** Called when the gate allows a reviewed write, before the CLI runs it. */
	approved(write: ApprovedWrite): Promise<JournaledWrite>;
}

/** A file's bytes on disk; undefined when there is none. */
async function bytesOnDisk(absolutePath: string): Promise<Uint8Array | undefined> {
	try {
		return await readFile(absolutePath);
	} catch {
		return undefined;
	}
}

export interface PanelWriteJournalOptions {
	journal: Journal;
	absolutePath: (vaultPath: string) => string;
	/**
	 * The vault's privacy decision as the vault tools' journal applies it (`Bridge.activity.isPrivate`, the same one
	 * `JournaledVaultIndex` is given): with `text`, the note as it holds that text after the write.
	 */
	isPrivate: (path: string, text?: string) => boolean;
	/** Reads the file after the CLI wrote it. */
	readBytes?: (absolutePath: string) => Promise<Uint8Array | undefined>;
	now?: () => number;
}

/**
 * The writes Claude Code's own tools make in the panel, in the activity journal (surface "panel"): the file's
 * bytes the gate read for the review are kept when it allows the write (before the CLI makes it; not read again), and the change is recorded with the
 * hash of what is on disk when the CLI reports the tool's result, so the write can be undone like a vault-tool one.
 * One journal session per CLI session. A write that leaves its note private (a private tag added, a note created
 * with one) is judged as a vault-tool write is: its record names no note, keeps "(a private note)" for the path, and
 * no change or pre-image is kept.
 */
export class PanelWriteJournal implements WriteJournal {
	private readonly sessions = new Map<string, string>();
	private readonly unnamedSession: string;

	constructor(private readonly options: PanelWriteJournalOptions) {
		this.unnamedSession = options.journal.newSessionKey();
	}

	approved(write: ApprovedWrite): Promise<JournaledWrite> {
		const { journal } = this.options;
		const absolute = this.options.absolutePath(write.path);
		const read = this.options.readBytes ?? bytesOnDisk;
		const before = write.before;
		const now = this.options.now ?? (() => performance.now());
		const started = now();
		const id = journal.begin({
			session: { key: this.sessionKey(write.sessionId), surface: "panel", client: "claude-code" },
			tool: write.tool,
			notes: [write.path],
			args: write.summary,
		});
		let done = false;
		return Promise.resolve({
			finished: async (succeeded: boolean) => {
				if (done) return;
				done = true;
				const after = succeeded ? await read(absolute) : undefined;
				if (after !== undefined && this.options.isPrivate(write.path, Buffer.from(after).toString("utf8"))) {
					journal.redescribe(id, { notes: [], args: `${write.tool} ${PRIVATE_NOTE}` });
				} else {
					const change = after === undefined ? undefined : changeOf(write.path, before, after);
					if (change) await journal.recordChange(id, change.change, change.preImages);
				}
				journal.finish(id, {
					outcome: succeeded ? "ok" : "error",
					durationMs: Math.round((now() - started) * 10) / 10,
					answerBytes: 0,
				});
			},
		});
	}

	private sessionKey(sessionId: string | undefined): string {
		if (sessionId === undefined) return this.unnamedSession;
		let key = this.sessions.get(sessionId);
		if (key === undefined) this.sessions.set(sessionId, (key = this.options.journal.newSessionKey()));
		return key;
	}
}

function changeOf(
	path: string,
	before: Uint8Array | undefined,
	after: Uint8Array,
): { change: NoteChange; preImages: { hash: string; bytes: Uint8Array }[] } | undefined {
	if (before === undefined) return { change: { kind: "create", path, after: contentHash(after) }, preImages: [] };
	if (sameBytes(before, after)) return undefined;
	const hash = contentHash(before);
	return {
		change: { kind: "edit", path, before: { hash, bytes: before.byteLength }, after: contentHash(after) },
		preImages: [{ hash, bytes: before }],
	};
}
