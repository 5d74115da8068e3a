import type {
	AgentEvent,
	MessageAttachment,
	ReviewDecisionWords,
	ToolPermissionRequest,
	TurnUsage,
	UserMessage,
} from "../agent-session";

/** One row of a session's transcript, as the panel shows it. `id` is stable for the life of the transcript. */
export type TranscriptEntry =
	| {
			kind: "user";
			id: number;
			text: string;
			attachments: readonly MessageAttachment[];
			/** The names of the images sent with it. */
			images?: readonly string[];
			/** What did not go with it, and why (read at send time). */
			notSent?: readonly string[];
			state: "queued" | "sent";
			/** The message's id in the CLI's record of the conversation (the turn it begins), once it was handed over. */
			messageId?: string;
	  }
	| { kind: "assistant"; id: number; blockId: string; text: string; streaming: boolean }
	| {
			kind: "tool";
			id: number;
			toolUseId: string;
			toolName: string;
			input: Readonly<Record<string, unknown>>;
			status: "running" | "done" | "error";
			result?: string;
			/** An edit shown in the review: waiting for the user, or decided (in words). */
			review?: ToolReview;
			/** A permission question about this call waits for the user's answer (in its own card). */
			asking?: boolean;
	  }
	| { kind: "permission"; id: number; request: ToolPermissionRequest; status: "pending" | "allowed" | "denied" }
	| { kind: "usage"; id: number; outcome: "done" | "interrupted" | "error"; usage: TurnUsage; error?: string }
	| { kind: "notice"; id: number; text: string; level: "info" | "error" };

/** Where an edit's review stands, as its card shows it. */
export type ToolReview = { state: "waiting" } | { state: "decided"; words: string };

/** What one event did to the transcript: the entries added at the end, and the entries changed in place. */
export interface TranscriptChange {
	added: TranscriptEntry[];
	changed: TranscriptEntry[];
}

/**
 * A session's transcript built from its events, in order: the user's messages (queued until the CLI takes them),
 * Claude's streamed text (one entry per reply block, growing in place), tool calls with their results, permission
 * questions with their answers, a usage line per turn, and notices. No `obsidian` here: the view draws it.
 */
export class Transcript {
	private readonly list: TranscriptEntry[] = [];
	private nextId = 1;
	/** The open text block per `blockId`, so deltas land in the same entry. */
	private readonly blocks = new Map<string, Extract<TranscriptEntry, { kind: "assistant" }>>();
	private readonly tools = new Map<string, Extract<TranscriptEntry, { kind: "tool" }>>();
	private readonly permissions = new Map<string, Extract<TranscriptEntry, { kind: "permission" }>>();
	/** Review news that came before its tool call's card (the hook may run before the CLI prints the call). */
	private readonly earlyReviews = new Map<string, ToolReview>();

	get entries(): readonly TranscriptEntry[] {
		return this.list;
	}

	/** A message the user sent while Claude was busy: shown as queued until the CLI takes it. */
	queue(message: UserMessage): TranscriptChange {
		return this.add({ ...userRow(message), state: "queued" });
	}

	/** A line of the panel's own (the CLI is missing, the session ended …). */
	notice(text: string, level: "info" | "error" = "info"): TranscriptChange {
		return this.add({ kind: "notice", id: 0, text, level });
	}

