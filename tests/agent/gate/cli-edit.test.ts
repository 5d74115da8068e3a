import fc from "fast-check";
import {
	applyCliEdits,
	cliView,
	editForAcceptedText,
	FILE_MISSING,
	newStringAsCliWritesIt,
	replaceLikeCli,
} from "../../../src/agent/gate/cli-edit";

describe("applyCliEdits (the CLI's Edit and MultiEdit)", () => {
	it("replaces the one occurrence, or every one with replace_all", () => {
		expect(applyCliEdits("one two one", [{ old_string: "two", new_string: "2" }])).toEqual({
			ok: true,
			text: "one 2 one",
		});
		expect(applyCliEdits("one two one", [{ old_string: "one", new_string: "1", replace_all: true }])).toEqual({
			ok: true,
			text: "1 two 1",
		});
	});

	it("refuses in the CLI's words: not found, not unique, no change, a new file over an existing one, a missing file", () => {
		expect(applyCliEdits("abc", [{ old_string: "zz", new_string: "y" }])).toEqual({
			ok: false,
			message: "String to replace not found in file.\nString: zz",
		});
		expect(applyCliEdits("one two one", [{ old_string: "one", new_string: "1" }])).toEqual({
			ok: false,
			message:
				"Found 2 matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: one",
		});
		expect(applyCliEdits("abc", [{ old_string: "b", new_string: "b" }])).toEqual({
			ok: false,
			message: "No changes to make: old_string and new_string are exactly the same.",
		});
		expect(applyCliEdits("abc", [{ old_string: "", new_string: "x" }])).toEqual({
			ok: false,
			message: "Cannot create new file - file already exists.",
		});
		expect(applyCliEdits(undefined, [{ old_string: "a", new_string: "b" }])).toEqual({
			ok: false,
			message: FILE_MISSING,
		});
	});

	it("creates a file from an empty old_string, also over a blank one", () => {
		expect(applyCliEdits(undefined, [{ old_string: "", new_string: "new\n" }])).toEqual({
			ok: true,
			text: "new\n",
		});
		expect(applyCliEdits("  \n", [{ old_string: "", new_string: "new\n" }])).toEqual({ ok: true, text: "new\n" });
	});

	it("applies a MultiEdit's edits in order, each on the text the one before left", () => {
		const result = applyCliEdits("alpha beta", [
			{ old_string: "alpha", new_string: "gamma" },
			{ old_string: "gamma beta", new_string: "delta" },
		]);
		expect(result).toEqual({ ok: true, text: "delta" });
		expect(
			applyCliEdits("a b", [
				{ old_string: "a", new_string: "xy" },
				{ old_string: "y", new_string: "z" },
			]),
		).toEqual({
			ok: false,
			message: "Cannot edit file: old_string is a substring of a new_string from a previous edit.",
		});
	});

	it("matches curly quotes in the file from straight ones, and writes the new text in the file's quote style", () => {
		expect(
			applyCliEdits("He said \u201Chi\u201D and left.", [{ old_string: 'said "hi"', new_string: 'said "bye"' }]),
		).toEqual({ ok: true, text: "He said \u201Cbye\u201D and left." });
		expect(applyCliEdits("It\u2019s fine.", [{ old_string: "It's fine", new_string: "It's 'great'" }])).toEqual({
			ok: true,
			text: "It\u2019s \u2018great\u2019.",
		});
	});

	it("a deletion takes the line end after the deleted text when the file holds it there", () => {
		expect(replaceLikeCli("a\nb\nc\n", "b", "", false)).toBe("a\nc\n");
		expect(replaceLikeCli("a b c", "b", "", false)).toBe("a  c");
		// The replacement is taken literally: `$&` is no pattern.
		expect(replaceLikeCli("a b", "b", "$&$&", false)).toBe("a $&$&");
	});

	it("removes white space at the ends of new_string's lines, except in Markdown", () => {
		expect(newStringAsCliWritesIt("code.ts", "a  \n\tb\t\r\nc ")).toBe("a\n\tb\r\nc");
		expect(newStringAsCliWritesIt("Note.MD", "two spaces  \nbreak")).toBe("two spaces  \nbreak");
		expect(newStringAsCliWritesIt("page.mdx", "x  ")).toBe("x  ");
	});

	it("reads CRLF line ends as LF, as the CLI does", () => {
		expect(cliView("a\r\nb\r\n")).toBe("a\nb\n");
	});
});

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
