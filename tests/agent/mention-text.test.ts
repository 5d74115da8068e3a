import { mentionOf, promptText } from "../../src/agent/mention-text";

describe("mentionOf", () => {
	it("writes a whole note as @path and a selection with its line range", () => {
		expect(mentionOf({ path: "Notes/A.md" })).toBe("@Notes/A.md");
		expect(mentionOf({ path: "Notes/A.md", lines: { from: 3, to: 5 } })).toBe("@Notes/A.md#L3-5");
		expect(mentionOf({ path: "A.md", lines: { from: 7, to: 7 } })).toBe("@A.md#L7");
	});

	it("quotes a path with a space, range included, as the CLI reads it", () => {
		expect(mentionOf({ path: "My notes/Plan B.md", lines: { from: 1, to: 2 } })).toBe('@"My notes/Plan B.md#L1-2"');
	});
});

describe("promptText", () => {
	it("puts the mentions before the typed text, each once", () => {
		const text = promptText({ text: "Summarise these", attachments: [{ path: "A.md" }, { path: "B c.md" }, { path: "A.md" }] });
		expect(text).toBe('@A.md @"B c.md" Summarise these');
	});

	it("leaves a message without attachments as typed", () => {
		expect(promptText({ text: "Hello", attachments: [] })).toBe("Hello");
	});
});
