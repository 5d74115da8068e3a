import { blockKey, hasBlockId, hasHeadingPath, headingKey } from "../../../src/vault/markdown/subpath-match";
import type { BlockIdFact, HeadingFact } from "../../../src/vault/markdown/note-model";

const headings = (...texts: string[]): HeadingFact[] => texts.map((text) => ({ text, level: 2, line: 0, endLine: 0 }));

describe("headingKey", () => {
	it("treats the characters a link cannot hold as spaces, collapses white space and ignores case", () => {
		expect(headingKey("  Q&A: What #1 | [draft]  ")).toBe("q&a what 1 draft");
		expect(headingKey("A%%B^C\\D")).toBe("a b c d");
		expect(headingKey("Q&A  What 1   Draft")).toBe(headingKey("q&a: what #1 [draft]"));
	});
});

describe("hasHeadingPath", () => {
	const note = headings("Intro", "Part", "Detail", "Other");

	it("matches one heading, or a nested path in order", () => {
		expect(hasHeadingPath(note, "part")).toBe(true);
		expect(hasHeadingPath(note, "Part#Detail")).toBe(true);
		expect(hasHeadingPath(note, "Detail#Part")).toBe(false);
		expect(hasHeadingPath(note, "Missing")).toBe(false);
	});

	it("accepts an empty path", () => {
		expect(hasHeadingPath(note, "")).toBe(true);
		expect(hasHeadingPath([], "#")).toBe(true);
	});
});

describe("block ids", () => {
	it("compare without case", () => {
		const blocks: BlockIdFact[] = [{ id: "Ab12", line: 0, start: 0, end: 5 }];
		expect(blockKey("Ab12")).toBe("ab12");
		expect(hasBlockId(blocks, "AB12")).toBe(true);
		expect(hasBlockId(blocks, "ab13")).toBe(false);
	});
});
