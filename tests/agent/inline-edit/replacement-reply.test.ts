import { ReplacementReader } from "../../../src/agent/inline-edit/replacement-reply";

function read(passage: string, chunks: readonly string[]): (ReturnType<ReplacementReader["current"]> | undefined)[] {
	const reader = new ReplacementReader(passage);
	return chunks.map((chunk) => {
		reader.append(chunk);
		return reader.current();
	});
}

describe("ReplacementReader", () => {
	it("shows nothing until the opening tag, then the passage as it streams, complete at the closing tag", () => {
		const seen = read("old text", ["Sure. <replace", "ment>New ", "text</repl", "acement> done"]);
		expect(seen).toEqual([
			undefined,
			{ text: "New", complete: false },
			{ text: "New text", complete: false },
			{ text: "New text", complete: true },
		]);
	});

	it("holds back a closing tag still arriving, and the whitespace that may end the passage", () => {
		const reader = new ReplacementReader("a");
		reader.append("<replacement>one two\n</");
		expect(reader.current()).toEqual({ text: "one two", complete: false });
		reader.append("x> three");
		expect(reader.current()).toEqual({ text: "one two\n</x> three", complete: false });
	});

	it("keeps the passage's own whitespace at both ends, whatever Claude puts around its text", () => {
		const reader = new ReplacementReader("\n  The old paragraph.\n\n");
		reader.append("<replacement>\nThe new paragraph.\n</replacement>");
		expect(reader.current()).toEqual({ text: "\n  The new paragraph.\n\n", complete: true });
		const word = new ReplacementReader("quick ");
		word.append("<replacement>fast</replacement>");
		expect(word.current()?.text).toBe("fast ");
		const blank = new ReplacementReader("   ");
		blank.append("<replacement>Filled.</replacement>");
		expect(blank.current()?.text).toBe("   Filled.");
	});

	it("once the reply ended, takes a passage whose closing tag never came as complete; without an opening tag there is none", () => {
		const reader = new ReplacementReader("x\n");
		reader.append("<replacement>\nAll of it");
		expect(reader.current(true)).toEqual({ text: "All of it\n", complete: true });
		const refusal = new ReplacementReader("x");
		refusal.append("I cannot do that.");
		expect(refusal.current(true)).toBeUndefined();
		expect(refusal.text).toBe("I cannot do that.");
	});
});
