import { PrivacyFilter } from "../../../src/vault/privacy/privacy";
import { PrivateNoteSource } from "../../../src/vault/privacy/private-note-source";
import type { NoteSource } from "../../../src/vault/notes/note-source";
import { MemoryNoteSource } from "../notes/memory-note-source";

/** A memory vault with a source that also answers the optional questions, recording which notes were asked of. */
class AskedSource extends MemoryNoteSource implements NoteSource {
	readonly refreshed: string[] = [];
	readonly subpathsAsked: string[] = [];
	override refreshNote(path?: string): Promise<void> {
		if (path !== undefined) this.refreshed.push(path);
		return Promise.resolve();
	}
	hasSubpath(targetPath: string): boolean {
		this.subpathsAsked.push(targetPath);
		return true;
	}
	indexingNotice(path?: string): string | undefined {
		return path === undefined ? "3 notes are not indexed yet" : "this note is not indexed yet";
	}
}

function setup() {
	const source = new AskedSource({
		"Public.md": "# Public\n[[Secret]] [[Private/Other]]\n",
		"Private/Secret.md": "# Secret\n",
		"Tagged.md": "#hidden\n",
		"Work/Note.md": "[[../Private/Other]]\n",
	});
	const tags: Record<string, string[]> = { "Tagged.md": ["hidden"] };
	const privacy = new PrivacyFilter(() => ({ folders: ["Private"], tags: ["hidden"] }), (path) => tags[path] ?? []);
	return { source, notes: new PrivateNoteSource(source, privacy) };
}

describe("PrivateNoteSource", () => {
	it("lists only public notes and gives no metadata for private ones", () => {
		const { notes } = setup();
		expect([...notes.notePaths()].sort()).toEqual(["Public.md", "Work/Note.md"]);
		expect(notes.metadata("Private/Secret.md")).toBeUndefined();
		expect(notes.metadata("Tagged.md")).toBeUndefined();
		expect(notes.metadata("Public.md")?.headings.map((heading) => heading.text)).toEqual(["Public"]);
	});

	it("does not refresh, match headings in, or give notices about a private note", async () => {
		const { source, notes } = setup();
		await notes.refreshNote("Private/Secret.md");
		await notes.refreshNote("Public.md");
		expect(source.refreshed).toEqual(["Public.md"]);
		expect(notes.hasSubpath("Private/Secret.md", "Secret")).toBeUndefined();
		expect(notes.hasSubpath("Public.md", "Public")).toBe(true);
		expect(source.subpathsAsked).toEqual(["Public.md"]);
		expect(notes.indexingNotice("Tagged.md")).toBeUndefined();
		expect(notes.indexingNotice("Public.md")).toBe("this note is not indexed yet");
		expect(notes.indexingNotice()).toBe("3 notes are not indexed yet");
	});

	it("hides a link target that resolves to a private note", () => {
		const { notes } = setup();
		expect(notes.isHiddenLinkTarget("Secret", "Public.md", "Private/Secret.md")).toBe(true);
		expect(notes.isHiddenLinkTarget("Tagged", "Public.md", "Tagged.md")).toBe(true);
		expect(notes.isHiddenLinkTarget("Public", "Work/Note.md", "Public.md")).toBe(false);
	});

	it("hides an unresolved target whose path lies in a private or hidden folder, read from the root or the note's folder", () => {
		const { notes } = setup();
		expect(notes.isHiddenLinkTarget("Private/Other", "Public.md", undefined)).toBe(true);
		expect(notes.isHiddenLinkTarget("../Private/Other", "Work/Note.md", undefined)).toBe(true);
		expect(notes.isHiddenLinkTarget("Other", "Private/Secret.md", undefined)).toBe(true);
		expect(notes.isHiddenLinkTarget(".config/app.json", "Public.md", undefined)).toBe(true);
		expect(notes.isHiddenLinkTarget("Nowhere", "Public.md", undefined)).toBe(false);
		expect(notes.isHiddenLinkTarget("../../Private/x", "Work/Note.md", undefined)).toBe(false);
	});

	it("passes through what names no note: resolution, structure version, pace", () => {
		const { source, notes } = setup();
		expect(notes.resolveLink("Secret", "Public.md")).toBe(source.resolveLink("Secret", "Public.md"));
		expect(notes.structureVersion).toBe(source.structureVersion);
		source.write("New.md", "x");
		expect(notes.structureVersion).toBe(source.structureVersion);
		expect(notes.pace).toBeUndefined();
	});
});
