import type { StateEffect } from "@codemirror/state";
import type { EditorView, PluginValue, ViewUpdate } from "@codemirror/view";
import { Notice } from "obsidian";
import { editTarget } from "../../agent/inline-edit/edit-target";
import { firstPrompt, followUpPrompt, MAX_PASSAGE_CHARS } from "../../agent/inline-edit/inline-edit-prompt";
import {
	acceptAll,
	acceptChange,
	finalSuggestions,
	openChanges,
	rejectChange,
	StreamingDiff,
	type PassageEdit,
	type SuggestionPiece,
} from "../../agent/inline-edit/inline-proposal";
import type { InlineEditRun, InlineEditUpdate } from "../../agent/inline-edit/inline-edit-run";
import type { InlineEditService } from "../../agent/inline-edit/inline-edit-service";
import { describeError } from "../../shared/describe-error";
import { InlineEditPanel } from "./inline-edit-panel";
import {
	closeInlineEdit,
	inlineEditOf,
	inlineEditWrite,
	openInlineEdit,
	setInlineEditPhase,
	type InlineEdit,
	type InlineEditPhase,
} from "./inline-edit-state";

/** The note an editor shows, and how to save what the editor holds. */
export interface EditedNote {
	/** Vault path. */
	path: string;
	save(): Promise<void>;
}

/** What every editor's inline edit shares: the service (its module loads on first use) and the editors' notes. */
export interface InlineEditHost {
	service(): Promise<InlineEditService>;
	/** The note of a note's own editor; undefined for others (an embed, a canvas card), where inline edits are not offered. */
	noteOf(view: EditorView): EditedNote | undefined;
	/** The controllers of the editors open now, so a command finds the one the user is in. */
	controllers: Set<InlineEditController>;
}

/** Said when it happens, not built when the module loads: number formatting loads ICU's data (issue 31's profile). */
export function passageTooLong(): string {
	return `This passage is too long for an inline edit (more than ${MAX_PASSAGE_CHARS.toLocaleString("en-US")} characters): select less, or ask in the Claude Code panel.`;
}
const STOPPED = "Stopped: Claude's unfinished proposal was set aside. Ask again, or close.";
const INSTRUCTION_IN_JOURNAL = 100;

/**
 * One editor's inline edit (a CodeMirror view plugin, so each editor has its own): opens it on the selection or the
 * cursor's paragraph, sends the requests to a text-only Claude Code session, shows the streamed proposal as
 * suggestions in the note, and writes what the user accepts into the editor (their unsaved typing kept), saved and
 * recorded in the activity journal for Undo. Nothing is written before an accept.
 */
export class InlineEditController implements PluginValue {
	readonly panel: InlineEditPanel;
	private run: InlineEditRun | undefined;
	/** Requests sent in this inline edit: the first carries the note, the later ones refine the proposal. */
	private requests = 0;
	private instruction = "";
	/** Decisions one after another: each waits for the write of the one before. */
	private decisions: Promise<void> = Promise.resolve();
	/** The newest streamed text not drawn yet: several deltas that arrive together are drawn once. */
	private streamed: { diff: StreamingDiff; text: string } | undefined;
	private drawQueued = false;

	constructor(
		readonly view: EditorView,
		private readonly host: InlineEditHost,
	) {
		this.panel = new InlineEditPanel({
			ask: (words) => void this.ask(words),
			stop: () => void this.run?.stop(),
			acceptAll: () => this.acceptAll(),
			dismiss: () => this.dismiss(),
			moveToChange: (step) => this.moveToChange(step),
		});
		view.dom.addEventListener("click", this.onClick);
		view.dom.addEventListener("keydown", this.onChangeKey);
		host.controllers.add(this);
	}

	get edit(): InlineEdit | undefined {
		return inlineEditOf(this.view.state);
	}

