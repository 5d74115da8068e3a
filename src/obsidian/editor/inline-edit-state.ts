import { Annotation, StateEffect, StateField, type EditorState, type Range, type Transaction } from "@codemirror/state";
import { Decoration, EditorView, WidgetType, type DecorationSet } from "@codemirror/view";
import type { SuggestionPiece } from "../../agent/inline-edit/inline-proposal";

/** Where an inline edit is: the prompt, Claude writing, a proposal to decide, or a message to the user. */
export type InlineEditPhase =
	| { kind: "asking" }
	| { kind: "writing"; pieces: readonly SuggestionPiece[]; pending: string }
	| { kind: "proposed"; pieces: readonly SuggestionPiece[] }
	/** `final`: nothing more can be asked here (a private note); otherwise the user may ask again. */
	| { kind: "said"; message: string; final?: boolean };

/**
 * One editor's inline edit, kept in its own editor state (each editor, split pane and pop-out window has its own):
 * the passage's place in the note, mapped through every change, and the phase. While Claude writes or its proposal
 * shows, the pieces describe the passage as the note holds it (see src/agent/inline-edit/inline-proposal.ts).
 */
export interface InlineEdit {
	from: number;
	to: number;
	phase: InlineEditPhase;
}

export const openInlineEdit = StateEffect.define<{ from: number; to: number }>();
export const setInlineEditPhase = StateEffect.define<InlineEditPhase>();
export const closeInlineEdit = StateEffect.define<null>();
/** Marks the inline edit's own writes (an accepted change), which the passage's pieces already account for. */
export const inlineEditWrite = Annotation.define<boolean>();

export const WITHDRAWN =
	"You changed the passage while Claude's proposal was showing, so the proposal was withdrawn. Ask again for a new one.";

export const inlineEditField = StateField.define<InlineEdit | undefined>({
	create: () => undefined,
	update: updateInlineEdit,
});

function updateInlineEdit(value: InlineEdit | undefined, tr: Transaction): InlineEdit | undefined {
	let edit = value;
	if (edit && tr.docChanged) {
		const own = tr.annotation(inlineEditWrite) === true;
		const touched = !own && tr.changes.touchesRange(edit.from, edit.to) !== false;
		edit = { ...edit, from: tr.changes.mapPos(edit.from, -1), to: tr.changes.mapPos(edit.to, 1) };
		// The pieces describe the passage as Claude read it: a change of the user's inside it voids them.
		if (touched && (edit.phase.kind === "writing" || edit.phase.kind === "proposed"))
			edit = { ...edit, phase: { kind: "said", message: WITHDRAWN } };
	}
	for (const effect of tr.effects) {
		if (effect.is(openInlineEdit)) edit = { ...effect.value, phase: { kind: "asking" } };
		else if (effect.is(setInlineEditPhase) && edit) edit = { ...edit, phase: effect.value };
		else if (effect.is(closeInlineEdit)) edit = undefined;
	}
	return edit;
}

/** The inline edit of this editor state, if one is open. */
export function inlineEditOf(state: EditorState): InlineEdit | undefined {
	return state.field(inlineEditField, false);
}

/** What Claude adds at one place, with the accept and reject of its change once the proposal is whole. */
export class InsertionWidget extends WidgetType {
	constructor(
		readonly text: string,
		readonly change: number,
		readonly decidable: boolean,
	) {
		super();
	}

	override eq(other: InsertionWidget): boolean {
		return other.text === this.text && other.change === this.change && other.decidable === this.decidable;
	}

	/** While Claude writes, the change at the proposal's end grows chunk by chunk: its element is updated in place. */
	override updateDOM(dom: HTMLElement): boolean {
		if (this.decidable || dom.querySelector(".ccb-inline-controls") !== null) return false;
		const added = dom.querySelector("ins");
		if (added === null || this.text === "") return false;
		added.textContent = this.text;
		return true;
	}

	toDOM(): HTMLElement {
		const wrapper = createSpan({ cls: "ccb-inline-insertion" });
		if (this.text !== "") wrapper.createEl("ins", { cls: "ccb-suggest-added", text: this.text });
		if (this.decidable) {
			const controls = wrapper.createSpan({ cls: "ccb-inline-controls" });
			decisionButton(controls, "accept", this.change, "✓", "Accept this change");
			decisionButton(controls, "reject", this.change, "✕", "Reject this change");
		}
		return wrapper;
	}

	override ignoreEvent(): boolean {
		return true;
	}
}

function decisionButton(parent: HTMLElement, action: string, change: number, text: string, label: string): void {
	parent.createEl("button", {
		cls: `ccb-suggest-${action}`,
		text,
		attr: { "aria-label": label, "data-ccb-inline": action, "data-ccb-change": change },
	});
}

/**
 * The inline edit's decorations: the passage while it is asked about, and Claude's proposal as suggestions in the
 * note's own text (deletions struck, additions underlined: the review view's look, from the same classes), with
 * `panel` (the prompt, the status and the buttons) as a block below the passage's last line.
 */
export function inlineEditDecorations(state: EditorState, panel: WidgetType): DecorationSet {
	const edit = inlineEditOf(state);
	if (!edit) return Decoration.none;
	const ranges: Range<Decoration>[] = [];
	const { phase } = edit;
	if (phase.kind === "writing" || phase.kind === "proposed") {
		let at = edit.from;
		for (const piece of phase.pieces) {
			if (piece.kind === "same") {
				at += piece.text.length;
				continue;
			}
			if (piece.removed !== "") ranges.push(REMOVED.range(at, at + piece.removed.length));
			at += piece.removed.length;
			const widget = new InsertionWidget(piece.added, piece.id, phase.kind === "proposed");
			if (piece.added !== "" || phase.kind === "proposed")
				ranges.push(Decoration.widget({ widget, side: 1 }).range(at));
		}
		if (phase.kind === "writing" && phase.pending !== "") ranges.push(PENDING.range(at, at + phase.pending.length));
	} else if (edit.to > edit.from) ranges.push(PASSAGE.range(edit.from, edit.to));
	// Below the passage's last line (a passage that ends with its line break ends on the line before).
	const end = edit.to > edit.from && state.sliceDoc(edit.to - 1, edit.to) === "\n" ? edit.to - 1 : edit.to;
	ranges.push(Decoration.widget({ widget: panel, block: true, side: 1 }).range(state.doc.lineAt(end).to));
	return Decoration.set(ranges, true);
}

const REMOVED = Decoration.mark({ class: "ccb-suggest-removed", attributes: { "data-ccb-inline": "removed" } });
const PENDING = Decoration.mark({ class: "ccb-inline-pending" });
const PASSAGE = Decoration.mark({ class: "ccb-inline-passage" });

/** The decorations facet's entry for one editor's panel widget. */
export function inlineEditDecorationsWith(panel: WidgetType) {
	return EditorView.decorations.compute([inlineEditField], (state) => inlineEditDecorations(state, panel));
}
