import { PreImageError } from "../../src/journal/journal-store";
import { MemoryJournalStore } from "../../src/journal/memory-journal-store";

describe("PreImageError", () => {
	it("is what a store throws for a blob that is not what a record may ask for, told apart from a failing store", async () => {
		const store = new MemoryJournalStore();
		store.plantBlob("a".repeat(64), Buffer.from("longer than asked"));
		const failure = await store.getBlob("a".repeat(64), 4).catch((error: unknown) => error);
		expect(failure).toBeInstanceOf(PreImageError);
		expect(failure).toMatchObject({ name: "PreImageError", message: "is larger than the record says" });
	});
});
