import fc from "fast-check";
import { MAX_TEXT_SCORE, TextHitList, type TextHit } from "../../../src/vault-tools/tools/text-hit-list";

/** The ranking the other search modes use: a stable sort of objects by score, then by the note's hit count. */
function rankedAsObjects(notes: { path: string; hits: { byteAt: number; score: number }[] }[]): TextHit[] {
	const all = notes.flatMap(({ path, hits }) =>
		hits.map(({ byteAt, score }) => ({ path, byteAt, score, noteHits: hits.length })),
	);
	return all.sort((a, b) => b.score - a.score || b.noteHits - a.noteHits);
}

function listOf(notes: { path: string; hits: { byteAt: number; score: number }[] }[]): TextHitList {
	const list = new TextHitList();
	for (const { path, hits } of notes) for (const { byteAt, score } of hits) list.add(path, byteAt, score);
	return list;
}

describe("TextHitList", () => {
	it("ranks by score, then by the note's hit count, then in the order found", () => {
		const list = listOf([
			{ path: "A.md", hits: [{ byteAt: 5, score: 1 }] },
			{
				path: "B.md",
				hits: [
					{ byteAt: 1, score: 1 },
					{ byteAt: 9, score: 2 },
					{ byteAt: 20, score: 1 },
				],
			},
			{ path: "C.md", hits: [{ byteAt: 3, score: 2 }] },
			{ path: "D.md", hits: [{ byteAt: 0, score: 3 }] },
		]);
		expect(list.length).toBe(6);
		expect(list.slice(0, 6).map((hit) => `${hit.path}@${hit.byteAt}:${hit.score}/${hit.noteHits}`)).toEqual([
			"D.md@0:3/1",
			"B.md@9:2/3",
			"C.md@3:2/1",
			"B.md@1:1/3",
			"B.md@20:1/3",
			"A.md@5:1/1",
		]);
	});

	it("gives a page by its bounds, and nothing past the end", () => {
		const list = listOf([{ path: "A.md", hits: [0, 1, 2, 3, 4].map((byteAt) => ({ byteAt, score: 1 })) }]);
		expect(list.slice(2, 4).map((hit) => hit.byteAt)).toEqual([2, 3]);
		expect(list.slice(4, 10).map((hit) => hit.byteAt)).toEqual([4]);
		expect(list.slice(7, 9)).toEqual([]);
	});

	it("keeps every hit past its first buffers, and ranks a hit added after a page was read", () => {
		const list = new TextHitList();
		for (let note = 0; note < 3000; note++) list.add(`N${note}.md`, note, 1);
		expect(list.slice(0, 1)[0]).toEqual({ path: "N0.md", byteAt: 0, score: 1, noteHits: 1 });
		list.add("Best.md", 7, MAX_TEXT_SCORE);
		expect(list.length).toBe(3001);
		expect(list.slice(0, 2).map((hit) => hit.path)).toEqual(["Best.md", "N0.md"]);
		expect(list.slice(3000, 3001)[0]?.path).toBe("N2999.md");
	});

	it("ranks exactly as a stable sort of hit objects would (property)", () => {
		const note = fc.record({
			hits: fc.array(
				fc.record({ byteAt: fc.nat(1_000_000), score: fc.integer({ min: 1, max: MAX_TEXT_SCORE }) }),
				{ minLength: 1, maxLength: 6 },
			),
		});
		fc.assert(
			fc.property(fc.array(note, { maxLength: 40 }), (drawn) => {
				const notes = drawn.map(({ hits }, index) => ({ path: `Note ${index}.md`, hits }));
				const list = listOf(notes);
				expect(list.slice(0, list.length)).toEqual(rankedAsObjects(notes));
			}),
			{ numRuns: 300 },
		);
	});
});
