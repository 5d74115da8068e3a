import { SavedTargets, targetsLine, targetsValue } from "../../../src/vault/folder/saved-targets";

/** The targets line of notes (in path order) parsed back. */
function parsed(notes: { path: string; targets?: string[] }[]): SavedTargets | undefined {
	return SavedTargets.parse(
		JSON.parse(targetsLine(notes)),
		notes.map((note) => note.path),
	);
}

/** A line whose numbers are given as they are (an edited file). */
function lineOf(files: string[], numbers: number[]): unknown {
	const bytes = Buffer.alloc(numbers.length * 4);
	numbers.forEach((number, at) => bytes.writeInt32LE(number, at * 4));
	return { files, links: bytes.toString("base64") };
}

describe("SavedTargets", () => {
	const notes = [
		{ path: "a.md", targets: ["hub.md", "b.md", "pic.png"] },
		{ path: "b.md", targets: ["hub.md"] },
		{ path: "c.md" },
		{ path: "hub.md", targets: ["hub.md", "a.md"] },
	];

	it("gives back each note's targets and turns them around: the rows linking to a file, ascending", () => {
		const targets = parsed(notes);
		expect(notes.map((_note, row) => targets?.targets(row))).toEqual([
			["hub.md", "b.md", "pic.png"],
			["hub.md"],
			null,
			["hub.md", "a.md"],
		]);
		expect([...(targets?.sourceRows("hub.md") ?? [])]).toEqual([0, 1, 3]);
		expect([...(targets?.sourceRows("a.md") ?? [])]).toEqual([3]);
		expect([...(targets?.sourceRows("pic.png") ?? [])]).toEqual([0]);
		expect([...(targets?.sourceRows("c.md") ?? [])]).toEqual([]);
		expect([...(targets?.sourceRows("other.md") ?? [])]).toEqual([]);
		expect(notes.map((_note, row) => targets?.hasTargets(row))).toEqual([true, true, false, true]);
		expect(targets?.pathOf(3)).toBe("hub.md");
	});

	it("finds the rows linking to the first file asked by a pass over the targets, as the turned-around rows have them", () => {
		const asked = ["hub.md", "a.md", "b.md", "pic.png", "c.md", "other.md"];
		const turned = parsed(notes);
		for (const path of asked) turned?.sourceRows(path);
		for (const path of asked) {
			// A fresh parse asked for this file first (then for it again, and for another: turned around then).
			const fresh = parsed(notes);
			const first = [...(fresh?.sourceRows(path) ?? [])];
			expect(first).toEqual([...(turned?.sourceRows(path) ?? [])]);
			expect([...(fresh?.sourceRows(path) ?? [])]).toEqual(first);
			expect([...(fresh?.sourceRows("hub.md") ?? [])]).toEqual([0, 1, 3]);
		}
		const edited = SavedTargets.parse(lineOf(["x.png"], [3, 2, 2, 1, 2, 2, 1]), ["a.md", "b.md"]);
		expect([...(edited?.sourceRows("b.md") ?? [])]).toEqual([0, 1]);
	});

	it("is not used when the line does not hold exactly the notes' targets", () => {
		const paths = ["a.md", "b.md"];
		expect(SavedTargets.parse(lineOf([], [1, 0, 1]), paths)).toBeDefined();
		// A number past the files, a count short or long, a count below -1, unsorted paths or files, no object.
		expect(SavedTargets.parse(lineOf([], [1, 0, 2]), paths)).toBeUndefined();
		expect(SavedTargets.parse(lineOf([], [2, 0, 1]), paths)).toBeUndefined();
		expect(SavedTargets.parse(lineOf([], [0, 0, 1]), paths)).toBeUndefined();
		expect(SavedTargets.parse(lineOf([], [-2, 0]), paths)).toBeUndefined();
		expect(SavedTargets.parse(lineOf([], [0, 0]), ["b.md", "a.md"])).toBeUndefined();
		expect(SavedTargets.parse(lineOf(["z.png", "y.png"], [0, 0]), paths)).toBeUndefined();
		expect(SavedTargets.parse({ files: [], links: "AAA" }, paths)).toBeUndefined();
		expect(SavedTargets.parse(0, paths)).toBeUndefined();
	});

	it("counts a row once for a file its edited line names twice", () => {
		const targets = SavedTargets.parse(lineOf(["x.png"], [3, 2, 2, 1, 2, 2, 1]), ["a.md", "b.md"]);
		expect([...(targets?.sourceRows("x.png") ?? [])]).toEqual([0, 1]);
		expect([...(targets?.sourceRows("b.md") ?? [])]).toEqual([0, 1]);
		expect([...(targets?.sourceRows("a.md") ?? [])]).toEqual([]);
	});
});

describe("targetsValue", () => {
	const notes = [
		{ path: "a.md", targets: ["hub.md", 'odd],"links":"name.png', "pic \u00e9.png"] },
		{ path: "hub.md", targets: ["a.md"] },
	];
	const paths = notes.map((note) => note.path);

	it("takes a plain line apart without parsing its links as JSON: the value JSON.parse gives, the links decoded", () => {
		const line = targetsLine(notes);
		const parse = jest.spyOn(JSON, "parse");
		try {
			const value = targetsValue(Buffer.from(line));
			// Only the list of files was parsed (its strings hold the line's own separator, escaped).
			expect(parse.mock.calls.map((call) => call[0])).toEqual([line.slice(9, line.indexOf('],"links":"') + 1)]);
			parse.mockRestore();
			const whole = JSON.parse(line) as { files: string[]; links: string };
			expect(value).toEqual({ files: whole.files, links: new Uint8Array(Buffer.from(whole.links, "base64")) });
			expect(SavedTargets.parse(value, paths)?.targets(0)).toEqual(SavedTargets.parse(whole, paths)?.targets(0));
		} finally {
			parse.mockRestore();
		}
	});

	it("parses whole a line that is not plain, and answers undefined for one that is no JSON", () => {
		for (const line of [
			'{"files":[],"links":"AAA\\u0041"}',
			'{"files":[], "links":"AAAA"}',
			'{"links":"AAAA","files":[]}',
			'{"files":["a],"links":"AAAA"}',
			'{"files":[],"links":"AA"AA"}',
			"0",
		])
			expect([line, targetsValue(Buffer.from(line))]).toEqual([line, jsonOr(line)]);
	});
});

function jsonOr(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}