	apply(event: AgentEvent): TranscriptChange {
		switch (event.kind) {
			case "user-message": {
				const queued = this.list.find(
					(entry): entry is Extract<TranscriptEntry, { kind: "user" }> =>
						entry.kind === "user" && entry.state === "queued" && entry.text === event.message.text,
				);
				if (queued) {
					// What went is known now: the attachments read, the images sent and those that were not.
					const row = userRow(event.message);
					queued.attachments = row.attachments;
					if (row.images) queued.images = row.images;
					else delete queued.images;
					if (row.notSent) queued.notSent = row.notSent;
					queued.state = "sent";
					if (event.id !== undefined) queued.messageId = event.id;
					return { added: [], changed: [queued] };
				}
				return this.add({
					...userRow(event.message),
					state: "sent",
					...(event.id !== undefined && { messageId: event.id }),
				});
			}
			case "text-delta": {
				const open = this.blocks.get(event.blockId);
				if (open) {
					open.text += event.text;
					return { added: [], changed: [open] };
				}
				// A new block starts: whatever Claude wrote before it is complete.
				const entry = {
					kind: "assistant" as const,
					id: 0,
					blockId: event.blockId,
					text: event.text,
					streaming: true,
				};
				const closed = this.closeBlocks();
				const change = this.add(entry);
				this.blocks.set(event.blockId, entry);
				return { added: change.added, changed: closed };
			}
			case "text-end": {
				const open = this.blocks.get(event.blockId);
				if (!open) return { added: [], changed: [] };
				open.streaming = false;
				this.blocks.delete(event.blockId);
				return { added: [], changed: [open] };
			}
			case "tool-call": {
				const entry: Extract<TranscriptEntry, { kind: "tool" }> = {
					kind: "tool",
					id: 0,
					toolUseId: event.toolUseId,
					toolName: event.toolName,
					input: event.input,
					status: "running",
				};
				const early = this.earlyReviews.get(event.toolUseId);
				if (early) {
					entry.review = early;
					this.earlyReviews.delete(event.toolUseId);
				}
				if (
					[...this.permissions.values()].some(
						(question) => question.status === "pending" && question.request.toolUseId === event.toolUseId,
					)
				)
					entry.asking = true;
				const closed = this.closeBlocks();
				const change = this.add(entry);
				this.tools.set(event.toolUseId, entry);
				return { added: change.added, changed: closed };
			}
			case "tool-result": {
				const tool = this.tools.get(event.toolUseId);
				if (!tool)
					return this.add({
						kind: "notice",
						id: 0,
						text: `A tool result arrived for an unknown call (${event.toolUseId}).`,
						level: "error",
					});
				tool.status = event.isError ? "error" : "done";
				tool.result = event.text;
				return { added: [], changed: [tool] };
			}
			case "review-waiting":
				return this.review(event.toolUseId, { state: "waiting" });
			case "review-decided":
				return this.review(event.toolUseId, { state: "decided", words: decisionWords(event.decision) });
			case "permission-request": {
				const entry = {
					kind: "permission" as const,
					id: 0,
					request: event.request,
					status: "pending" as const,
				};
				const closed = this.closeBlocks();
				const change = this.add(entry);
				this.permissions.set(event.request.id, entry);
				const tool = this.toolAskedAbout(event.request);
				if (tool) tool.asking = true;
				return { added: change.added, changed: tool ? [...closed, tool] : closed };
			}
			case "permission-settled": {
				const entry = this.permissions.get(event.id);
				if (!entry) return { added: [], changed: [] };
				entry.status = event.outcome;
				const tool = this.toolAskedAbout(entry.request);
				if (tool) delete tool.asking;
				return { added: [], changed: tool ? [entry, tool] : [entry] };
			}
			case "turn-end": {
				const closed = this.closeBlocks();
				const change = this.add({
					kind: "usage",
					id: 0,
					outcome: event.outcome,
					usage: event.usage,
					...(event.error !== undefined ? { error: event.error } : {}),
				});
				return { added: change.added, changed: closed };
			}
			case "failed":
				return { ...this.notice(event.message, "error"), changed: this.closeBlocks() };
			case "closed":
				return { ...this.notice("The session ended."), changed: this.closeBlocks() };
			case "ready":
			case "offers":
			case "permission-mode":
				return { added: [], changed: [] };
		}
	}

	private toolAskedAbout(request: ToolPermissionRequest): Extract<TranscriptEntry, { kind: "tool" }> | undefined {
		return request.toolUseId === undefined ? undefined : this.tools.get(request.toolUseId);
	}

	private review(toolUseId: string, review: ToolReview): TranscriptChange {
		const tool = this.tools.get(toolUseId);
		if (!tool) {
			this.earlyReviews.set(toolUseId, review);
			return { added: [], changed: [] };
		}
		tool.review = review;
		return { added: [], changed: [tool] };
	}

	/**
	 * Rows of another transcript this one begins with (a rewound or forked conversation's earlier turns), copied:
	 * settled rows, which no later event changes.
	 */
	adopt(entries: readonly TranscriptEntry[]): TranscriptChange {
		const added = entries.map((entry) => {
			const copy = structuredClone(entry);
			this.add(copy);
			return copy;
		});
		return { added, changed: [] };
	}

