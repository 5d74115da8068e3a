import type { WorkPace } from "../../../src/vault/notes/notes";
import type { VaultIndex } from "../../../src/vault/notes/vault-index";
import { VisibleVault } from "../../../src/vault/privacy/visible-vault";
import { VaultPaths } from "../../../src/vault/vault-paths";

/** A pace whose clock moves one millisecond per reading (a slice of 8 ms ends after a few readings); counts its yields. */
function countingPace(): WorkPace & { yields: number } {
	let time = 0;
	const pace = {
		sliceMs: 8,
		yields: 0,
		now: () => time++,
		yieldToMain: () => {
			pace.yields++;
			return Promise.resolve();
		},
	};
	return pace;
}

/** Just what `VisibleVault` asks of an index to list notes: the notes (in no order), a refresh, a pace or none. */
function listingIndex(paths: () => readonly string[], pace?: WorkPace): VaultIndex {
	return { notePaths: paths, refresh: () => Promise.resolve(), pace } as unknown as VaultIndex;
}

/** 2,000 notes, unsorted, with private ones in `Private/`, hidden ones under a dot folder, and tagged ones. */
function manyNotes(): string[] {
	const notes: string[] = [];
	for (let n = 0; n < 2000; n++) {
		const folder = ["Private", "Notes", ".hidden", "Daily"][n % 4];
		notes.push(`${folder}/note ${(n * 7919) % 2000}.md`);
	}
	return notes;
}

describe("VisibleVault lists the notes the tools may see, in slices with a pace and at once without", () => {
	const paths = new VaultPaths("/vault");
	const tagged = new Set(["Daily/note 3.md", "Notes/note 10.md"]);
	let privateFolder = "Private/";
	const isPrivate = (path: string): boolean => path.startsWith(privateFolder) || tagged.has(path);
	const expected = (notes: readonly string[]): string[] =>
		notes.filter((path) => !path.startsWith(".") && !path.includes("/.") && !isPrivate(path)).sort();

	beforeEach(() => {
		privateFolder = "Private/";
	});

	it("answers the same sorted list either way, with no private or hidden note in it", async () => {
		const notes = manyNotes();
		const pace = countingPace();
		const paced = new VisibleVault({ index: listingIndex(() => notes, pace), paths, isPrivate });
		const atOnce = new VisibleVault({ index: listingIndex(() => notes), paths, isPrivate });
		await paced.refresh();
		await atOnce.refresh();
		expect(pace.yields).toBeGreaterThan(10);
		expect(paced.notePaths()).toEqual(expected(notes));
		expect(atOnce.notePaths()).toEqual(expected(notes));
		for (const path of [...tagged, "Private/note 0.md", ".hidden/note 2.md"]) {
			expect([path, paced.isVisible(path)]).toEqual([path, false]);
			expect([path, atOnce.isVisible(path)]).toEqual([path, false]);
		}
		expect(paced.isVisible("Notes/note 1.md")).toBe(true);
	});

	it("decides again at each refresh: a note made private meanwhile is gone from the next list", async () => {
		const notes = manyNotes();
		const pace = countingPace();
		const vault = new VisibleVault({ index: listingIndex(() => notes, pace), paths, isPrivate });
		await vault.refresh();
		expect(vault.notePaths()).toContain("Daily/note 1.md");
		tagged.add("Daily/note 1.md");
		privateFolder = "Notes/";
		try {
			await vault.refresh();
			expect(vault.notePaths()).toEqual(expected(notes));
			expect(vault.notePaths()).not.toContain("Daily/note 1.md");
			expect(vault.notePaths().some((path) => path.startsWith("Notes/"))).toBe(false);
			expect(vault.isVisible("Daily/note 1.md")).toBe(false);
			expect(vault.isVisible("Notes/note 1.md")).toBe(false);
			expect(vault.isVisible("Private/note 0.md")).toBe(true);
		} finally {
			tagged.delete("Daily/note 1.md");
		}
	});

	it("keeps the list decided under unchanged decisions (decisionsKey), and decides again when the key changes", async () => {
		const notes = manyNotes();
		let key = {};
		const vault = new VisibleVault({
			index: listingIndex(() => notes, countingPace()),
			paths,
			isPrivate,
			decisionsKey: () => key,
		});
		await vault.refresh();
		const first = vault.notePaths();
		await vault.refresh();
		expect(vault.notePaths()).toBe(first);
		privateFolder = "Daily/";
		// The same key claims nothing changed: the kept list stands (the key is what the filter promises).
		await vault.refresh();
		expect(vault.notePaths()).toBe(first);
		key = {};
		await vault.refresh();
		expect(vault.notePaths()).toEqual(expected(notes));
		expect(vault.notePaths().some((path) => path.startsWith("Daily/"))).toBe(false);
	});

	it("answers a list asked while a refresh waits between slices without a private note, and the refresh keeps it", async () => {
		const notes = manyNotes();
		let asked: readonly string[] | undefined;
		const pace = countingPace();
		const yieldToMain = pace.yieldToMain.bind(pace);
		let vault: VisibleVault | undefined;
		pace.yieldToMain = () => {
			// Another tool call's question, while this refresh waits.
			if (pace.yields === 3) asked = vault?.notePaths();
			return yieldToMain();
		};
		vault = new VisibleVault({ index: listingIndex(() => notes, pace), paths, isPrivate });
		await vault.refresh();
		expect(asked).toEqual(expected(notes));
		expect(vault.notePaths()).toBe(asked);
	});
});
