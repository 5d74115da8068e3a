import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { ownString, ownStrings } from "../../src/shared/own-string";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/** JS heap in use after a full collection, in MB. */
function heapAfterCollection(): number {
	collectGarbage();
	collectGarbage();
	return process.memoryUsage().heapUsed / 1e6;
}

/** 40 texts of 250,000 characters (10 MB in all, one byte a character), each different, and a 40-character piece of each. */
function piecesOfLargeTexts(keep: (piece: string) => string): string[] {
	const pieces: string[] = [];
	for (let index = 0; index < 40; index++) {
		const text = `${index} ${"a line of a note, long enough to matter. ".repeat(6100)}`;
		pieces.push(keep(text.slice(1000, 1040)));
	}
	return pieces;
}

describe("ownString", () => {
	it("equals the text, at every length", () => {
		for (const text of ["", "a", "twelve chars", "thirteen char", "a longer piece of a note's text, with ünïcode"])
			expect(ownString(text)).toBe(text);
	});

	it("keeps a piece of a long text without keeping the text (a plain slice keeps all 10 MB)", () => {
		// What each list of pieces keeps alive: the heap with it, less the heap once it is dropped (both after a full
		// collection, so garbage left by earlier tests in this worker counts in neither).
		const retainedBy = (keep: (piece: string) => string): number => {
			const pieces = piecesOfLargeTexts(keep);
			const withPieces = heapAfterCollection();
			expect(pieces.every((piece) => piece.length === 40)).toBe(true);
			pieces.length = 0;
			return withPieces - heapAfterCollection();
		};
		expect(retainedBy((piece) => piece)).toBeGreaterThan(8);
		expect(retainedBy(ownString)).toBeLessThan(1);
	});
});

describe("ownStrings", () => {
	it("gives the same value, strings in arrays and plain objects included; other objects are left as they are", () => {
		const date = new Date(0);
		const value = {
			title: "a title long enough to be a view",
			tags: ["one", "a tag long enough to be a view"],
			nested: { deeper: ["x", { y: "another long enough string" }] },
			when: date,
			count: 3,
			none: null,
		};
		const copy = structuredClone(value);
		const owned = ownStrings(value);
		expect(owned).toEqual(copy);
		expect(owned.when).toBe(date);
		expect(ownStrings("a string on its own, long")).toBe("a string on its own, long");
		const bare = Object.assign(Object.create(null) as Record<string, unknown>, { key: "a value long enough here" });
		expect(ownStrings(bare)).toEqual(bare);
	});
});
