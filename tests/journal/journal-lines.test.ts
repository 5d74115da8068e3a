import { parseJournalLines, parseRecords, scanJournalLines, type ParseSlicing } from "../../src/journal/journal-lines";

const callLine = (index: number): string =>
	JSON.stringify({
		type: "call",
		id: `c${index}`,
		at: index,
		session: { key: "s1", surface: "ide" },
		tool: "getDiagnostics",
		notes: [],
		args: "",
		outcome: "ok",
		durationMs: 1,
		answerBytes: 2,
	});

describe("parseJournalLines", () => {
	it("parses only records, skipping a line cut short and anything else", async () => {
		expect(
			(
				await parseRecords(
					'{"type":"call","id":"a","at":1}\n[1]\n{"type":"undo","id":"b","at":2}\n{"type":"undo","id":"c"',
				)
			).map((record) => record.id),
		).toEqual(["b"]);
	});

	it("keeps each record's line and its size in bytes, newline included", async () => {
		const line = JSON.stringify({ type: "undo", id: "café", at: 3 });
		expect(await parseJournalLines(`${line}\n`)).toEqual([
			{ record: { type: "undo", id: "café", at: 3 }, text: line, bytes: Buffer.byteLength(line) + 1 },
		]);
	});

	it("lets other work in whenever a slice has run its time, and parses the same records as in one go", async () => {
		const text = Array.from({ length: 1000 }, (_unused, index) => callLine(index)).join("\n");
		let clock = 0;
		const turns: number[] = [];
		// Every look at the clock finds a millisecond gone: a 5 ms slice ends at every fifth look.
		const slicing: ParseSlicing = {
			sliceMs: 5,
			now: () => clock++,
			yieldTurn: () => (turns.push(clock), Promise.resolve()),
		};
		const sliced = await parseJournalLines(text, slicing);
		const whole = await parseJournalLines(text, {
			sliceMs: Number.POSITIVE_INFINITY,
			now: () => 0,
			yieldTurn: () => Promise.reject(new Error("no yield expected")),
		});
		expect(sliced).toEqual(whole);
		expect(sliced.map((line) => line.record.id)).toEqual(
			Array.from({ length: 1000 }, (_unused, index) => `c${index}`),
		);
		// 1000 lines, the clock looked at every 64 lines (15 looks after the first): a yield at every fifth look.
		expect(turns).toHaveLength(3);
	});

	it("reads a record's conversation turn when it is an id, a record without one as before, and skips one whose turn is anything else", async () => {
		const withTurn = (turn: unknown): string =>
			JSON.stringify({ ...JSON.parse(callLine(1)), id: String(turn), turn });
		const lines = [
			callLine(0),
			withTurn("0b7c9f2e-1d3a-4c55-9e8f-2a6b1c0d4e5f"),
			withTurn("../../Private/diary"),
			withTurn("x".repeat(65)),
			withTurn(42),
			withTurn(""),
		];
		const records = await parseRecords(lines.join("\n"));
		expect(records.map((record) => [record.id, record.type === "undo" ? undefined : record.turn])).toEqual([
			["c0", undefined],
			["0b7c9f2e-1d3a-4c55-9e8f-2a6b1c0d4e5f", "0b7c9f2e-1d3a-4c55-9e8f-2a6b1c0d4e5f"],
		]);
	});

	it("skips a change whose fields are not a change's (a planted line must not break the journal's bounds or its list)", async () => {
		const session = { key: "s", surface: "panel" };
		const lines = [
			{
				type: "change",
				id: "no-rewrites",
				at: 1,
				session,
				tool: "t",
				change: { kind: "move", from: "a.md", to: "b.md", after: "x" },
			},
			{
				type: "change",
				id: "bad-hash",
				at: 1,
				session,
				tool: "t",
				change: { kind: "edit", path: "a.md", before: { hash: "../x", bytes: 1 }, after: "x" },
			},
			{
				type: "change",
				id: "number-path",
				at: 1,
				session,
				tool: "t",
				change: { kind: "create", path: 5, after: "x" },
			},
			{ type: "call", id: "number-note", at: 1, session, tool: "t", notes: [5], args: "", outcome: "ok" },
			{ type: "undo", id: "bad-mac", at: 1, mac: 5 },
			{
				type: "change",
				id: "good",
				at: 1,
				session,
				tool: "t",
				change: { kind: "edit", path: "a.md", before: { hash: "a".repeat(64), bytes: 1 }, after: "x" },
				mac: "b".repeat(64),
			},
		];
		expect(
			(await parseRecords(lines.map((line) => JSON.stringify(line)).join("\n"))).map((record) => record.id),
		).toEqual(["good"]);
	});
});

describe("scanJournalLines", () => {
	const change = {
		type: "change",
		id: "e1",
		at: 4,
		session: { key: "s1", surface: "ide" },
		tool: "t",
		change: { kind: "edit", path: "a.md", before: { hash: "a".repeat(64), bytes: 1 }, after: "x" },
	};

	it("reads a call's or an undo's head from the start of its line, a change in full, and where each line is", async () => {
		const accented = JSON.stringify({ ...JSON.parse(callLine(2)), notes: ["Café ✓.md"] });
		const lines = [callLine(1), accented, '{"type":"undo","id":"u1","at":3,"mac":"ab"}', JSON.stringify(change)];
		const bytes = Buffer.from(`${lines.join("\n")}\n`);
		const scanned = await scanJournalLines(bytes);
		expect(scanned.map((line) => line.head)).toEqual([
			{ type: "call", id: "c1", at: 1 },
			{ type: "call", id: "c2", at: 2 },
			{ type: "undo", id: "u1", at: 3 },
			change,
		]);
		expect(scanned.map((line) => bytes.toString("utf8", line.start, line.end))).toEqual(lines);
	});

	it("parses and checks any other line as parseJournalLines does: escapes decoded, anything but a record skipped", async () => {
		const lines = [
			'{"type":"undo","id":"caf\\u00e9","at":5}',
			'{ "type": "undo", "id": "spaced", "at": 6 }',
			"[1]",
			'{"type":"call","id":"a","at":1}',
			'{"type":"undo","id":"huge","at":1e400}',
			JSON.stringify({ ...change, change: { kind: "edit", path: "a.md", before: { hash: "../x", bytes: 1 } } }),
			'{"type":"undo","id":"cut',
		];
		const scanned = await scanJournalLines(Buffer.from(lines.join("\n")));
		expect(scanned.map((line) => [line.head.id, line.head.at])).toEqual([
			["café", 5],
			["spaced", 6],
		]);
		expect(scanned.map((line) => line.head)).toEqual(await parseRecords(lines.join("\n")));
	});

	it("gives the same calls and times as a full parse of lines the journal wrote, and lets other work in", async () => {
		const text = Array.from({ length: 1000 }, (_unused, index) => callLine(index)).join("\n");
		let clock = 0;
		let turns = 0;
		const scanned = await scanJournalLines(Buffer.from(text), {
			sliceMs: 5,
			now: () => clock++,
			yieldTurn: () => (turns++, Promise.resolve()),
		});
		expect(scanned.map((line) => [line.head.type, line.head.id, line.head.at])).toEqual(
			(await parseRecords(text)).map((record) => [record.type, record.id, record.at]),
		);
		expect(turns).toBe(3);
	});
});