	update(update: ViewUpdate): void {
		const before = inlineEditOf(update.startState);
		const after = inlineEditOf(update.state);
		if (after === before) return;
		if (after === undefined) {
			this.end();
			return;
		}
		const leftWriting = before?.phase.kind === "writing" && after.phase.kind !== "writing";
		// The user changed the passage while Claude wrote: the answer has no place any more.
		if (leftWriting && this.run?.busy) void this.run.stop();
		this.panel.render(after, this.requests > 0);
		if (leftWriting && !this.view.hasFocus) this.panel.focus();
	}

	destroy(): void {
		this.view.dom.removeEventListener("click", this.onClick);
		this.view.dom.removeEventListener("keydown", this.onChangeKey);
		this.host.controllers.delete(this);
		this.end();
	}

	/** Opens an inline edit on the selection or the cursor's paragraph; with one open, its request box takes the focus. */
	open(): void {
		if (this.edit) {
			this.panel.focus();
			return;
		}
		const note = this.host.noteOf(this.view);
		if (!note) return;
		const { state } = this.view;
		const { anchor, head } = state.selection.main;
		const target = editTarget(state.doc.toString(), anchor, head);
		this.requests = 0;
		const effects: StateEffect<unknown>[] = [openInlineEdit.of(target)];
		if (target.to - target.from > MAX_PASSAGE_CHARS)
			effects.push(setInlineEditPhase.of({ kind: "said", message: passageTooLong(), final: true }));
		this.view.dispatch({ effects });
		this.panel.focus();
		void this.prepare(note);
	}

	acceptChange(change: number): void {
		this.decide(() => this.accept(change));
	}

	rejectChange(change: number): void {
		this.decide(() => {
			const edit = this.edit;
			if (edit?.phase.kind !== "proposed") return Promise.resolve();
			const pieces = rejectChange(edit.phase.pieces, change);
			this.view.dispatch({ effects: afterDecision(pieces) });
			return Promise.resolve();
		});
	}

	/** Accepts every open change (Mod+Enter); false when no proposal shows. */
	acceptAll(): boolean {
		if (this.edit?.phase.kind !== "proposed") return false;
		this.decide(() => this.accept("all"));
		return true;
	}

	/**
	 * Moves the focus to the next (1) or the previous (-1) open change's accept button (Alt+↓ and Alt+↑, as in the
	 * review), from which Tab reaches its reject button; false when no proposal shows.
	 */
	moveToChange(step: 1 | -1): boolean {
		if (this.edit?.phase.kind !== "proposed") return false;
		const buttons = this.acceptButtons();
		if (buttons.length === 0) return false;
		const active = this.view.dom.ownerDocument.activeElement;
		const current = buttons.findIndex((button) => button.parentElement?.contains(active) === true);
		const next =
			current < 0 ? (step > 0 ? 0 : buttons.length - 1) : (current + step + buttons.length) % buttons.length;
		buttons[next]?.focus();
		return true;
	}

	/** Closes the inline edit (Escape): Claude stops, what is open is rejected, the note stays as it is. False when none is open. */
	dismiss(): boolean {
		if (!this.edit) return false;
		if (this.run?.busy) void this.run.stop();
		this.view.dispatch({ effects: closeInlineEdit.of(null) });
		this.view.focus();
		return true;
	}

	/**
	 * The privacy decision before anything is sent; then Claude Code starts while the user types the request (its
	 * start takes seconds).
	 */
	private async prepare(note: EditedNote): Promise<void> {
		const service = await this.loadService();
		const edit = this.edit;
		if (!service || !edit || (edit.phase.kind === "said" && edit.phase.final === true)) return;
		const refused = service.refusal(note.path, this.view.state.doc.toString());
		if (refused !== undefined) this.say(refused, true);
		else this.run ??= service.start();
	}

