import {
	appendFileSync,
	lstatSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	statSync,
	symlinkSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { contentHash } from "../../src/journal/content-hash";
import { FolderJournalStore } from "../../src/journal/folder-journal-store";
import { makeTempDir } from "../helpers/temp-dir";
import { journalStoreContract } from "./journal-store-contract";

/** Sets every blob's modification time an hour back. */
function ageBlobs(folder: string): void {
	const anHourAgo = new Date(Date.now() - 3_600_000);
	for (const name of readdirSync(join(folder, "blobs")))
		utimesSync(join(folder, "blobs", name), anHourAgo, anHourAgo);
}

journalStoreContract("FolderJournalStore", () => {
	const temp = makeTempDir("folder-journal-store");
	const folder = join(temp.path, "journal");
	return { store: new FolderJournalStore(folder), dispose: () => temp.remove(), ageBlobs: () => ageBlobs(folder) };
});

describe("FolderJournalStore", () => {
	it("keeps its folders 0700 and its files 0600", async () => {
		const temp = makeTempDir("folder-journal-modes");
		try {
			const folder = join(temp.path, "journal");
			const store = new FolderJournalStore(folder);
			await store.append([{ type: "undo", id: "x", at: 1 }]);
			await store.putBlob("b".repeat(64), Uint8Array.from([1]));
			expect(statSync(folder).mode & 0o777).toBe(0o700);
			expect(statSync(join(folder, "blobs")).mode & 0o777).toBe(0o700);
			expect(statSync(join(folder, "records.jsonl")).mode & 0o777).toBe(0o600);
			expect(statSync(join(folder, "blobs", "b".repeat(64))).mode & 0o777).toBe(0o600);
		} finally {
			temp.remove();
		}
	});

	it("tells the size its appends added to the records file", async () => {
		const temp = makeTempDir("folder-journal-size");
		try {
			const folder = join(temp.path, "journal");
			const store = new FolderJournalStore(folder);
			const first = await store.append([{ type: "undo", id: "x", at: 1 }]);
			const second = await store.append([
				{
					type: "call",
					id: "é",
					at: 2,
					session: { key: "s", surface: "ide" },
					tool: "t",
					notes: ["Café.md"],
					args: "✓",
					outcome: "ok",
					durationMs: 1,
					answerBytes: 1,
				},
			]);
			expect(statSync(join(folder, "records.jsonl")).size).toBe(first + second);
		} finally {
			temp.remove();
		}
	});

	it("writes the lines it is given for the records as they are (the journal encodes each record once)", async () => {
		const temp = makeTempDir("folder-journal-given-lines");
		try {
			const folder = join(temp.path, "journal");
			const store = new FolderJournalStore(folder);
			const records = [
				{ type: "undo", id: "a", at: 1 },
				{ type: "undo", id: "b", at: 2 },
			] as const;
			// Spelled otherwise than JSON.stringify would, so that a store encoding the records again is seen.
			const lines = ['{"type":"undo","id":"\u0061","at":1}', '{"type":"undo","id":"b","at":2.0}'];
			const bytes = await store.append(records, lines);
			expect(readFileSync(join(folder, "records.jsonl"), "utf8")).toBe(`${lines.join("\n")}\n`);
			expect(bytes).toBe(Buffer.byteLength(`${lines.join("\n")}\n`));
			expect((await store.load()).map((record) => record.id)).toEqual(["a", "b"]);
		} finally {
			temp.remove();
		}
	});

	it("skips a line cut short by a crash and keeps the rest", async () => {
		const temp = makeTempDir("folder-journal-partial");
		try {
			const folder = join(temp.path, "journal");
			const store = new FolderJournalStore(folder);
			await store.append([{ type: "undo", id: "first", at: 1 }]);
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

	it("appends a batch of records in order, and keeps a pre-image written in the last minute through a compaction (its write may not be recorded yet)", async () => {
		const temp = makeTempDir("folder-journal-young");
		try {
			const folder = join(temp.path, "journal");
			const store = new FolderJournalStore(folder);
			await store.append([
				{ type: "undo", id: "a", at: 1 },
				{ type: "undo", id: "b", at: 2 },
			]);
			expect(
				readFileSync(join(folder, "records.jsonl"), "utf8")
					.trim()
					.split("\n")
					.map((line) => (JSON.parse(line) as { id: string }).id),
			).toEqual(["a", "b"]);
			const old = Uint8Array.from([1]);
			const young = Uint8Array.from([2]);
			await store.putBlob(contentHash(old), old);
			ageBlobs(folder);
			await store.putBlob(contentHash(young), young);
			await store.compact(
				(records) => records,
				() => new Set(),
			);
			expect(await store.getBlob(contentHash(old))).toBeUndefined();
			expect(await store.getBlob(contentHash(young))).toBeDefined();
			// Kept again (an old blob protecting a new write): young again, so a compaction leaves it.
			ageBlobs(folder);
			await store.putBlob(contentHash(young), young);
			await store.compact(
				(records) => records,
				() => new Set(),
			);
			expect(await store.getBlob(contentHash(young))).toBeDefined();
		} finally {
			temp.remove();
		}
	});

	it("compacts by copying the kept lines as they were written, and measures each record by its line", async () => {
		const temp = makeTempDir("folder-journal-lines");
		try {
			const folder = join(temp.path, "journal");
			const store = new FolderJournalStore(folder);
			await store.append([{ type: "undo", id: "first", at: 1 }]);
			// Lines another writer spelled otherwise than JSON.stringify would: an escape, spaces.
			const spelled = ['{"type":"undo","id":"caf\\u00e9","at":2}', '{ "type": "undo", "id": "spaced", "at": 3 }'];
			appendFileSync(join(folder, "records.jsonl"), spelled.map((line) => `${line}\n`).join(""));
			const sizes: number[] = [];
			await store.compact(
				(records, sizeOf) => {
					sizes.push(...records.map(sizeOf));
					return records.filter((record) => record.id !== "first");
				},
				() => new Set(),
			);
			expect(readFileSync(join(folder, "records.jsonl"), "utf8")).toBe(
				spelled.map((line) => `${line}\n`).join(""),
			);
			expect(sizes).toEqual([
				Buffer.byteLength('{"type":"undo","id":"first","at":1}\n'),
				...spelled.map((line) => Buffer.byteLength(line) + 1),
			]);
			expect((await store.load()).map((record) => record.id)).toEqual(["café", "spaced"]);
		} finally {
			temp.remove();
		}
	});

	it("compacts to the kept lines byte for byte, in runs or one by one, ending each in a newline", async () => {
		const temp = makeTempDir("folder-journal-runs");
		try {
			const folder = join(temp.path, "journal");
			const store = new FolderJournalStore(folder);
			const undo = (id: string): string => `{"type":"undo","id":"${id}","at":1}`;
			// A blank line, a line that is no record, and a last line without its newline (a write cut short there).
			const text = [undo("a"), undo("b"), "", undo("c"), "not a record", undo("d"), undo("é"), undo("e")];
			mkdirSync(folder, { recursive: true });
			writeFileSync(join(folder, "records.jsonl"), text.join("\n"), { mode: 0o600 });
			await store.compact(
				(records) => records.filter((record) => record.id !== "b"),
				() => new Set(),
			);
			expect(readFileSync(join(folder, "records.jsonl"), "utf8")).toBe(
				`${[undo("a"), undo("c"), undo("d"), undo("é"), undo("e")].join("\n")}\n`,
			);
		} finally {
			temp.remove();
		}
	});

	describe("a folder that syncs with the vault: what another device put there is never followed", () => {
		it("does not read a pre-image through a link (a blob linked to a secret file), nor one larger than asked", async () => {
			const temp = makeTempDir("folder-journal-blob-link");
			try {
				const folder = join(temp.path, "journal");
				const store = new FolderJournalStore(folder);
				await store.append([{ type: "undo", id: "x", at: 1 }]);
				const secret = join(temp.path, "id_rsa");
				writeFileSync(secret, "PRIVATE KEY\n");
				const hash = contentHash(Buffer.from("PRIVATE KEY\n"));
				symlinkSync(secret, join(folder, "blobs", hash));
				await expect(store.getBlob(hash, 100)).rejects.toThrow(/is a link, which the journal never follows/);
				const big = Buffer.alloc(64, 1);
				await store.putBlob(contentHash(big), big);
				await expect(store.getBlob(contentHash(big), 63)).rejects.toThrow(/larger than the journal keeps/);
				mkdirSync(join(folder, "blobs", "c".repeat(64)));
				await expect(store.getBlob("c".repeat(64), 100)).rejects.toThrow(/not a plain file/);
			} finally {
				temp.remove();
			}
		});

		it("never appends to, nor changes the mode of, a file a link in place of its records leads to", async () => {
			const temp = makeTempDir("folder-journal-records-link");
			try {
				const folder = join(temp.path, "journal");
				mkdirSync(folder);
				const target = join(temp.path, "bashrc");
				writeFileSync(target, "export A=1\n", { mode: 0o644 });
				symlinkSync(target, join(folder, "records.jsonl"));
				const store = new FolderJournalStore(folder);
				await expect(store.append([{ type: "undo", id: "x", at: 1 }])).rejects.toThrow(/is a link/);
				await expect(store.load()).rejects.toThrow(/is a link/);
				expect(readFileSync(target, "utf8")).toBe("export A=1\n");
				expect(statSync(target).mode & 0o777).toBe(0o644);
			} finally {
				temp.remove();
			}
		});

		it("replaces a link planted under a pre-image's name when it keeps that pre-image", async () => {
			const temp = makeTempDir("folder-journal-blob-replace");
			try {
				const folder = join(temp.path, "journal");
				const store = new FolderJournalStore(folder);
				await store.append([{ type: "undo", id: "x", at: 1 }]);
				const bytes = Buffer.from("the note before\n");
				const elsewhere = join(temp.path, "elsewhere");
				writeFileSync(elsewhere, bytes);
				symlinkSync(elsewhere, join(folder, "blobs", contentHash(bytes)));
				await store.putBlob(contentHash(bytes), bytes);
				expect(lstatSync(join(folder, "blobs", contentHash(bytes))).isFile()).toBe(true);
				expect(Buffer.from((await store.getBlob(contentHash(bytes), 100))!).equals(bytes)).toBe(true);
			} finally {
				temp.remove();
			}
		});

		it("reads at most its bound of a records file grown past it: the newest whole lines", async () => {
			const temp = makeTempDir("folder-journal-huge");
			try {
				const folder = join(temp.path, "journal");
				const store = new FolderJournalStore(folder, 200);
				for (let index = 0; index < 20; index++)
					await store.append([{ type: "undo", id: `r${index}`, at: index }]);
				const ids = (await store.load()).map((record) => record.id);
				expect(ids.length).toBeLessThan(10);
				expect(ids.at(-1)).toBe("r19");
			} finally {
				temp.remove();
			}
		});
	});
});
