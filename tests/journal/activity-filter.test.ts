import type { ActivityEntry } from "../../src/journal/activity-entries";
import { matchesFilter, parseActivityFilter } from "../../src/journal/activity-filter";

const entry: ActivityEntry = {
	id: "ab12",
	at: 1,
	session: { key: "s9", surface: "vault-tools-relay", client: "relay" },
	tool: "edit_note",
	notes: ["Inbox/Todo.md"],
	args: "path=Inbox/Todo.md",
	outcome: "rejected",
	changes: [],
};

describe("activity filters", () => {
	it("reads fields and free text", () => {
		expect(
			parseActivityFilter([
				"surface:ide",
				"tool:edit_note",
				"note:inbox",
				"outcome:error",
				"session:s1",
				"writes",
				"some",
				"words",
			]),
		).toEqual({
			surface: "ide",
			tool: "edit_note",
			note: "inbox",
			outcome: "error",
			session: "s1",
			writes: true,
			text: "some words",
		});
		expect(() => parseActivityFilter(["surface:elsewhere"])).toThrow(/unknown surface "elsewhere"; one of ide, /);
	});

	it("matches every field given", () => {
		expect(
			matchesFilter(entry, parseActivityFilter(["note:todo", "surface:vault-tools-relay", "outcome:rejected"])),
		).toBe(true);
		expect(matchesFilter(entry, parseActivityFilter(["note:done"]))).toBe(false);
		expect(matchesFilter(entry, parseActivityFilter(["tool:read_note"]))).toBe(false);
		expect(matchesFilter(entry, parseActivityFilter(["writes"]))).toBe(false);
		expect(matchesFilter(entry, parseActivityFilter(["RELAY"]))).toBe(true);
		expect(matchesFilter(entry, parseActivityFilter(["session:s1"]))).toBe(false);
	});
});