	private async ask(words: string): Promise<void> {
		const note = this.host.noteOf(this.view);
		const service = await this.loadService();
		const edit = this.edit;
		if (!note || !service || !edit || edit.phase.kind === "writing") return;
		if (edit.phase.kind === "said" && edit.phase.final === true) return;
		const text = this.view.state.doc.toString();
		const refused = service.refusal(note.path, text);
		if (refused !== undefined) {
			this.say(refused, true);
			return;
		}
		if (this.run?.ended) {
			// Its Claude Code stopped: a new one gets the whole request again.
			this.end();
		}
		const passage = text.slice(edit.from, edit.to);
		const prompt =
			this.requests === 0
				? firstPrompt({ path: note.path, note: text, passage: edit, instruction: words })
				: followUpPrompt(note.path, passage, words);
		this.requests += 1;
		this.instruction = words;
		const run = (this.run ??= service.start());
		this.setPhase({ kind: "writing", pieces: [], pending: passage });
		const diff = new StreamingDiff(passage);
		run.ask(words, prompt, passage, (update) => this.onUpdate(update, passage, diff));
	}

	private onUpdate(update: InlineEditUpdate, passage: string, diff: StreamingDiff): void {
		if (this.edit?.phase.kind !== "writing") return;
		switch (update.kind) {
			case "writing":
				this.streamed = { diff, text: update.text };
				if (!this.drawQueued) {
					this.drawQueued = true;
					queueMicrotask(() => this.drawStreamed());
				}
				return;
			case "proposed":
				this.streamed = undefined;
				this.setPhase({ kind: "proposed", pieces: finalSuggestions(passage, update.text) });
				return;
			case "answered":
				this.say(update.reply);
				return;
			case "stopped":
				this.say(STOPPED);
				return;
			case "failed":
				this.say(update.message);
				return;
		}
	}

	/** The proposal so far, drawn as suggestions: the editor's work per streamed chunk (bench/inline-edit-streaming.ts). */
	private drawStreamed(): void {
		this.drawQueued = false;
		const streamed = this.streamed;
		this.streamed = undefined;
		if (!streamed || this.edit?.phase.kind !== "writing") return;
		this.setPhase({ kind: "writing", ...streamed.diff.update(streamed.text) });
	}

	private decide(decision: () => Promise<void>): void {
		this.decisions = this.decisions.then(decision).catch((error: unknown) => {
			new Notice(`The change was not written: ${describeError(error)}`);
		});
	}

	/**
	 * Writes change `which` (or every open one) into the editor and saves the note, recorded in the journal. The
	 * user's own unsaved typing is saved first, so the journal keeps the note as they had it and Undo puts exactly
	 * that back. Where the change goes is worked out again at the moment of writing, from the passage as it is then.
	 */
	private async accept(which: number | "all"): Promise<void> {
		const note = this.host.noteOf(this.view);
		const run = this.run;
		if (!note || !run || this.edit?.phase.kind !== "proposed") return;
		await note.save();
		const planned = this.plan(which);
		if (!planned) return;
		const summary = this.summary(which, planned.open);
		await run.record({ path: note.path, text: planned.text, summary }, async () => {
			const now = this.plan(which);
			if (!now) throw new Error("the passage changed before the change could be written");
			this.view.dispatch({ changes: now.changes, effects: now.effects, annotations: inlineEditWrite.of(true) });
			await note.save();
		});
	}

	private plan(which: number | "all"):
		| {
				changes: { from: number; to: number; insert: string };
				effects: StateEffect<unknown>;
				text: string;
				open: number;
		  }
		| undefined {
		const edit = this.edit;
		if (edit?.phase.kind !== "proposed") return undefined;
		const { pieces } = edit.phase;
		let passageEdit: PassageEdit;
		let after: SuggestionPiece[] = [];
		if (which === "all") passageEdit = acceptAll(pieces);
		else {
			const accepted = acceptChange(pieces, which);
			if (!accepted) return undefined;
			passageEdit = accepted.edit;
			after = accepted.pieces;
		}
		const changes = {
			from: edit.from + passageEdit.from,
			to: edit.from + passageEdit.to,
			insert: passageEdit.insert,
		};
		const { doc } = this.view.state;
		const text = doc.sliceString(0, changes.from) + changes.insert + doc.sliceString(changes.to);
		return { changes, effects: afterDecision(after), text, open: openChanges(pieces) };
	}

