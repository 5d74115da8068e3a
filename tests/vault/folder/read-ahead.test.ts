import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { FolderNoteStore } from "../../../src/vault/folder/folder-note-store";
import { ReadAhead } from "../../../src/vault/folder/read-ahead";
import { restoreHeapFlags } from "../../../src/shared/v8-heap-flags";
import { makeTempDir } from "../../helpers/temp-dir";
import { waitUntil } from "../../helpers/wait-until";

jest.mock("../../../src/shared/v8-heap-flags", () => ({ restoreHeapFlags: jest.fn() }));

const temps: { remove: () => void }[] = [];
afterAll(() => temps.forEach((temp) => temp.remove()));

const name = (index: number): string => `note ${String(index).padStart(3, "0")}.md`;

function folder(count: number): string {
	const temp = makeTempDir("read-ahead");
	temps.push(temp);
	for (let index = 0; index < count; index++)
		writeFileSync(join(temp.path, name(index)), `# Note ${index}\n${"text ".repeat(index)}\n`);
	return temp.path;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe("ReadAhead", () => {
	it("reads a list on a worker, in order, for a reader that may skip files, and leaves unreadable ones to it", async () => {
		const root = folder(100);
		const reader = new ReadAhead();
		try {
			const paths = [0, 1, 2, 3, 99].map((index) => join(root, name(index)));
			expect(reader.start([...paths, join(root, "missing.md")])).toBe(true);
			// The worker ahead of the reader (a file it has not begun, the reader would take over).
			await waitUntil(() => reader.progress.written === 6, "the worker to read the list");
			const take = (position: number): string | undefined => {
				const file = reader.take(position);
				const text = file?.bytes.toString("utf8");
				reader.release(position);
				return text;
			};
			expect(take(0)).toBe("# Note 0\n\n");
			// The worker runs: its start reset this thread's heap flags, which are set again (before its online event).
			expect(restoreHeapFlags).toHaveBeenCalled();
			// Skipped: 1 to 3.
			expect(take(4)).toBe(`# Note 99\n${"text ".repeat(99)}\n`);
			// Behind the reader, and unreadable.
			expect(take(2)).toBeUndefined();
			expect(take(5)).toBeUndefined();
			// A new list after the last.
			expect(reader.start([paths[1] ?? ""])).toBe(true);
			await waitUntil(() => reader.progress.written === 1, "the worker to read the new list");
			expect(take(0)).toBe("# Note 1\ntext \n");
		} finally {
			reader.dispose();
		}
	});

	(process.platform === "win32" ? it.skip : it)(
		"takes over a file the worker has not begun instead of waiting for it; the worker goes on after it",
		async () => {
			const root = folder(3);
			// The worker stays at the first file, a pipe nobody writes to yet (its open waits for a writer).
			const pipe = join(root, "pipe.md");
			execFileSync("mkfifo", [pipe]);
			const reader = new ReadAhead();
			try {
				expect(reader.start([pipe, ...[0, 1, 2].map((index) => join(root, name(index)))])).toBe(true);
				await waitUntil(() => reader.progress.begun === 1, "the worker to begin the pipe");
				// Not begun by the worker: this thread reads it itself (undefined) rather than wait, and the list goes on.
				expect(reader.take(2)).toBeUndefined();
				expect(reader.active).toBe(true);
				// The pipe opened for writing and closed: the worker reads it (nothing: no file), skips 2, reads on.
				execFileSync("sh", ["-c", `: > "$0"`, pipe], { timeout: 20_000 });
				await waitUntil(() => reader.progress.written === 4, "the worker to read on after the file taken over");
				expect(reader.take(3)?.bytes.toString("utf8")).toBe(`# Note 2\n${"text ".repeat(2)}\n`);
				expect(reader.take(1)).toBeUndefined();
			} finally {
				// A worker left in the pipe's open (the test failed before writing to it) would never end.
				if (reader.progress.written === 0)
					try {
						execFileSync("sh", ["-c", `: > "$0"`, pipe], { timeout: 5_000 });
					} catch {
						// Not waiting in the open.
					}
				reader.dispose();
			}
		},
	);
});

describe("a store reading its notes in order (read ahead from 100 notes here)", () => {
	it("reads every note as it is, and what was read ahead is not used once a change was found", async () => {
		const root = folder(300);
		const store = new FolderNoteStore({ root, watch: false, readAheadFromNotes: 100 });
		try {
			store.refresh();
			const paths = store.notePaths();
			for (let index = 0; index < 40; index++)
				expect(store.text(paths[index] ?? "")).toContain(`# Note ${index}\n`);
			// The worker reads the next notes meanwhile; one of them changes, and the store is told.
			await pause(300);
			writeFileSync(join(root, name(60)), "changed\n");
			store.check(name(60));
			for (let index = 40; index < 300; index++) {
				const text = store.text(paths[index] ?? "");
				expect(text).toBe(index === 60 ? "changed\n" : `# Note ${index}\n${"text ".repeat(index)}\n`);
			}
		} finally {
			store.dispose();
		}
	});
});
