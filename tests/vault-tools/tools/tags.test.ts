import { createTagsTool } from "../../../src/vault-tools/tools/tags";
import { toolOver } from "./vault-tool-env";

const tool = toolOver(
	createTagsTool,
	{
		"a.md": "---\ntags: [Project]\n---\n#project again and #idea\n",
		"b.md": "#project/alpha #PROJECT\n",
		"c.md": "#idea #zeta\n",
		"Private/p.md": "#secret #project\n",
	},
	{ isPrivate: (path) => path.startsWith("Private/") },
);
afterAll(() => tool.dispose());

describe("tags", () => {
	it("counts notes per tag without case, first spelling shown, most used first then by name", async () => {
		expect((await tool.call({})).text.split("\n")).toEqual([
			"tag notes",
			"#idea 2",
			"#Project 2",
			"#project/alpha 1",
			"#zeta 1",
			"(total 4 tags; showing 1-4)",
		]);
	});

	it("filters by prefix, with or without #, nested tags included", async () => {
		expect((await tool.call({ prefix: "#proj" })).text.split("\n")).toEqual([
			"tag notes",
			"#Project 2",
			"#project/alpha 1",
			"(total 2 tags; showing 1-2)",
		]);
		expect((await tool.call({ prefix: "nothing" })).text).toBe("No tags starting with #nothing.");
	});

	it("lists one note's tags with their lines, marking the frontmatter's", async () => {
		expect((await tool.call({ path: "a" })).text.split("\n")).toEqual([
			"a.md:",
			"#Project (line 2, frontmatter)",
			"#project (line 4)",
			"#idea (line 4)",
			"(total 3 tags; showing 1-3)",
		]);
	});

	it("never counts or lists a private note's tags, and answers it as missing", async () => {
		expect((await tool.call({ prefix: "secret" })).text).toBe("No tags starting with #secret.");
		const privateNote = await tool.call({ path: "Private/p.md" });
		const missing = await tool.call({ path: "Private/none.md" });
		expect(privateNote.isError).toBe(true);
		expect(privateNote.text).toBe(missing.text.replace("none", "p"));
	});

	it("refuses a wrongly typed prefix", async () => {
		expect(await tool.call({ prefix: 3 })).toMatchObject({
			isError: true,
			text: 'tags: "prefix" must be a string, not a number',
		});
	});
});
