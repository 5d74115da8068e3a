import { Notice, type App } from "obsidian";
import { noteName } from "../../agent/transcript/tool-words";
import { isUndoable, type ActivityEntry } from "../../journal/activity-entries";
import type { Journal } from "../../journal/journal";
import type { NoteChange } from "../../journal/journal-records";
import type { Undo, UndoConflict } from "../../journal/undo";
import { computeLineDiff } from "../../shared/word-diff";
import { renderDiff } from "../review/diff-rendering";
import { ReviewPanel } from "../review/review-panel";
import type { Conversation } from "./activity-rows";
import { conversationTitle, entryText, outcomeWords, shownNotes, surfaceWords } from "./activity-words";

/** The bridge's journal and its undo while the bridge runs. */
export interface ActivitySource {
	journal: Journal;
	undo?: Undo;
}

const decoder = new TextDecoder();

/**
 * One entry's details: what it did in words, its conversation and where it took place, when, how it ended, then the
 * journal's own record (the tool's name, its arguments, the answer's size), the notes (each opens on click or Enter)
 * and the diff of each edit (the note's earlier text against the note now), with Undo where it applies. A
 * conflicting undo writes nothing: it opens the review panel to choose between the note now and its earlier text.
 */
export class ActivityDetails {
	constructor(
		private readonly app: App,
		private readonly root: HTMLElement,
		private readonly source: ActivitySource,
		private readonly changed: () => void,
		/** Closes the details (no row chosen). */
		private readonly close?: () => void,
	) {}

	/** Shows `entry`, of `conversation` (as the list titles it; else titled from the entry alone). */
	async show(entry: ActivityEntry, conversation?: Pick<Conversation, "title">): Promise<void> {
		const root = this.root;
		root.empty();
		const header = root.createDiv({ cls: "ccb-activity-details-header" });
		header.createEl("h4", { text: entryText(entry) });
		if (this.close) {
			const close = this.close;
			header
				.createEl("button", { cls: "ccb-activity-details-close", text: "Close" })
				.addEventListener("click", () => close());
		}
		const facts = root.createEl("dl", { cls: "ccb-activity-facts" });
		const fact = (label: string, value: string): void => {
			facts.createEl("dt", { text: label });
			facts.createEl("dd", { text: value });
		};
		const { session } = entry;
		fact(
			"Conversation",
			`${conversation?.title ?? conversationTitle([session], entry.at)} (${surfaceWords(session.surface).toLowerCase()})`,
		);
		fact("When", new Date(entry.at).toLocaleString());
		const outcome = outcomeWords(entry) || "Done";
		fact(
			"Outcome",
			entry.detail !== undefined && entry.unreadable === undefined ? `${outcome}: ${entry.detail}` : outcome,
		);
		if (entry.undoneAt !== undefined) fact("Undone", new Date(entry.undoneAt).toLocaleString());
		if (entry.unreadable !== undefined)
			fact("Unreadable", `${entry.unreadable}. Nothing of it is shown, and it cannot be undone.`);
		if (entry.notUndoable !== undefined) fact("Cannot be undone", entry.notUndoable);
		// What the journal recorded, for whoever wants the call as Claude made it: folded, as it is not in words.
		const recorded = root.createEl("details", { cls: "ccb-activity-recorded" });
		recorded.createEl("summary", { text: "The call as Claude made it" });
		const recordedFacts = recorded.createEl("dl", { cls: "ccb-activity-facts" });
		const recordedFact = (label: string, value: string): void => {
			recordedFacts.createEl("dt", { text: label });
			recordedFacts.createEl("dd", { text: value });
		};
		recordedFact("Tool", entry.tool);
		recordedFact("Arguments", entry.args === "" ? "none" : entry.args);
		if (entry.durationMs !== undefined) recordedFact("Took", `${entry.durationMs} ms`);
		if (entry.answerBytes !== undefined) recordedFact("Answer size", `${entry.answerBytes} bytes`);
		recordedFact("Journal entry", `${entry.id} in session ${session.key}`);
		const notes = root.createDiv({ cls: "ccb-activity-notes" });
		for (const path of shownNotes(entry)) {
			const link = notes.createEl("a", {
				cls: ["internal-link", "ccb-activity-note"],
				text: noteName(path),
				attr: { href: path, "aria-label": `Open ${path}` },
			});
			link.addEventListener("click", (event: MouseEvent) => {
				event.preventDefault();
				void this.openNote(path);
			});
		}
		if (this.source.undo && isUndoable(entry)) {
			const button = root.createEl("button", { cls: "ccb-activity-undo", text: "Undo" });
			button.addEventListener("click", () => void this.undo(entry));
		}
		for (const change of entry.changes)
			await this.renderChange(root.createDiv({ cls: "ccb-activity-change" }), change);
	}

