import type { JsonObject } from "../protocol/json-rpc";
import type { VaultPrivacy } from "../vault/privacy/vault-privacy";
import type { VaultLocation } from "../vault/vault-paths";
import type { Mention, SelectionSnapshot } from "./workspace/selection";

export interface NotifierOptions {
	/** Sends a notification to every connected, initialized client. */
	broadcast: (method: string, params: JsonObject) => void;
	/** Sends a notification to one client. */
	notifyClient: (sessionId: number, method: string, params: JsonObject) => void;
	/** Whether any client is connected and initialized. */
	hasClients: () => boolean;
	/** The editor's current note and selection, read when a client connects; undefined while the note is private. */
	currentSelection: () => SelectionSnapshot | undefined;
	/** The vault's privacy boundary, for what the editor pushes in (selections, note switches, tags). */
	privacy: Pick<VaultPrivacy, "hidesPath">;
	debounceMs: number;
	welcomeDelayMs: number;
	maxQueuedMentions: number;
	queuedMentionTtlMs: number;
	queuedMentionSpacingMs: number;
	now?: () => number;
}

export type MentionOutcome = "sent" | "queued" | "private";

/** A sent selection's note, text and range. */
type SentKey = [
	filePath: string,
	text: string,
	startLine: number,
	startCharacter: number,
	endLine: number,
	endCharacter: number,
];

interface QueuedMention {
	mention: Mention;
	queuedAt: number;
}

/**
 * Turns editor events into `selection_changed` and tagging into `at_mentioned`: debounced, flushed when a
 * selection gesture ends, deduplicated, and queued while no client is connected.
 */
export class Notifier {
	private pending: SelectionSnapshot | undefined;
	private debounceTimer: ReturnType<typeof setTimeout> | undefined;
	/** What the last selection sent was (copied: a snapshot object may be changed after it was sent). */
	private lastSentKey: SentKey | undefined;
	private latest: SelectionSnapshot | undefined;
	private readonly queue: QueuedMention[] = [];
	private readonly timers = new Set<ReturnType<typeof setTimeout>>();
	private readonly now: () => number;
	/** Clients whose welcome delay has not ended yet. */
	private pendingWelcomes = 0;
	/** Queued tags are being sent one by one. */
	private draining = false;

	constructor(private readonly options: NotifierOptions) {
		this.now = options.now ?? Date.now;
	}

	/** Changes the debounce for the next selection change (settings). */
	setDebounceMs(debounceMs: number): void {
		this.options.debounceMs = debounceMs;
	}

	/** The last selection sent to clients (for `getLatestSelection`). */
	get latestSelection(): SelectionSnapshot | undefined {
		return this.latest;
	}

	/** How many tags wait for a client. */
	get queuedMentions(): number {
		this.dropExpired();
		return this.queue.length;
	}

	/** The selection moved: send it once the editor has been quiet for the debounce time. */
	selectionChanged(snapshot: SelectionSnapshot): void {
		this.pending = snapshot;
		this.clearDebounce();
		this.debounceTimer = setTimeout(() => this.flush(), this.options.debounceMs);
	}

	/**
	 * A whole selection gesture in one event (the headless `select`): sent at once, as selectionChanged then flush.
	 * `location` is the note's place as the editor just resolved it, so the privacy check needs no second lookup.
	 */
	selectionEnded(snapshot: SelectionSnapshot, location?: VaultLocation): void {
		this.clearDebounce();
		this.pending = undefined;
		this.send(snapshot, location);
	}

	/** A selection gesture ended (mouse up, shift released): send what is pending now. */
	flush(): void {
		this.clearDebounce();
		const snapshot = this.pending;
		this.pending = undefined;
		if (snapshot) this.send(snapshot);
	}

