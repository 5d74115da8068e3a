import {
	MAX_SUMMARY,
	PRIVATE_NOTE,
	redactTokens,
	summarizeArguments,
	summarizeDetail,
	WITHHELD,
	type NoteReferences,
} from "../../src/journal/argument-summary";

const references: NoteReferences = {
	classify: (value) => (value.includes("Secret") ? "private" : value.endsWith(".md") ? { path: value } : undefined),
};

describe("summarizeArguments", () => {
	it("names visible notes, and a private one only as a private note, then keeps no text argument at all", () => {
		expect(summarizeArguments({ path: "Inbox/a.md", limit: 5 }, references)).toEqual({
			text: "path=Inbox/a.md limit=5",
			notes: ["Inbox/a.md"],
			private: false,
		});
		const hidden = summarizeArguments(
			{ path: "Secret/plan.md", content: "the plan", properties: { budget: 1 } },
			references,
		);
		expect(hidden).toEqual({
			text: `path=${PRIVATE_NOTE} content=${WITHHELD} properties=${WITHHELD}`,
			notes: [],
			private: true,
		});
	});

	it("keeps only a short excerpt of text, and never a credential", () => {
		const summary = summarizeArguments(
			{ content: "word ".repeat(100), token: "hunter2", edits: [{ oldText: "a" }, { oldText: "b" }] },
			references,
		);
		expect(summary.text).toBe(`content="${"word ".repeat(8).slice(0, 39)}…" token=(withheld) edits=[2 items]`);
		expect(
			summarizeArguments(
				{
					query: "x".repeat(1_000),
					a: "y".repeat(1_000),
					b: "z".repeat(1_000),
					c: "w".repeat(1_000),
					d: "v".repeat(1_000),
					e: "u".repeat(1_000),
					f: 1,
					g: 2,
					h: 3,
					i: 4,
					j: 5,
					k: 6,
					l: 7,
				},
				references,
			).text.length,
		).toBeLessThanOrEqual(MAX_SUMMARY);
	});

	it("takes a text whose name speaks of a file (openDiff's new_file_contents) as a text, never as a note", () => {
		// Any value is a path to the vault's locator: the whole proposed text once became a "note".
		const anything: NoteReferences = { classify: (value) => ({ path: value }) };
		const proposal = "# Four days in Lisbon\n\nWe land on Friday morning and take the metro into Baixa.\n";
		const summary = summarizeArguments(
			{
				old_file_path: "Trips/Lisbon.md",
				new_file_path: "Trips/Lisbon.md",
				new_file_contents: proposal,
				tab_name: "Lisbon.md",
			},
			anything,
		);
		expect(summary.notes).toEqual(["Trips/Lisbon.md"]);
		expect(summary.text).toContain(`new_file_contents="# Four days in Lisbon We land on Friday…"`);
	});
});

describe("redactTokens", () => {
	it("cuts out runs that look like tokens, keeps long plain words", () => {
		expect(redactTokens("Bearer 3f9a0c1d2e3f4a5b6c7d8e9f and more")).toBe("Bearer … and more");
		expect(redactTokens("internationalization is a long word")).toBe("internationalization is a long word");
	});
});

describe("summarizeDetail", () => {
	it("keeps the first line, withholds it for a private call", () => {
		expect(summarizeDetail("Note not found: x.md\nmore", false)).toBe("Note not found: x.md");
		expect(summarizeDetail("Note not found: Secret/plan.md", true)).toBe(WITHHELD);
	});
});
