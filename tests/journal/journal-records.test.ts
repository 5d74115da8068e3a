import { blobsOf, pathsOf, type JournalRecord } from "../../src/journal/journal-records";

describe("journal records", () => {
	const session = { key: "s", surface: "vault-tools-http" as const };
	const move: JournalRecord = {
		type: "change",
		id: "m",
		at: 1,
		session,
		tool: "move_note",
		change: {
			kind: "move",
			from: "a.md",
			to: "b/a.md",
			after: "0".repeat(64),
			rewrites: [{ path: "c.md", before: { hash: "1".repeat(64), bytes: 3 }, after: "2".repeat(64) }],
		},
	};

	it("names the pre-images a change needs kept", () => {
		expect(blobsOf(move)).toEqual([{ hash: "1".repeat(64), bytes: 3 }]);
		expect(blobsOf({ type: "undo", id: "m", at: 2 })).toEqual([]);
		expect(blobsOf({ ...move, change: { kind: "create", path: "n.md", after: "3".repeat(64) } })).toEqual([]);
	});

	it("names every path a change touched", () => {
		if (move.type !== "change") throw new Error("a change");
		expect(pathsOf(move.change)).toEqual(["a.md", "b/a.md", "c.md"]);
		expect(
			pathsOf({ kind: "edit", path: "e.md", before: { hash: "4".repeat(64), bytes: 1 }, after: "5".repeat(64) }),
		).toEqual(["e.md"]);
	});
});
