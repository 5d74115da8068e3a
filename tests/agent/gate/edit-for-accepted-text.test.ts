import fc from "fast-check";
import { applyCliEdits } from "../../../src/agent/gate/cli-edit";
import { editForAcceptedText } from "../../../src/agent/gate/edit-for-accepted-text";

/** Texts made of few characters, so that repeats, line ends and quotes are common. */
const text = fc.string({ unit: fc.constantFrom("a", "b", "\n", " ", "'", "\u2019", "x"), maxLength: 40 });

describe("editForAcceptedText", () => {
	it("for any current and accepted text, the CLI's Edit with the computed input writes exactly the accepted text", () => {
		fc.assert(
			fc.property(text, text, (current, accepted) => {
				fc.pre(current !== accepted);
				const edit = editForAcceptedText(current, accepted);
				if (edit === undefined) throw new Error("no edit for different texts");
				expect(applyCliEdits(current, [edit])).toEqual({ ok: true, text: accepted });
				// old_string is a span of the file that occurs once in it.
				if (current !== "") expect(current.split(edit.old_string).length - 1).toBe(1);
			}),
			{ numRuns: 3000 },
		);
	});

	it("keeps the replacement to the changed lines of a note", () => {
		const current = "# Title\n\nFirst line.\nSecond line.\nThird line.\n";
		const accepted = "# Title\n\nFirst line.\nSecond line, edited.\nThird line.\n";
		expect(editForAcceptedText(current, accepted)).toEqual({
			old_string: "Second line.",
			new_string: "Second line, edited.",
		});
	});

	it("widens a changed line that occurs twice until it is unique", () => {
		const current = "- item\n- done\n- item\n";
		const accepted = "- item\n- done\n- item 2\n";
		const edit = editForAcceptedText(current, accepted);
		expect(edit).toEqual({ old_string: "- done\n- item\n", new_string: "- done\n- item 2\n" });
	});

	it("never leaves a deletion that the CLI would stretch over the next line end", () => {
		// Deleting "b" alone: the CLI would replace "b\n" (taking the line end) since the file holds it.
		const current = "a b\nb\n";
		const accepted = "a \nb\n";
		const edit = editForAcceptedText(current, accepted);
		expect(edit?.new_string).not.toBe("");
		expect(applyCliEdits(current, edit ? [edit] : [])).toEqual({ ok: true, text: accepted });
	});

	it("writes the whole text into an empty file, and has nothing to do when the texts are equal", () => {
		expect(editForAcceptedText("", "new\n")).toEqual({ old_string: "", new_string: "new\n" });
		expect(editForAcceptedText("same\n", "same\n")).toBeUndefined();
	});
});
