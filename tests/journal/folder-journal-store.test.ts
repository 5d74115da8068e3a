import { appendFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { FolderJournalStore, parseRecords } from "../../src/journal/folder-journal-store";
import { makeTempDir } from "../helpers/temp-dir";
import { journalStoreContract } from "./journal-store-contract";

journalStoreContract("FolderJournalStore", () => {
	const temp = makeTempDir("folder-journal-store");
	return { store: new FolderJournalStore(join(temp.path, "journal")), dispose: () => temp.remove() };
});

describe("FolderJournalStore", () => {
	it("keeps its folders 0700 and its files 0600", async () => {
		const temp = makeTempDir("folder-journal-modes");
		try {
			const folder = join(temp.path, "journal");
			const store = new FolderJournalStore(folder);
			await store.append({ type: "undo", id: "x", at: 1 });
			await store.putBlob("b".repeat(64), Uint8Array.from([1]));
			expect(statSync(folder).mode & 0o777).toBe(0o700);
			expect(statSync(join(folder, "blobs")).mode & 0o777).toBe(0o700);
			expect(statSync(join(folder, "records.jsonl")).mode & 0o777).toBe(0o600);
			expect(statSync(join(folder, "blobs", "b".repeat(64))).mode & 0o777).toBe(0o600);
		} finally {
			temp.remove();
		}
	});

	it("skips a line cut short by a crash and keeps the rest", async () => {
		const temp = makeTempDir("folder-journal-partial");
		try {
			const folder = join(temp.path, "journal");
			const store = new FolderJournalStore(folder);
			await store.append({ type: "undo", id: "first", at: 1 });
			appendFileSync(join(folder, "records.jsonl"), '{"type":"undo","id":"cut');
			expect((await store.load()).map((record) => record.id)).toEqual(["first"]);
		} finally {
			temp.remove();
		}
	});

	it("refuses a blob name that is not a hash (no path can be made of one)", async () => {
		const temp = makeTempDir("folder-journal-names");
		try {
			const store = new FolderJournalStore(join(temp.path, "journal"));
			await expect(store.putBlob("../escape", Uint8Array.from([1]))).rejects.toThrow(/Not a content hash/);
		} finally {
			temp.remove();
		}
	});

	it("parses only records", () => {
		expect(parseRecords('{"type":"call","id":"a","at":1}\n[1]\n{"type":"undo","id":"b","at":2}\n').map((record) => record.id)).toEqual(["b"]);
	});
});