	/** Another note became active: send its cursor at once, dropping any pending selection of the old one. */
	activeNoteChanged(snapshot: SelectionSnapshot, location?: VaultLocation): void {
		this.clearDebounce();
		this.pending = undefined;
		this.send(
			{
				...snapshot,
				text: "",
				selection: { start: snapshot.selection.start, end: snapshot.selection.start, isEmpty: true },
			},
			location,
		);
	}

	/** Whether a tag of this note or folder would be refused as private (for menus that should not offer it). */
	isPrivate(filePath: string): boolean {
		return this.options.privacy.hidesPath(filePath);
	}

	/**
	 * Tags a note, folder or line range for Claude; queued when no client is connected ("queued"). With a client
	 * connected it is "sent", possibly a moment later: after a new client's welcome and earlier queued tags.
	 * `location`, when the caller resolved the note already, is judged instead of resolving its path again.
	 */
	mention(mention: Mention, location?: VaultLocation): MentionOutcome {
		if (this.options.privacy.hidesPath(location?.absolute === mention.filePath ? location : mention.filePath))
			return "private";
		const connected = this.options.hasClients();
		// While a client's welcome is pending or queued tags are being delivered, a new tag joins the queue so
		// tags arrive in the order they were made (and not in the moments after a connect that the CLI drops).
		if (connected && this.pendingWelcomes === 0 && !this.draining) {
			this.options.broadcast("at_mentioned", mention);
			return "sent";
		}
		this.dropExpired();
		this.queue.push({ mention, queuedAt: this.now() });
		while (this.queue.length > this.options.maxQueuedMentions) this.queue.shift();
		return connected ? "sent" : "queued";
	}

	/**
	 * A client finished its handshake. After a short delay (the CLI drops earlier notifications) it gets the
	 * current note and selection, then any queued tags, in order.
	 */
	clientReady(sessionId: number): void {
		this.pendingWelcomes++;
		this.later(this.options.welcomeDelayMs, () => {
			this.pendingWelcomes--;
			const current = this.options.currentSelection();
			if (current) this.options.notifyClient(sessionId, "selection_changed", current);
			if (!this.draining) this.deliverNextQueued();
		});
	}

	/**
	 * Sends the oldest queued tag, then the next one a moment later, until the queue is empty or no client is left.
	 * Each tag is judged again as it is sent: a note made private while its tag waited is dropped, never named.
	 */
	private deliverNextQueued(): void {
		this.dropExpired();
		let next = this.options.hasClients() ? this.queue.shift() : undefined;
		while (next && this.options.privacy.hidesPath(next.mention.filePath)) next = this.queue.shift();
		this.draining = next !== undefined && this.queue.length > 0;
		if (next) this.options.broadcast("at_mentioned", next.mention);
		if (this.draining) this.later(this.options.queuedMentionSpacingMs, () => this.deliverNextQueued());
	}

	dispose(): void {
		this.clearDebounce();
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		this.pending = undefined;
		this.pendingWelcomes = 0;
		this.draining = false;
	}

	private send(snapshot: SelectionSnapshot, location?: VaultLocation): void {
		if (this.options.privacy.hidesPath(location?.absolute === snapshot.filePath ? location : snapshot.filePath))
			return;
		const { start, end } = snapshot.selection;
		const key: SentKey = [snapshot.filePath, snapshot.text, start.line, start.character, end.line, end.character];
		const last = this.lastSentKey;
		if (last !== undefined && key.every((part, index) => part === last[index])) return;
		this.lastSentKey = key;
		this.latest = snapshot;
		this.options.broadcast("selection_changed", snapshot);
	}

	private dropExpired(): void {
		const oldest = this.now() - this.options.queuedMentionTtlMs;
		while (this.queue.length > 0 && (this.queue[0]?.queuedAt ?? 0) < oldest) this.queue.shift();
	}

	private clearDebounce(): void {
		if (this.debounceTimer !== undefined) clearTimeout(this.debounceTimer);
		this.debounceTimer = undefined;
	}

	private later(delayMs: number, action: () => void): void {
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			action();
		}, delayMs);
		this.timers.add(timer);
	}
}
