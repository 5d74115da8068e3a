import { EditorSelection, EditorState } from "@codemirror/state";
import { positionAt, snapshotFromState } from "../../../src/obsidian/editor/editor-selection";
import { App, TFile } from "../../__mocks__/obsidian";
import { BrowserWindows } from "../harness/cm6-dom";
import { SecondaryEditor } from "../harness/cm6-editor";

const PATH = "/vault/note.md";

function stateWith(doc: string, ranges: { anchor: number; head?: number }[], mainIndex = 0): EditorState {
	return EditorState.create({
		doc,
		selection: EditorSelection.create(
			ranges.map((range) => EditorSelection.range(range.anchor, range.head ?? range.anchor)),
			mainIndex,
		),
		extensions: EditorState.allowMultipleSelections.of(true),
	});
}

describe("CodeMirror positions → 0-based line and UTF-16 character", () => {
	it("counts lines from 0 and characters in UTF-16 code units", () => {
		const doc = "first\n😀 emoji line\nthird";
		const state = stateWith(doc, [{ anchor: 0 }]);
		expect(positionAt(state, 0)).toEqual({ line: 0, character: 0 });
		expect(positionAt(state, doc.indexOf("emoji"))).toEqual({ line: 1, character: 3 });
		expect(positionAt(state, doc.length)).toEqual({ line: 2, character: 5 });
	});

	it("reports a multi-line selection with its text", () => {
		const doc = "alpha\nbeta\ngamma\n";
		const state = stateWith(doc, [{ anchor: 2, head: doc.indexOf("gamma") + 3 }]);
		expect(snapshotFromState(state, PATH)).toEqual({
			text: "pha\nbeta\ngam",
			filePath: PATH,
			fileUrl: "file:///vault/note.md",
			selection: { start: { line: 0, character: 2 }, end: { line: 2, character: 3 }, isEmpty: false },
		});
	});

	it("orders a backwards selection start → end", () => {
		const doc = "alpha\nbeta\n";
		const state = stateWith(doc, [{ anchor: 9, head: 1 }]);
		expect(snapshotFromState(state, PATH).selection).toEqual({
			start: { line: 0, character: 1 },
			end: { line: 1, character: 3 },
			isEmpty: false,
		});
		expect(snapshotFromState(state, PATH).text).toBe("lpha\nbet");
	});

	it("reports a cursor as an empty selection with empty text", () => {
		const state = stateWith("alpha\nbeta", [{ anchor: 8 }]);
		expect(snapshotFromState(state, PATH)).toMatchObject({
			text: "",
			selection: { start: { line: 1, character: 2 }, end: { line: 1, character: 2 }, isEmpty: true },
		});
	});

	it("reports the main selection when there are several cursors", () => {
		const doc = "one two three\nfour five";
		const state = stateWith(
			doc,
			[
				{ anchor: 0, head: 3 },
				{ anchor: 14, head: 18 },
			],
			1,
		);
		expect(snapshotFromState(state, PATH)).toMatchObject({
			text: "four",
			selection: { start: { line: 1, character: 0 }, end: { line: 1, character: 4 } },
		});
	});
});

describe("positions from a real CodeMirror editor", () => {
	let windows: BrowserWindows;
	beforeAll(() => {
		windows = BrowserWindows.install();
	});
	afterAll(() => windows?.uninstall());

	function editorWith(text: string): SecondaryEditor {
		return new SecondaryEditor(new App("/vault", "Vault"), new TFile("note.md"), text);
	}

	it("a Shift+arrow selection takes a whole emoji sequence, reported in UTF-16 code units", () => {
		const editor = editorWith("👩‍💻 coder\nnext");
		editor.driver.click(0).shiftPress("ArrowRight", 1);
		expect(snapshotFromState(editor.driver.cm.state, PATH)).toMatchObject({
			text: "👩‍💻",
			selection: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } },
		});
		editor.driver.shiftPress("ArrowRight", 2);
		expect(snapshotFromState(editor.driver.cm.state, PATH)).toMatchObject({
			text: "👩‍💻 c",
			selection: { end: { line: 0, character: 7 } },
		});
		editor.close();
	});

	it("a CRLF note's lines are the file's lines; the selected text has the editor's line breaks", () => {
		const editor = editorWith("one\r\ntwo\r\nthree");
		editor.driver.drag(editor.driver.offsetOf("wo"), editor.driver.offsetOf("thr", true));
		expect(snapshotFromState(editor.driver.cm.state, PATH)).toMatchObject({
			text: "wo\nthr",
			selection: { start: { line: 1, character: 1 }, end: { line: 2, character: 3 } },
		});
		editor.close();
	});
});
