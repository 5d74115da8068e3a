import { EditorState } from "@codemirror/state";
import { sameText, toLf } from "../../../src/obsidian/editor/line-endings";

describe("line endings as the editor holds them", () => {
	it.each([
		["CRLF", "# Title\r\nline\r\n"],
		["CR", "# Title\rline\r"],
		["mixed", "a\r\nb\nc\rd"],
		["none", "single line"],
	])("toLf turns %s text into what a real CodeMirror document gives back", (_kind, text) => {
		expect(toLf(text)).toBe(EditorState.create({ doc: text }).doc.toString());
	});

	it("counts a CRLF file and its editor text as the same, and a real change as different", () => {
		const file = "# Title\r\nline\r\n";
		const editor = EditorState.create({ doc: file }).doc.toString();
		expect(editor).not.toBe(file);
		expect(sameText(editor, file)).toBe(true);
		expect(sameText(`${editor}typed`, file)).toBe(false);
		expect(sameText("a\n\nb", "a\r\nb")).toBe(false);
	});
});
