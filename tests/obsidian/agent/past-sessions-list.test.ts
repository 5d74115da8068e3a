import { PastSessionsList } from "../../../src/obsidian/agent/past-sessions-list";
import { FakeElement } from "../../__mocks__/obsidian";

describe("PastSessionsList", () => {
	it("lists sessions newest first with their first line, resumes the one clicked, and hides", () => {
		const parent = new FakeElement();
		const resumed: string[] = [];
		const list = new PastSessionsList(parent as unknown as HTMLElement, (id) => resumed.push(id));
		const panel = parent.findAll("ccb-agent-history")[0];
		expect(panel?.hasClass("is-hidden")).toBe(true);
		list.show([
			{ sessionId: "a", firstLine: "Older", updatedAt: "2026-01-01T00:00:00Z" },
			{ sessionId: "b", firstLine: "  ", updatedAt: "2026-02-01T00:00:00Z" },
		]);
		expect(list.visible).toBe(true);
		expect(panel?.hasClass("is-hidden")).toBe(false);
		const rows = parent.findAll("ccb-agent-history-row");
		expect(rows.map((row) => row.findAll("ccb-agent-history-line")[0]?.text)).toEqual(["(no text)", "Older"]);
		expect(rows[1]?.findAll("ccb-agent-history-date")[0]?.text).toBe(
			new Date("2026-01-01T00:00:00Z").toLocaleString(),
		);
		rows[1]?.dispatch("click");
		expect(resumed).toEqual(["a"]);
		list.hide();
		expect(parent.findAll("ccb-agent-history-row")).toEqual([]);
		list.show([]);
		expect(parent.findAll("ccb-agent-empty")[0]?.text).toBe("No past sessions in this vault yet.");
	});
});
