import { SearchTextShelf } from "../../../src/vault/notes/search-text-shelf";
import { searchTextOf } from "../../../src/vault/notes/search-text";

describe("SearchTextShelf", () => {
	it("keeps texts lower-cased in shared buffers, and puts the texts announced ahead in one", () => {
		const shelf = new SearchTextShelf();
		const first = shelf.keepText("a.md", "Alpha\r\n");
		expect(first.toString()).toBe("alpha\n\n");
		const text = "x".repeat(100_000);
		// The texts kept before may move into it (their buffer is mostly free): a little room for them.
		shelf.reserveAhead(100 * text.length + 1000);
		const kept = Array.from({ length: 100 }, (_, index) => shelf.keepText(`n${index}.md`, text));
		expect(new Set(kept.map((view) => view.buffer)).size).toBe(1);
		expect(kept[0]?.buffer).not.toBe(first.buffer);
		expect(shelf.get("n99.md")?.equals(Buffer.from(text))).toBe(true);
		expect(shelf.get("a.md")?.toString()).toBe("alpha\n\n");
	});

	it("moves the texts still in a buffer once most of it is waste, and says so", () => {
		let moves = 0;
		const shelf = new SearchTextShelf(() => moves++);
		const text = "y".repeat(500_000);
		// Eight fill a buffer; the ninth starts the next one.
		for (let index = 0; index < 9; index++) shelf.keepText(`n${index}.md`, text);
		const before = shelf.get("n0.md")?.buffer;
		for (let index = 1; index < 6; index++) shelf.forget(`n${index}.md`);
		expect(moves).toBe(1);
		expect(shelf.get("n0.md")?.buffer).not.toBe(before);
		expect(shelf.get("n0.md")?.equals(Buffer.from(text))).toBe(true);
		expect(shelf.get("n3.md")).toBeUndefined();
	});

	it("keeps a text whole when the texts a compaction moves nearly fill the new buffer", () => {
		const shelf = new SearchTextShelf();
		const text = "z".repeat(1_000_000);
		shelf.reserveAhead(9_500_000);
		for (let index = 0; index < 9; index++) shelf.keepText(`n${index}.md`, text);
		for (let index = 0; index < 5; index++) shelf.forget(`n${index}.md`);
		// 9 MB used, 5 MB of it waste: the next text starts a new 4 MB buffer, and the four texts left move into it.
		expect(shelf.keepText("r.md", "R".repeat(1_000_000)).length).toBe(1_000_000);
		expect(shelf.get("r.md")?.equals(Buffer.from("r".repeat(1_000_000)))).toBe(true);
		expect(shelf.get("n8.md")?.equals(Buffer.from(text))).toBe(true);
	});

	it("keeps a plain-ASCII text in place, without a lower-cased copy on the heap; any other text as keepText", () => {
		const shelf = new SearchTextShelf();
		const lower = jest.spyOn(String.prototype, "toLowerCase");
		try {
			expect(shelf.keepText("a.md", "Alpha\r\nBETA", true).toString()).toBe("alpha\n\nbeta");
			expect(lower).not.toHaveBeenCalled();
			expect(shelf.keepText("b.md", "ÉTÉ İx", true).toString()).toBe("été İx");
			expect(shelf.keepText("c.md", "z".repeat(2_000_000), true).length).toBe(2_000_000);
		} finally {
			lower.mockRestore();
		}
		expect(shelf.get("a.md")?.toString()).toBe("alpha\n\nbeta");
		expect(shelf.get("b.md")?.buffer).toBe(shelf.get("a.md")?.buffer);
	});

	it("keeps a note's bytes in place as it keeps them otherwise: lower case, every \\r a \\n, UTF-8 as its text's", () => {
		const shelf = new SearchTextShelf();
		for (const text of ["Plain ASCII ZAaz@[`{\r\nEnd\r", "Ünïcode İ and ASCII", "", "X"]) {
			const bytes = Buffer.from(text, "utf8");
			const copied = shelf.keepBytes("a.md", bytes).toString("utf8");
			expect(shelf.keepBytes("b.md", bytes, true).toString("utf8")).toBe(copied);
			expect(copied).toBe(searchTextOf(text).toString("utf8"));
			expect(bytes.toString("utf8")).toBe(text);
		}
	});
});
