import { createOutlineTool } from "../../../src/vault-tools/tools/outline";
import { noteVersion } from "../../../src/vault/notes/note-version";
import { toolOver } from "./vault-tool-env";

const NOTE =
	"---\ntitle: Plan\nstatus: draft\n---\n# Plan\nIntro words #work\n## Steps\n```\n# not a heading\n```\n### Detail\nA step. ^step1\n";
const tool = toolOver(createOutlineTool, { "Plan.md": NOTE, "Empty.md": "just text\n" });
afterAll(() => tool.dispose());

describe("outline", () => {
	it("gives counts, version, frontmatter keys, tags, headings with their paths and lines, and block ids", async () => {
		const lines = (await tool.call({ path: "Plan" })).text.split("\n");
		expect(lines[0]).toMatch(new RegExp(`^Plan\\.md \\| 13 lines, \\d+ words \\| version ${noteVersion(NOTE)}$`));
		expect(lines.slice(1)).toEqual([
			"frontmatter (lines 1-4): title, status",
			"tags: #work",
			"headings (line: level path):",
			"5: # Plan",
			"7: ## Plan > Steps",
			"11: ### Plan > Steps > Detail",
			"block ids: ^step1 (line 12)",
		]);
	});

	it("says when a note has no headings", async () => {
		expect((await tool.call({ path: "Empty.md" })).text.split("\n").slice(1)).toEqual(["headings: none"]);
	});

	it("cuts a long outline at the text cap and says so", async () => {
		const small = toolOver(createOutlineTool, { "Plan.md": NOTE }, { textCap: 40 });
		try {
			const answer = await small.call({ path: "Plan" });
			const [cut, note, ...rest] = answer.text.split("\n(outline cut: ");
			expect(rest).toEqual([]);
			const full = (await tool.call({ path: "Plan" })).text;
			expect(cut).toBe(full.slice(0, 40));
			expect(note).toBe(`characters 0-40 of ${full.length}; read sections with read_note)`);
		} finally {
			small.dispose();
		}
	});

	it("answers a missing path argument and a missing note as errors", async () => {
		expect((await tool.call({})).text).toBe(
			'outline: "path" is required: a vault path like "Folder/Note.md" or a note name like "Note"',
		);
		expect((await tool.call({ path: "Nope" })).isError).toBe(true);
	});
});