	private summary(which: number | "all", open: number): string {
		const asked =
			this.instruction.length > INSTRUCTION_IN_JOURNAL
				? `${this.instruction.slice(0, INSTRUCTION_IN_JOURNAL)}…`
				: this.instruction;
		const accepted =
			which === "all" ? (open === 1 ? "the one change" : `all ${open} changes`) : `1 change of ${open}`;
		return `asked "${asked}"; accepted ${accepted}`;
	}

	private async loadService(): Promise<InlineEditService | undefined> {
		try {
			return await this.host.service();
		} catch (error) {
			this.say(`Claude Code could not be loaded: ${describeError(error)}`, true);
			return undefined;
		}
	}

	private setPhase(phase: InlineEditPhase): void {
		if (this.edit) this.view.dispatch({ effects: setInlineEditPhase.of(phase) });
	}

	private say(message: string, final = false): void {
		this.setPhase({ kind: "said", message, ...(final && { final }) });
	}

	/** The inline edit closed (or its editor did): its Claude Code ends. */
	private end(): void {
		const run = this.run;
		this.run = undefined;
		this.requests = 0;
		this.streamed = undefined;
		void run?.close();
	}

	/** A change's accept or reject button in the note (they are drawn by the insertion widgets). */
	private readonly onClick = (event: MouseEvent): void => {
		const target = event.target;
		if (target === null || !("closest" in target)) return;
		const button = (target as Element).closest("[data-ccb-change]");
		const change = Number(button?.getAttribute("data-ccb-change"));
		const action = button?.getAttribute("data-ccb-inline");
		if (!Number.isInteger(change)) return;
		if (action === "accept") this.acceptChange(change);
		else if (action === "reject") this.rejectChange(change);
		else return;
		event.preventDefault();
		// Pressed from the keyboard (Enter or Space on the focused button): the focus goes on to the next change.
		if (event.detail === 0) this.decisions = this.decisions.then(() => this.focusAfter(change));
	};

	/**
	 * Keys on a change's buttons, which the editor's own keymap does not see (its widgets ignore their events): Alt+↓
	 * and Alt+↑ move between changes, Escape closes as it does from the note.
	 */
	private readonly onChangeKey = (event: KeyboardEvent): void => {
		const target = event.target;
		if (target === null || !("closest" in target) || (target as Element).closest("[data-ccb-change]") === null)
			return;
		const arrow = event.key === "ArrowDown" ? 1 : event.key === "ArrowUp" ? -1 : 0;
		if (event.altKey && arrow !== 0) this.moveToChange(arrow);
		else if (event.key === "Escape") this.dismiss();
		else return;
		event.preventDefault();
		event.stopPropagation();
	};

	/** The open changes' accept buttons, in the note's order. */
	private acceptButtons(): HTMLElement[] {
		return [...this.view.contentDOM.querySelectorAll<HTMLElement>('button[data-ccb-inline="accept"]')];
	}

	/** After a change decided from the keyboard: the next open change, else the request box, else the note. */
	private focusAfter(change: number): void {
		if (!this.edit) {
			this.view.focus();
			return;
		}
		const buttons = this.acceptButtons();
		const next = buttons.find((button) => Number(button.getAttribute("data-ccb-change")) > change) ?? buttons[0];
		if (next) next.focus();
		else this.panel.focus();
	}
}

/** The inline edit after a decision: the proposal's open changes, or closed when none is left. */
function afterDecision(pieces: readonly SuggestionPiece[]): StateEffect<unknown> {
	return openChanges(pieces) > 0 ? setInlineEditPhase.of({ kind: "proposed", pieces }) : closeInlineEdit.of(null);
}
