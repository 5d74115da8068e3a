import { MemoryJournalStore } from "../../src/journal/memory-journal-store";
import { journalStoreContract } from "./journal-store-contract";

journalStoreContract("MemoryJournalStore", () => ({ store: new MemoryJournalStore(), dispose: () => undefined }));

describe("MemoryJournalStore", () => {
	it("keeps copies: changing a loaded record or a given blob changes nothing stored", async () => {
		const store = new MemoryJournalStore();
		await store.append([{ type: "undo", id: "x", at: 1 }]);
		const [loaded] = await store.load();
		if (loaded) loaded.id = "changed";
		expect((await store.load())[0]?.id).toBe("x");
		const bytes = Uint8Array.from([1, 2]);
		await store.putBlob("a".repeat(64), bytes);
		bytes[0] = 9;
		expect([...((await store.getBlob("a".repeat(64))) ?? [])]).toEqual([1, 2]);
		expect(store.blobCount).toBe(1);
	});
});