	private async renderChange(parent: HTMLElement, change: NoteChange): Promise<void> {
		if (change.kind === "create") {
			parent.createDiv({ text: `Created ${change.path}` });
			return;
		}
		if (change.kind === "move") {
			parent.createDiv({
				text: `Moved ${change.from} to ${change.to}${change.rewrites.length > 0 ? `; links rewritten in ${change.rewrites.map((rewrite) => rewrite.path).join(", ")}` : ""}`,
			});
			return;
		}
		parent.createDiv({ text: `Changed ${change.path}` });
		const before = await this.source.journal
			.preImage(change.before)
			.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
		if (before instanceof Error) {
			parent.createDiv({
				cls: "ccb-activity-muted",
				text: `Its earlier text in the journal's folder ${before.message}; it is not shown.`,
			});
			return;
		}
		const file = this.app.vault.getFileByPath(change.path);
		if (!before || !file) {
			parent.createDiv({
				cls: "ccb-activity-muted",
				text: before ? "The note is gone." : "Its earlier text is no longer kept.",
			});
			return;
		}
		renderDiff(parent, computeLineDiff(decoder.decode(before), await this.app.vault.read(file)).lines, "unified");
	}

	private async openNote(path: string): Promise<void> {
		const file = this.app.vault.getFileByPath(path);
		if (!file) {
			new Notice(`${path} is not in the vault now.`);
			return;
		}
		await this.app.workspace.getLeaf(false).openFile(file);
	}

	private async undo(entry: ActivityEntry): Promise<void> {
		const undo = this.source.undo;
		if (!undo) return;
		const result = await undo
			.entry(entry.id)
			.catch((error: unknown) => ({ kind: "refused" as const, id: entry.id, reason: String(error) }));
		if (result.kind === "undone") {
			new Notice(`Undone: ${result.notes.join(", ")}`);
			this.changed();
			return;
		}
		if (result.kind === "refused") {
			new Notice(`Not undone: ${result.reason}`);
			return;
		}
		this.reviewConflicts(result.conflicts.map((conflict) => ({ entry, conflict })));
	}

	/**
	 * Reviews each conflicting note in turn (in the order given: newest call first): the note now against its
	 * earlier text, where accepting writes what the user decided, only over the note as shown. A note that cannot be
	 * reviewed (gone, or a created note, which undo would trash) is named in a notice. Then the view is refreshed.
	 */
	reviewConflicts(items: readonly { entry: ActivityEntry; conflict: UndoConflict }[]): void {
		const reviewable = items.filter(({ conflict }) => conflict.restore && conflict.current);
		const skipped = items.filter((item) => !reviewable.includes(item));
		if (skipped.length > 0)
			new Notice(
				`Not undone: ${skipped.map(({ conflict }) => `${conflict.path} ${conflict.reason}`).join("; ")}`,
			);
		if (reviewable.length === 0) return;
		const next = (index: number): void => {
			const item = reviewable[index];
			if (!item) {
				this.changed();
				return;
			}
			this.review(item.entry, item.conflict, index, reviewable.length, () => next(index + 1));
		};
		next(0);
	}

	/** One note now against its earlier text, as a review; `done` runs once the user decided (and it was written). */
	private review(entry: ActivityEntry, conflict: UndoConflict, index: number, count: number, done: () => void): void {
		const root = this.root;
		root.empty();
		const now = decoder.decode(conflict.current);
		const position = count > 1 ? ` (note ${index + 1} of ${count})` : "";
		root.createDiv({
			cls: "ccb-activity-conflict",
			text: `${conflict.path} changed since this call${position}: choose what it should hold. Nothing is written unless you accept.`,
		});
		new ReviewPanel(
			root.createDiv(),
			{
				path: conflict.path,
				before: now,
				proposed: decoder.decode(conflict.restore),
				proposer: {
					surface: "undo",
					client: entry.session.client ?? entry.session.surface,
					tool: `undo ${entry.tool}`,
				},
				time: new Date(entry.at),
			},
			{
				currentText: async () => {
					const file = this.app.vault.getFileByPath(conflict.path);
					return file ? this.app.vault.read(file) : undefined;
				},
				decide: (verdict) => {
					if (verdict.kind === "reject") {
						done();
						return;
					}
					void this.write(conflict.path, now, verdict.finalText).then(done);
				},
			},
		);
	}

	private async write(path: string, expected: string, text: string): Promise<void> {
		const file = this.app.vault.getFileByPath(path);
		if (!file) {
			new Notice(`${path} is gone; nothing was written.`);
			return;
		}
		let written = false;
		await this.app.vault.process(file, (data) => {
			if (data !== expected) return data;
			written = true;
			return text;
		});
		new Notice(written ? `${path} now holds the text you chose.` : `${path} changed again; nothing was written.`);
	}
}
