import fc from "fast-check";
import { LineTable } from "../../../src/vault/markdown/line-table";

describe("LineTable", () => {
	const table = new LineTable("one\r\ntwo\nthree\rfour");

	it("finds each line's start and end, counting CRLF, LF and CR as line ends", () => {
		expect(table.count).toBe(4);
		expect(table.starts).toEqual([0, 5, 9, 15]);
		expect(table.ends).toEqual([3, 8, 14, 19]);
		expect([0, 1, 2, 3].map((index) => table.line(index))).toEqual(["one", "two", "three", "four"]);
	});

	it("answers the line holding an offset, line ends included in the line before", () => {
		expect([0, 3, 4, 5, 8, 9, 14, 15, 19].map((offset) => table.lineAt(offset))).toEqual([
			0, 0, 0, 1, 1, 2, 2, 3, 3,
		]);
	});

	it("has one empty line for an empty text, and an empty last line after a final line end", () => {
		expect(new LineTable("").count).toBe(1);
		const trailing = new LineTable("a\n");
		expect(trailing.count).toBe(2);
		expect(trailing.line(1)).toBe("");
	});

	it("answers the line end used most, LF on a tie", () => {
		expect(new LineTable("a\r\nb\r\nc\n").lineEnd).toBe("\r\n");
		expect(new LineTable("a\r\nb\nc").lineEnd).toBe("\n");
		expect(new LineTable("single line").lineEnd).toBe("\n");
	});

	it("finds the same lines as a regular expression of the three line ends would, in any mix of them", () => {
		const piece = fc.constantFrom("\r\n", "\n", "\r", "\n\r", "a", "b c", "é", "🦊", "");
		fc.assert(
			fc.property(
				fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join("")),
				(text) => {
					const starts = [0];
					const ends: number[] = [];
					const breaks = /\r\n|\r|\n/g;
					for (let match = breaks.exec(text); match; match = breaks.exec(text)) {
						ends.push(match.index);
						starts.push(match.index + match[0].length);
					}
					ends.push(text.length);
					const table = new LineTable(text);
					expect(table.starts).toEqual(starts);
					expect(table.ends).toEqual(ends);
				},
			),
			{ numRuns: 3_000 },
		);
	});
});