	/** The turns from this user message on (its own included): their messages' ids, in order. */
	turnsFrom(entryId: number): string[] {
		return this.list.flatMap((entry) =>
			entry.kind === "user" && entry.id >= entryId && entry.messageId !== undefined ? [entry.messageId] : [],
		);
	}

	/** The rows before this one. */
	before(entryId: number): TranscriptEntry[] {
		return this.list.filter((entry) => entry.id < entryId);
	}

	/** The rows of the turn this user message begins and of every turn before it: up to the next message of the user's. */
	throughTurnOf(entryId: number): { entries: TranscriptEntry[]; next?: Extract<TranscriptEntry, { kind: "user" }> } {
		const next = this.list.find(
			(entry): entry is Extract<TranscriptEntry, { kind: "user" }> => entry.kind === "user" && entry.id > entryId,
		);
		return {
			entries: next === undefined ? [...this.list] : this.before(next.id),
			...(next !== undefined && { next }),
		};
	}

	/** A past session's history was read: no block of it is still streaming. */
	settle(): TranscriptChange {
		return { added: [], changed: this.closeBlocks() };
	}

	/** Streaming is over for every open block (the turn ended). */
	private closeBlocks(): TranscriptEntry[] {
		const closed = [...this.blocks.values()];
		for (const block of closed) block.streaming = false;
		this.blocks.clear();
		return closed;
	}

	private add(entry: TranscriptEntry): TranscriptChange {
		entry.id = this.nextId++;
		this.list.push(entry);
		return { added: [entry], changed: [] };
	}
}

/** A user's message as its row shows it (without its state). */
function userRow(message: UserMessage): Omit<Extract<TranscriptEntry, { kind: "user" }>, "state"> {
	const images = (message.images ?? []).map((image) => image.name);
	return {
		kind: "user",
		id: 0,
		text: message.text,
		attachments: message.attachments,
		...(images.length > 0 && { images }),
		...(message.notSent !== undefined && message.notSent.length > 0 && { notSent: message.notSent }),
	};
}

/** The text a filter matches an entry by: what the row shows. */
export function entryText(entry: TranscriptEntry): string {
	switch (entry.kind) {
		case "user":
		case "assistant":
		case "notice":
			return entry.text;
		case "tool":
			return `${entry.toolName} ${toolSummary(entry.input)} ${entry.result ?? ""}`;
		case "permission":
			return `${entry.request.toolName} ${entry.request.summary}`;
		case "usage":
			return usageLine(entry.usage, entry.outcome);
	}
}

/** A tool call's input in one short line: the first string argument that names what it acts on. */
export function toolSummary(input: Readonly<Record<string, unknown>>): string {
	for (const key of ["file_path", "path", "command", "pattern", "query", "url", "notebook_path"]) {
		const value = input[key];
		if (typeof value === "string") return value.length > 120 ? `${value.slice(0, 119)}…` : value;
	}
	const text = JSON.stringify(input);
	return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** A turn's usage in words: tokens in and out, cache reads, cost when reported, duration. */
export function usageLine(usage: TurnUsage, outcome: "done" | "interrupted" | "error" = "done"): string {
	const parts: string[] = [];
	if (usage.inputTokens !== undefined || usage.outputTokens !== undefined)
		parts.push(
			`${(usage.inputTokens ?? 0).toLocaleString("en-US")} tokens in, ${(usage.outputTokens ?? 0).toLocaleString("en-US")} out`,
		);
	if (usage.cacheReadTokens) parts.push(`${usage.cacheReadTokens.toLocaleString("en-US")} from cache`);
	if (usage.costUsd !== undefined) parts.push(`$${usage.costUsd.toFixed(4)}`);
	if (usage.durationMs !== undefined) parts.push(`${(usage.durationMs / 1000).toFixed(1)} s`);
	const head = outcome === "interrupted" ? "Stopped" : outcome === "error" ? "Turn failed" : "Turn done";
	return parts.length > 0 ? `${head}: ${parts.join(" · ")}` : head;
}

/** A review's decision as the edit's card says it. */
export function decisionWords(decision: ReviewDecisionWords): string {
	switch (decision.kind) {
		case "accepted":
			return decision.edited ? "Accepted with your edits" : "Accepted";
		case "rejected":
			return decision.reason === undefined || decision.reason.trim() === ""
				? "Rejected"
				: `Rejected: ${decision.reason.trim()}`;
		case "withdrawn":
			return "Withdrawn before you decided (the turn was stopped)";
	}
}
