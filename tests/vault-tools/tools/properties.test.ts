import { createPropertiesTool } from "../../../src/vault-tools/tools/properties";
import { toolOver } from "./vault-tool-env";

const tool = toolOver(
	createPropertiesTool,
	{
		"a.md": "---\nStatus: draft\ndue: 2026-05-01\ndone: false\ncount: 3\nlist: [x, y]\nempty:\n---\nbody\n",
		"b.md": "---\nstatus: final\ncount: 4\n---\n",
		"none.md": "no frontmatter\n",
		"broken.md": "---\nkey: [unclosed\n---\n",
		"Private/p.md": "---\nsecret: 1\nstatus: hidden\n---\n",
	},
	{ isPrivate: (path) => path.startsWith("Private/") },
);
afterAll(() => tool.dispose());

describe("properties", () => {
	it("lists every key with its types and how many notes have it, most used first", async () => {
		expect((await tool.call({})).text.split("\n")).toEqual([
			"key (types) notes",
			"count (number) 2",
			"Status (text) 1",
			"done (checkbox) 1",
			"due (date) 1",
			"empty (empty) 1",
			"list (list) 1",
			"status (text) 1",
			"(total 7 keys; showing 1-7)",
		]);
	});

	it("gives one key's value in each note, the key matched without case", async () => {
		expect((await tool.call({ key: "STATUS" })).text.split("\n")).toEqual([
			"STATUS:",
			"a.md:2: draft",
			"b.md:2: final",
			"(total 2 notes; showing 1-2)",
		]);
		expect((await tool.call({ key: "secret" })).text).toBe('No note has a property "secret".');
	});

	it("gives one note's properties with their lines and types", async () => {
		expect((await tool.call({ path: "a" })).text.split("\n")).toEqual([
			"a.md:",
			"2: Status (text): draft",
			"3: due (date): 2026-05-01",
			"4: done (checkbox): false",
			"5: count (number): 3",
			'6: list (list): ["x","y"]',
			"7: empty (empty): null",
			"(total 6 properties; showing 1-6)",
		]);
		expect((await tool.call({ path: "a", key: "count" })).text.split("\n")).toEqual([
			"a.md:",
			"5: count (number): 3",
			"(total 1 properties; showing 1-1)",
		]);
	});

	it("says when a note has no frontmatter or one that cannot be read", async () => {
		expect((await tool.call({ path: "none" })).text).toBe("none.md has no frontmatter.");
		const broken = await tool.call({ path: "broken" });
		expect(broken.isError).toBe(false);
		expect(broken.text).toMatch(/^broken\.md: \S/);
	});

	it("answers a private note as a missing one", async () => {
		const privateNote = await tool.call({ path: "Private/p.md" });
		expect(privateNote.isError).toBe(true);
		expect(privateNote.text).toBe((await tool.call({ path: "Private/q.md" })).text.replace("q.md", "p.md"));
	});
});
