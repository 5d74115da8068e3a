import fc from "fast-check";
import { notification, type JsonObject } from "../../src/protocol/json-rpc";
import { selectionChangedJson } from "../../src/ide/selection-json";
import { cursorSnapshot, selectionSnapshot, type SelectionSnapshot } from "../../src/ide/workspace/selection";

const generic = (params: JsonObject): string => JSON.stringify(notification("selection_changed", params));
const position = fc.record({ line: fc.nat(), character: fc.nat() });

describe("selectionChangedJson", () => {
	it("writes the bytes JSON.stringify writes for any snapshot the editors make", () => {
		fc.assert(
			fc.property(
				fc.string({ unit: "binary" }),
				fc.string({ unit: "binary", minLength: 1 }),
				position,
				position,
				(text, path, anchor, head) => {
					const snapshot = selectionSnapshot(`/${path}`, text, anchor, head);
					expect(selectionChangedJson(snapshot)).toBe(generic(snapshot));
					// The note switch sends the cursor with the snapshot's fields overridden (Notifier.activeNoteChanged).
					const cursor = {
						...snapshot,
						text: "",
						selection: { start: snapshot.selection.start, end: snapshot.selection.start, isEmpty: true },
					};
					expect(selectionChangedJson(cursor)).toBe(generic(cursor));
				},
			),
			{ numRuns: 500 },
		);
	});

	it("writes each note's path and URL, not the last one's", () => {
		const first = cursorSnapshot("/v/a.md");
		const second = selectionSnapshot(
			'/v/b "quoted" é.md',
			"x",
			{ line: 0, character: 0 },
			{ line: 0, character: 1 },
		);
		for (const snapshot of [first, second, first]) expect(selectionChangedJson(snapshot)).toBe(generic(snapshot));
	});

	it("writes -0 and large numbers as JSON does", () => {
		const snapshot = selectionSnapshot(
			"/v/a.md",
			"x",
			{ line: -0, character: 1e21 },
			{ line: 2 ** 53, character: 0.5 },
		);
		expect(selectionChangedJson(snapshot)).toBe(generic(snapshot));
	});

	it("leaves any other shape to the generic encoder", () => {
		const snapshot: SelectionSnapshot = selectionSnapshot(
			"/v/a.md",
			"x",
			{ line: 0, character: 0 },
			{ line: 0, character: 1 },
		);
		const { text, filePath, fileUrl, selection } = snapshot;
		class Range {
			constructor(
				readonly start = selection.start,
				readonly end = selection.end,
				readonly isEmpty = false,
			) {}
			toJSON(): string {
				return "a range";
			}
		}
		const others: JsonObject[] = [
			{ ...snapshot, extra: 1 },
			{ filePath, text, fileUrl, selection },
			{ text, filePath, fileUrl },
			{ text: 1, filePath, fileUrl, selection },
			{ text, filePath, fileUrl, selection: { ...selection, start: { line: Number.NaN, character: 0 } } },
			{ text, filePath, fileUrl, selection: { ...selection, end: { character: 0, line: 0 } } },
			{ text, filePath, fileUrl, selection: { ...selection, isEmpty: "no" } },
			{ text, filePath, fileUrl, selection: new Range() as unknown as JsonObject },
			{ text, filePath, fileUrl, selection: { ...selection, toJSON: () => "a range" } },
		];
		for (const params of others) expect(selectionChangedJson(params)).toBeUndefined();
	});
});
