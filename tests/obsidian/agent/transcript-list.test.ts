import { Transcript } from "../../../src/agent/transcript/panel-transcript";
import { TranscriptList, estimateRowHeight } from "../../../src/obsidian/agent/transcript-list";
import { FakeElement } from "../../__mocks__/obsidian";

function listOf(count: number) {
	const transcript = new Transcript();
	for (let index = 0; index < count; index++)
		transcript.apply({ kind: "user-message", message: { text: `m${index}`, attachments: [] } });
	const scroll = new FakeElement();
	const draws: number[] = [];
	const list = new TranscriptList(scroll as unknown as HTMLElement, (element, entry) => {
		draws.push(entry.id);
		element.setText(entry.kind === "user" ? entry.text : entry.kind);
	});
	const rows = (): string[] => scroll.findAll("ccb-agent-row").map((row) => row.text);
	return { transcript, scroll, list, draws, rows };
}

describe("TranscriptList", () => {
	it("draws the rows in view from each row's height, found by binary search, and only the rows that come into view", () => {
		const { transcript, scroll, list, draws, rows } = listOf(1000);
		scroll.clientHeight = 200;
		list.setRows(transcript.entries, "", false);
		const rowHeight = estimateRowHeight(transcript.entries[0]);
		expect(list.totalHeight).toBe(1000 * rowHeight);
		expect(rows()[0]).toBe("m0");
		expect(rows().length).toBe(Math.ceil(200 / rowHeight) + 1 + 6);
		draws.length = 0;
		scroll.scrollTop = 500 * rowHeight;
		list.draw();
		expect(rows()[0]).toBe("m494");
		expect(rows()[rows().length - 1]).toBe(`m${500 + Math.ceil(200 / rowHeight) + 6}`);
		// Scrolling one row further draws one row, not the whole window.
		const before = draws.length;
		scroll.scrollTop += rowHeight;
		list.draw();
		expect(draws.length - before).toBe(1);
		expect(rows()[0]).toBe("m495");
	});

	it("keeps the end in view when rows come while the end is shown, and not when the user scrolled up", () => {
		const { transcript, scroll, list, rows } = listOf(100);
		list.setRows(transcript.entries, "", true);
		expect(rows()[rows().length - 1]).toBe("m99");
		list.append(transcript.apply({ kind: "user-message", message: { text: "m100", attachments: [] } }).added);
		expect(rows()[rows().length - 1]).toBe("m100");
		expect(scroll.scrollTop).toBe(list.totalHeight);
		scroll.scrollTop = 0;
		list.draw();
		list.append(transcript.apply({ kind: "user-message", message: { text: "m101", attachments: [] } }).added);
		expect(scroll.scrollTop).toBe(0);
		expect(rows()[0]).toBe("m0");
	});

	it("redraws a changed row in place, leaving the others as they are", () => {
		const { transcript, list, scroll } = listOf(3);
		const reply = transcript.apply({ kind: "text-delta", blockId: "b", text: "x" }).added[0];
		list.setRows(transcript.entries, "", true);
		const [first, , , replyRow] = scroll.findAll("ccb-agent-row");
		transcript.apply({ kind: "text-delta", blockId: "b", text: "y" });
		list.update(reply);
		expect(scroll.findAll("ccb-agent-row")[0]).toBe(first);
		expect(scroll.findAll("ccb-agent-row")[3]).toBe(replyRow);
	});

	it("says when there is nothing to show", () => {
		const { list, scroll } = listOf(0);
		list.setRows([], "Nothing matches.", false);
		expect(scroll.findAll("ccb-agent-empty").map((element) => element.text)).toEqual(["Nothing matches."]);
		list.setRows([], "Still nothing.", false);
		expect(scroll.findAll("ccb-agent-empty").map((element) => element.text)).toEqual(["Still nothing."]);
	});

	it("guesses taller rows for longer text", () => {
		const short = { kind: "assistant" as const, id: 1, blockId: "b", text: "hi", streaming: false };
		expect(estimateRowHeight({ ...short, text: "x".repeat(600) })).toBeGreaterThan(estimateRowHeight(short));
		expect(estimateRowHeight({ ...short, text: "a\nb\nc" })).toBeGreaterThan(estimateRowHeight(short));
	});
});
