import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DataAdapter } from "obsidian";
import { FileSystemAdapter } from "../../__mocks__/obsidian";
import { diskNoteBytes, RECENT_CHANGE_MS } from "../../../src/obsidian/vault-tools/disk-note-bytes";

describe("diskNoteBytes", () => {
	let root: string;
	beforeEach(() => {
		root = mkdtempSync(join(tmpdir(), "ccb-disk-note-bytes-"));
		mkdirSync(join(root, "Folder"));
		writeFileSync(join(root, "Folder", "Note.md"), "Hello ü");
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	/** The stand-in's desktop adapter (the class the code checks for), typed as Obsidian's. */
	const desktop = (): DataAdapter => new FileSystemAdapter(root) as unknown as DataAdapter;
	const now = 1_800_000_000_000;
	const old = { mtime: now - RECENT_CHANGE_MS };

	it("reads a note's bytes from the vault's folder on the desktop adapter", () => {
		const read = diskNoteBytes(desktop(), () => now);
		expect(read?.({ path: "Folder/Note.md", stat: old })?.toString("utf8")).toBe("Hello ü");
	});

	it("reads a note longer than its first buffer whole, and a short one after it without the longer one's end", () => {
		const long = "0123456789abcdef".repeat(10_000);
		writeFileSync(join(root, "Long.md"), long);
		const read = diskNoteBytes(desktop(), () => now);
		expect(read?.({ path: "Long.md", stat: old })?.toString("utf8")).toBe(long);
		expect(read?.({ path: "Folder/Note.md", stat: old })?.toString("utf8")).toBe("Hello ü");
		writeFileSync(join(root, "Empty.md"), "");
		expect(read?.({ path: "Empty.md", stat: old })?.length).toBe(0);
	});

	it("reads a note longer than the buffer it keeps (4 MB) whole, then the notes after it from its kept buffer", () => {
		const huge = "a line of a very long note\n".repeat(400_000);
		const long = "0123456789abcdef".repeat(10_000);
		writeFileSync(join(root, "Huge.md"), huge);
		writeFileSync(join(root, "Long.md"), long);
		const read = diskNoteBytes(desktop(), () => now);
		expect(read?.({ path: "Long.md", stat: old })?.toString("utf8")).toBe(long);
		expect(read?.({ path: "Huge.md", stat: old })?.toString("utf8")).toBe(huge);
		expect(read?.({ path: "Long.md", stat: old })?.toString("utf8")).toBe(long);
		expect(read?.({ path: "Folder/Note.md", stat: old })?.toString("utf8")).toBe("Hello ü");
	});

	it("leaves to the vault a note changed in the last seconds, a note it cannot read, and any note off the desktop", () => {
		const read = diskNoteBytes(desktop(), () => now);
		expect(read?.({ path: "Folder/Note.md", stat: { mtime: now - RECENT_CHANGE_MS + 1 } })).toBeUndefined();
		expect(read?.({ path: "Folder/Gone.md", stat: old })).toBeUndefined();
		expect(diskNoteBytes({} as DataAdapter)).toBeUndefined();
	});

	it("stops trying the disk after 64 failures in a row, and counts again after a success", () => {
		const read = diskNoteBytes(desktop(), () => now);
		const gone = { path: "Gone.md", stat: old };
		const note = { path: "Folder/Note.md", stat: old };
		for (let attempt = 0; attempt < 63; attempt++) expect(read?.(gone)).toBeUndefined();
		expect(read?.(note)).toBeDefined();
		for (let attempt = 0; attempt < 64; attempt++) expect(read?.(gone)).toBeUndefined();
		expect(read?.(note)).toBeUndefined();
	});
});
