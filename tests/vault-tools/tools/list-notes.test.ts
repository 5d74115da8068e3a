import { createListNotesTool } from "../../../src/vault-tools/tools/list-notes";
import { toolOver } from "./vault-tool-env";

const tool = toolOver(
	createListNotesTool,
	{
		"b.md": "",
		"A/one.md": "",
		"A/two.md": "",
		"A/Sub/three.md": "",
		"AB/four.md": "",
		"Private/p.md": "",
		".hidden/h.md": "",
		"image.png": "",
	},
	{ isPrivate: (path) => path.startsWith("Private/") },
);
afterAll(() => tool.dispose());

describe("list_notes", () => {
	it("lists every visible note in code-unit order (capitals first), with a total", async () => {
		expect((await tool.call({})).text.split("\n")).toEqual([
			"A/Sub/three.md",
			"A/one.md",
			"A/two.md",
			"AB/four.md",
			"b.md",
			"(total 5 notes; showing 1-5)",
		]);
	});

	it("lists a folder and everything below it, not folders that only start with its name", async () => {
		expect((await tool.call({ folder: "A" })).text.split("\n")).toEqual([
			"A/Sub/three.md",
			"A/one.md",
			"A/two.md",
			"(total 3 notes; showing 1-3)",
		]);
	});

	it("pages with a cursor tied to its query", async () => {
		const first = await tool.call({ limit: 2 });
		const cursor = /cursor "([^"]+)"/.exec(first.text)?.[1];
		expect(first.text.split("\n").slice(0, 2)).toEqual(["A/Sub/three.md", "A/one.md"]);
		expect(cursor).toBeDefined();
		expect((await tool.call({ limit: 2, cursor })).text.split("\n")).toEqual([
			"A/two.md",
			"AB/four.md",
			expect.stringMatching(/^\(total 5 notes; showing 3-4\. More: cursor "/),
		]);
		const otherQuery = await tool.call({ folder: "A", cursor });
		expect(otherQuery.isError).toBe(true);
		expect(otherQuery.text).toBe(
			'list_notes: "cursor" belongs to a different query; repeat the same arguments with it, or omit it to start again',
		);
	});

	it("answers a folder with no visible notes as an error, a private folder included", async () => {
		expect(await tool.call({ folder: "Nowhere" })).toEqual({
			isError: true,
			text: 'list_notes: no notes under folder "Nowhere"',
			blocks: ['list_notes: no notes under folder "Nowhere"'],
		});
		expect((await tool.call({ folder: "Private" })).text).toBe('list_notes: no notes under folder "Private"');
	});

	it("refuses a limit out of range", async () => {
		expect(await tool.call({ limit: 0 })).toMatchObject({
			isError: true,
			text: 'list_notes: "limit" must be a whole number from 1 to 100, not 0',
		});
	});
});
