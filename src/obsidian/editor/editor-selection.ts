import type { EditorState } from "@codemirror/state";
import { selectionSnapshot, type Position, type SelectionSnapshot } from "../../ide/workspace/selection";

/** A document offset as a 0-based line and UTF-16 character, as the CLI expects. */
export function positionAt(state: EditorState, offset: number): Position {
	const line = state.doc.lineAt(offset);
	return { line: line.number - 1, character: offset - line.from };
}

/** The main selection of an editor (others are ignored, as the CLI keeps only one), ordered start → end. */
export function snapshotFromState(state: EditorState, absolutePath: string): SelectionSnapshot {
	const { from, to } = state.selection.main;
	return selectionSnapshot(absolutePath, state.sliceDoc(from, to), positionAt(state, from), positionAt(state, to));
}
