import { editTarget, lineNumbers, surroundingSection } from "../../../src/agent/inline-edit/edit-target";

const NOTE = [
	"# Book", // 0
	"", // 7
	"## Chapter one", // 8
	"The first line of a paragraph.", // 23
	"Its second line.", // 54
	"", // 71
	"Another paragraph.", // 72
	"```", // 91
	"## Not a heading, in code", //
	"```",
	"Still chapter one.",
	"### A part",
	"Inside the part.",
	"## Chapter two",
	"The end.",
].join("\n");

const at = (needle: string, end = false): number => {
	const index = NOTE.indexOf(needle);
	if (index < 0) throw new Error(`no ${needle}`);
	return end ? index + needle.length : index;
};
const text = (span: { from: number; to: number }): string => NOTE.slice(span.from, span.to);

describe("editTarget", () => {
	it("is the selection, whichever way it was made", () => {
		expect(text(editTarget(NOTE, at("second"), at("line.", true)))).toBe("second line.");
		expect(text(editTarget(NOTE, at("line.", true), at("second")))).toBe("second line.");
	});

	it("without a selection, is the cursor's paragraph: its lines up to a blank line or a heading, without the line break after it", () => {
		expect(text(editTarget(NOTE, at("first"), at("first")))).toBe(
			"The first line of a paragraph.\nIts second line.",
		);
		expect(text(editTarget(NOTE, at("Another") + 3, at("Another") + 3))).toBe("Another paragraph.");
		expect(text(editTarget(NOTE, at("Inside"), at("Inside")))).toBe("Inside the part.");
	});

	it("on a heading, is that heading's line; on an empty line, is empty at the cursor (Claude writes there)", () => {
		expect(text(editTarget(NOTE, at("Chapter one") + 2, at("Chapter one") + 2))).toBe("## Chapter one");
		expect(editTarget(NOTE, at("Book", true) + 1, at("Book", true) + 1)).toEqual({ from: 7, to: 7 });
		expect(editTarget("", 0, 0)).toEqual({ from: 0, to: 0 });
	});
});

describe("surroundingSection", () => {
	it("runs from the passage's heading to the next heading at its level or above; deeper headings and code stay inside", () => {
		const section = surroundingSection(NOTE, { from: at("second"), to: at("second") + 6 });
		expect(section.heading).toBe("Chapter one");
		expect(text(section).startsWith("## Chapter one\n")).toBe(true);
		expect(text(section)).toContain("## Not a heading, in code");
		expect(text(section)).toContain("Inside the part.");
		expect(text(section).endsWith("Inside the part.\n")).toBe(true);
	});

	it("under a deeper heading, ends at the next heading of any level at or above it", () => {
		const section = surroundingSection(NOTE, { from: at("Inside"), to: at("Inside") + 6 });
		expect(section.heading).toBe("A part");
		expect(text(section)).toBe("### A part\nInside the part.\n");
	});

	it("before the first heading, runs from the note's start to the first heading; a passage over headings is inside its section", () => {
		const note = "Intro line.\n\n# Title\nBody.\n";
		expect(surroundingSection(note, { from: 0, to: 5 })).toEqual({ from: 0, to: note.indexOf("# Title") });
		const across = surroundingSection(NOTE, { from: at("Still"), to: at("The end.", true) });
		expect(text(across).startsWith("## Chapter one")).toBe(true);
		expect(across.to).toBe(NOTE.length);
	});
});

describe("lineNumbers", () => {
	it("counts from 1; a span ending after a line break ends on the line before it", () => {
		expect(lineNumbers(NOTE, { from: at("The first"), to: at("second line.", true) })).toEqual({
			first: 4,
			last: 5,
		});
		expect(lineNumbers(NOTE, { from: at("The first"), to: at("second line.", true) + 1 })).toEqual({
			first: 4,
			last: 5,
		});
		expect(lineNumbers(NOTE, { from: 0, to: 0 })).toEqual({ first: 1, last: 1 });
	});
});
