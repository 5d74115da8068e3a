import { setTimeout } from "node:timers";
import { describeError } from "../../shared/describe-error";
import type { FolderVault } from "../../vault/folder/folder-vault";

/** Logged on stderr when the folder has been read (benchmarks wait for it before timing warm calls). */
export const WARM_UP_DONE = "Folder warm-up done";

/** How long the warm-up works before it lets requests and I/O through (a note's facts can take milliseconds). */
const WARM_UP_SLICE_MS = 8;
/**
 * How long after a call starts or is answered the warm-up waits: calls come in bursts (a client paging through an
 * answer asks for the next page at once), and each slice run between them delays the next.
 */
const AFTER_CALL_MS = 30;

export interface FolderReadingOptions {
	folder: FolderVault;
	/** Serving the folder's index to the other sessions on the vault (`FolderHost`). */
	host: { readonly isHost: boolean; claim(): Promise<boolean> };
	/** Where calls go when a bridge or another session's index answers them (`BridgeRelay`). */
	relay: { current(): Promise<unknown> };
	/** Whether a private-tag rule is set: then every note's tags are read too. */
	tagRules: () => boolean;
	log: (message: string) => void;
}

/**
 * When the stdio server reads the folder itself (no bridge, no other session's index): it then serves the other
 * sessions too, and reads every note once so that the first calls find it warm. Decided at start, and asked again
 * whenever the folder answers (`reading`), e.g. after the session that served this one ended.
 */
export class FolderReading {
	private warming = false;
	private disposed = false;
	/** When a call last started or was answered. */
	private lastCall = Number.NEGATIVE_INFINITY;
	private readonly start: ReturnType<typeof setImmediate>;

	constructor(private readonly options: FolderReadingOptions) {
		this.start = setImmediate(() => {
			void (async () => {
				if (await options.relay.current()) return;
				// Another session may claim the vault first: then this one relays to it and reads nothing itself.
				if (!(await options.host.claim()) && (await options.relay.current())) return;
				this.warmOnce();
			})().catch((error: unknown) => options.log(`Warm-up failed: ${describeError(error)}`));
		});
	}

	/** The folder answers a call: serve the other sessions unless another one serves this one, and warm up. */
	reading(): void {
		this.lastCall = performance.now();
		if (this.options.host.isHost || this.disposed) return;
		void this.options.host.claim().then((claimed) => {
			if (claimed) this.warmOnce();
		});
	}

	/** The folder has answered a call. */
	answered(): void {
		this.lastCall = performance.now();
	}

	dispose(): void {
		this.disposed = true;
		clearImmediate(this.start);
	}

	private warmOnce(): void {
		if (this.warming || this.disposed) return;
		this.warming = true;
		const started = performance.now();
		const { log } = this.options;
		const holdOff = (): number => this.lastCall + AFTER_CALL_MS - performance.now();
		void warmFolder(this.options.folder, () => this.disposed, this.options.tagRules, log, holdOff)
			.then((notes) => {
				if (this.disposed) return;
				const ms = Math.round(performance.now() - started);
				try {
					// For the next session on the vault: it then checks each note's stamp instead of reading it.
					this.options.folder.index.save();
				} catch (error) {
					log(`Not saving the folder index for the next session: ${describeError(error)}`);
				}
				log(`${WARM_UP_DONE}: read ${notes} notes in ${ms} ms`);
			})
			.catch((error: unknown) => log(`Warm-up failed: ${describeError(error)}`));
	}
}

/**
 * Reads every note once for what questions about the whole vault need (search text, links, tags, frontmatter, and
 * its tags for privacy while a tag rule is set: without one privacy never asks), in slices of a few milliseconds
 * so that requests arriving meanwhile are answered at once.
 */
export async function warmFolder(
	folder: FolderVault,
	stopped: () => boolean,
	tagRules: () => boolean,
	log: (message: string) => void = () => undefined,
	/** How long to wait before the next slice (none when 0 or less): calls answered just now come first. */
	holdOff: () => number = () => 0,
): Promise<number> {
	const index = folder.index;
	await index.refresh();
	if (index.savedNotesTakenUp > 0)
		log(
			`Took up the folder index the last session saved: ${index.savedNotesTakenUp} notes, each checked when first asked`,
		);
	const paths = index.notePaths();
	let sliceStart = performance.now();
	for (const path of paths) {
		if (stopped()) return paths.length;
		index.warmNote(path);
		if (tagRules()) folder.tagsOf(path);
		if (performance.now() - sliceStart >= WARM_UP_SLICE_MS) {
			await new Promise<void>((resolve) => setImmediate(resolve));
			for (let wait = holdOff(); wait > 0 && !stopped(); wait = holdOff())
				await new Promise<void>((resolve) => setTimeout(resolve, Math.ceil(wait)));
			sliceStart = performance.now();
		}
	}
	return paths.length;
}
