import { parseJournalLines, parseRecords, type ParseSlicing } from "../../src/journal/journal-lines";

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
