import type { NoteReference } from "../../src/journal/argument-summary";
import { CallRecorder } from "../../src/journal/call-recorder";
import { Journal } from "../../src/journal/journal";
import { MemoryJournalStore } from "../../src/journal/memory-journal-store";
import { outcomeClassifier } from "../../src/journal/outcome-classifier";
import { referencesPerTurn } from "../../src/journal/references-per-turn";

/** References whose private notes a test changes as it goes, counting the questions asked. */
function changingReferences(): { classify(value: string): NoteReference; privateNotes: Set<string>; asked: string[] } {
	const privateNotes = new Set<string>();
	const asked: string[] = [];
	return {
		privateNotes,
		asked,
		classify: (value) => {
			asked.push(value);
			return privateNotes.has(value) ? "private" : { path: value };
		},
	};
}

describe("referencesPerTurn", () => {
	it("asks once per value in one synchronous run, and afresh after it", async () => {
		const inner = changingReferences();
		const references = referencesPerTurn(inner);
		expect([references.classify("a.md"), references.classify("b.md"), references.classify("a.md")]).toEqual([
			{ path: "a.md" },
			{ path: "b.md" },
			{ path: "a.md" },
		]);
		expect(inner.asked).toEqual(["a.md", "b.md"]);
		inner.privateNotes.add("a.md");
		await Promise.resolve();
		expect(references.classify("a.md")).toBe("private");
		expect(inner.asked).toEqual(["a.md", "b.md", "a.md"]);
	});

	it("judges a batch of records when it is written: a note made private after its calls, or between two batches, is withheld", async () => {
		const inner = changingReferences();
		const journal = new Journal({ store: new MemoryJournalStore() });
		const recorder = new CallRecorder({
			journal,
			surface: "vault-tools-http",
			references: referencesPerTurn(inner),
			classify: outcomeClassifier(() => false),
		});
		const read = (path: string): void => {
			recorder
				.started({
					method: "tools/call",
					params: { name: "read_note", arguments: { path } },
					session: { id: 1 },
				})
				?.finished({ kind: "result", result: {}, bytes: 1 });
		};
		read("Plans.md");
		read("Plans.md");
		read("Other.md");
		// Private once the calls ended, before their records are written.
		inner.privateNotes.add("Plans.md");
		await journal.flush();
		read("Other.md");
		inner.privateNotes.add("Other.md");
		await journal.flush();
		const entries = await journal.entries();
		expect(entries.map((entry) => [entry.args, entry.notes])).toEqual([
			["path=(a private note)", []],
			["path=Other.md", ["Other.md"]],
			["path=(a private note)", []],
			["path=(a private note)", []],
		]);
		expect(JSON.stringify(entries)).not.toContain("Plans");
		// One question per value in each batch: Plans.md and Other.md, then Other.md.
		expect(inner.asked).toEqual(["Plans.md", "Other.md", "Other.md"]);
	});
});
