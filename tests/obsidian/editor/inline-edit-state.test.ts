import { EditorState } from "@codemirror/state";
import { WidgetType, type DecorationSet } from "@codemirror/view";
import { finalSuggestions } from "../../../src/agent/inline-edit/inline-proposal";
import {
	closeInlineEdit,
	inlineEditDecorations,
	inlineEditField,
	inlineEditOf,
	inlineEditWrite,
	openInlineEdit,
	setInlineEditPhase,
	WITHDRAWN,
} from "../../../src/obsidian/editor/inline-edit-state";

const DOC = "Intro.\nThe cat sat on the mat.\nOutro.\n";
const FROM = DOC.indexOf("The cat");
const TO = FROM + "The cat sat on the mat.".length;

class Panel extends WidgetType {
	toDOM(): HTMLElement {
		throw new Error("not drawn here");
	}
}
const PANEL = new Panel();

function opened(): EditorState {
	const state = EditorState.create({ doc: DOC, extensions: [inlineEditField] });
	return state.update({ effects: openInlineEdit.of({ from: FROM, to: TO }) }).state;
}

function proposed(): EditorState {
	const pieces = finalSuggestions("The cat sat on the mat.", "The old cat sat on the rug.");
	return opened().update({ effects: setInlineEditPhase.of({ kind: "proposed", pieces }) }).state;
}

/** Each decoration as [from, to, kind]: a mark's class, or "widget" (with "block" for the panel). */
function described(state: EditorState, set: DecorationSet): [number, number, string][] {
	const out: [number, number, string][] = [];
	set.between(0, state.doc.length, (from, to, decoration) => {
		const spec = decoration.spec as { class?: string; block?: boolean };
		out.push([from, to, spec.class ?? (spec.block ? "panel" : "widget")]);
	});
	return out;
}

describe("an editor's inline edit state", () => {
	it("keeps the passage's place through the user's changes elsewhere; a change inside it while a proposal shows withdraws the proposal", () => {
		let state = proposed();
		state = state.update({ changes: { from: 0, insert: "New. " } }).state;
		expect(inlineEditOf(state)).toMatchObject({ from: FROM + 5, to: TO + 5, phase: { kind: "proposed" } });
		state = state.update({ changes: { from: FROM + 9, insert: "big " } }).state;
		expect(inlineEditOf(state)?.phase).toEqual({ kind: "said", message: WITHDRAWN });
	});

	it("the inline edit's own write moves the passage's end and keeps the proposal; closing forgets it", () => {
		let state = proposed();
		state = state.update({
			changes: { from: TO - 4, to: TO - 1, insert: "rug" },
			annotations: inlineEditWrite.of(true),
		}).state;
		expect(inlineEditOf(state)).toMatchObject({ from: FROM, to: TO, phase: { kind: "proposed" } });
		state = state.update({ changes: { from: TO, insert: " Indeed" }, annotations: inlineEditWrite.of(true) }).state;
		expect(inlineEditOf(state)?.to).toBe(TO + 7);
		expect(inlineEditOf(state.update({ effects: closeInlineEdit.of(null) }).state)).toBeUndefined();
	});

	it("while asking, the user may still type in the passage: it grows with what they type at its ends", () => {
		let state = opened();
		state = state.update({ changes: { from: TO, insert: " Really." } }).state;
		expect(inlineEditOf(state)).toMatchObject({ from: FROM, to: TO + 8, phase: { kind: "asking" } });
	});

	it("draws the proposal as struck deletions and inserted widgets in the note's text, and the panel as a block below the passage's line", () => {
		const state = proposed();
		const mat = DOC.indexOf("mat");
		expect(described(state, inlineEditDecorations(state, PANEL))).toEqual([
			[FROM + 4, FROM + 4, "widget"],
			[mat, mat + 3, "ccb-suggest-removed"],
			[mat + 3, mat + 3, "widget"],
			[TO, TO, "panel"],
		]);
		expect(described(opened(), inlineEditDecorations(opened(), PANEL))).toEqual([
			[FROM, TO, "ccb-inline-passage"],
			[TO, TO, "panel"],
		]);
	});

	it("while Claude writes, what it has not reached is pending, and a passage ending with its line break keeps the panel on its last line", () => {
		const writing = opened().update({
			effects: setInlineEditPhase.of({
				kind: "writing",
				pieces: [{ kind: "same", text: "The cat " }],
				pending: "sat on the mat.",
			}),
		}).state;
		expect(described(writing, inlineEditDecorations(writing, PANEL))).toContainEqual([
			FROM + 8,
			TO,
			"ccb-inline-pending",
		]);
		const withBreak = EditorState.create({ doc: DOC, extensions: [inlineEditField] }).update({
			effects: openInlineEdit.of({ from: FROM, to: TO + 1 }),
		}).state;
		expect(described(withBreak, inlineEditDecorations(withBreak, PANEL)).at(-1)).toEqual([TO, TO, "panel"]);
	});
});
