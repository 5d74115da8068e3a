import { PreparedSearchTexts } from "../../../src/vault/notes/prepared-search-texts";

function textsOver(notes: Map<string, string>, failing = new Set<string>()) {
	const reads: string[] = [];
	const texts = new PreparedSearchTexts((path) => {
		reads.push(path);
		if (failing.has(path)) return Promise.reject(new Error("EBUSY"));
		const text = notes.get(path);
		return text === undefined ? undefined : Promise.resolve(text);
	}, undefined);
	return { texts, reads };
}

const shown = (texts: readonly (Buffer | undefined)[]): (string | undefined)[] => texts.map((text) => text?.toString());

describe("PreparedSearchTexts", () => {
	it("reads each note once, and answers the same list again from the texts kept, without a lookup", async () => {
		const notes = new Map([
			["a.md", "Alpha\r\nBeta"],
			["b.md", "GAMMA"],
		]);
		const { texts, reads } = textsOver(notes);
		const paths = ["a.md", "b.md"];
		const first = await texts.prepare(paths);
		expect(shown(first)).toEqual(["alpha\n\nbeta", "gamma"]);
		const lookup = jest.spyOn((texts as unknown as { shelf: { get(path: string): unknown } }).shelf, "get");
		expect(await texts.prepare(paths)).toBe(first);
		expect(lookup).not.toHaveBeenCalled();
		expect(reads).toEqual(["a.md", "b.md"]);
		// Another array with the same paths is looked up (and not read again).
		expect(shown(await texts.prepare([...paths]))).toEqual(["alpha\n\nbeta", "gamma"]);
		expect(reads).toEqual(["a.md", "b.md"]);
	});

	it("reads a changed note again, and tries again a note it could not read", async () => {
		const notes = new Map([
			["a.md", "one"],
			["b.md", "two"],
		]);
		const failing = new Set(["b.md"]);
		const { texts, reads } = textsOver(notes, failing);
		const paths = ["a.md", "b.md", "gone.md"];
		expect(shown(await texts.prepare(paths))).toEqual(["one", undefined, undefined]);
		failing.clear();
		expect(shown(await texts.prepare(paths))).toEqual(["one", "two", undefined]);
		notes.set("a.md", "ONE more");
		texts.drop("a.md");
		expect(texts.get("a.md")).toBeUndefined();
		expect(shown(await texts.prepare(paths))).toEqual(["one more", "two", undefined]);
		expect(reads.filter((path) => path === "a.md")).toHaveLength(2);
		const found: string[] = [];
		await texts.scan(paths, (position, text) => found.push(`${position}:${text.toString()}`));
		expect(found).toEqual(["0:one more", "1:two"]);
	});

	it("scans in list order, keeping each text as it reads it: a note is read once", async () => {
		const notes = new Map([
			["a.md", "A"],
			["b.md", "B"],
			["c.md", "C"],
		]);
		const { texts, reads } = textsOver(notes);
		await texts.prepare(["b.md"]);
		const found: string[] = [];
		const kept: boolean[] = [];
		await texts.scan(["a.md", "b.md", "gone.md", "c.md"], (position, text) => {
			found.push(`${position}:${text.toString()}`);
			kept.push(texts.get(["a.md", "b.md", "gone.md", "c.md"][position] ?? "") !== undefined);
		});
		expect(found).toEqual(["0:a", "1:b", "3:c"]);
		expect(kept).toEqual([true, true, true]);
		// The next scan waits for the texts by position being made, and reads none again (but the one not there).
		const again: string[] = [];
		await texts.scan(["c.md", "a.md"], (position, text) => again.push(`${position}:${text.toString()}`));
		expect(again).toEqual(["0:c", "1:a"]);
		expect(reads.sort()).toEqual(["a.md", "b.md", "c.md", "gone.md", "gone.md"]);
	});

	it("lends, and does not keep, a text whose note changed while it was read", async () => {
		let finish: (text: string) => void = () => undefined;
		const texts = new PreparedSearchTexts(() => new Promise<string>((resolve) => (finish = resolve)), undefined);
		const found: string[] = [];
		const scanning = texts.scan(["a.md"], (position, text) => found.push(`${position}:${text.toString()}`));
		await new Promise((resolve) => setImmediate(resolve));
		texts.drop("a.md");
		finish("Old");
		await scanning;
		expect(found).toEqual(["0:old"]);
		expect(texts.get("a.md")).toBeUndefined();
	});

	it("a background fill that fails does not fail the next search, which reads what is not kept", async () => {
		let sizeFails = true;
		const texts = new PreparedSearchTexts(
			(path) => Promise.resolve(path === "a.md" ? "Alpha" : undefined),
			undefined,
			() => {
				if (sizeFails) throw new Error("the size is not known");
				return 5;
			},
		);
		const found = async (): Promise<string[]> => {
			const seen: string[] = [];
			await texts.scan(["a.md"], (position, text) => seen.push(`${position}: ${text.toString()}`));
			return seen;
		};
		expect(await found()).toEqual(["0: alpha"]);
		expect(await found()).toEqual(["0: alpha"]);
		sizeFails = false;
		expect(await found()).toEqual(["0: alpha"]);
		expect(texts.get("a.md")?.toString()).toBe("alpha");
	});

	it("keeps plain-ASCII texts without a lower-cased copy of each on the heap", async () => {
		const notes = new Map([
			["a.md", "Alpha\r\nBeta"],
			["b.md", "GAMMA"],
		]);
		const { texts } = textsOver(notes);
		const lower = jest.spyOn(String.prototype, "toLowerCase");
		try {
			expect(shown(await texts.prepare(["a.md", "b.md"]))).toEqual(["alpha\n\nbeta", "gamma"]);
			expect(lower).not.toHaveBeenCalled();
		} finally {
			lower.mockRestore();
		}
	});

	it("keeps the bytes `readNow` answers, without a read or a lower-cased string, and reads through `read` what it cannot answer", async () => {
		const disk = new Map([
			["a.md", Buffer.from("Alpha\r\nBETA")],
			["c.md", Buffer.from("Ünïcode Ä")],
		]);
		const reads: string[] = [];
		const texts = new PreparedSearchTexts(
			(path) => {
				reads.push(path);
				return Promise.resolve(path === "b.md" ? "Being SAVED" : undefined);
			},
			undefined,
			undefined,
			(path) => disk.get(path),
		);
		const lower = jest.spyOn(String.prototype, "toLowerCase");
		const found: string[] = [];
		try {
			await texts.scan(["a.md", "b.md"], (position, text) => found.push(`${position}:${text.toString()}`));
			expect(lower).not.toHaveBeenCalled();
		} finally {
			lower.mockRestore();
		}
		expect(found).toEqual(["0:alpha\n\nbeta", "1:being saved"]);
		expect(reads).toEqual(["b.md"]);
		// Other than plain ASCII: as `searchableText` of the UTF-8 text.
		expect(shown(await texts.prepare(["a.md", "b.md", "c.md"]))).toEqual([
			"alpha\n\nbeta",
			"being saved",
			"ünïcode ä",
		]);
		// A changed note is read again from the disk.
		disk.set("a.md", Buffer.from("NEW"));
		texts.drop("a.md");
		expect(shown(await texts.prepare(["a.md"]))).toEqual(["new"]);
		expect(reads).toEqual(["b.md"]);
	});
});
