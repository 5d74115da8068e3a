import { createReadNoteTool } from "../../../src/vault-tools/tools/read-note";
import { noteVersion } from "../../../src/vault/notes/note-version";
import { toolOver } from "./vault-tool-env";

const NOTE = "---\ntitle: T\n---\n# Top\nintro\n## Part\npart text\n### Deep\ndeep text ^blk\n## Next\nnext\n";
const tool = toolOver(
	createReadNoteTool,
	{ "Folder/Note.md": NOTE, "Private/Secret.md": "secret\n" },
	{ isPrivate: (path) => path.startsWith("Private/") },
);
afterAll(() => tool.dispose());

describe("read_note", () => {
	it("answers a header with path, lines and version, then the exact text", async () => {
		expect((await tool.call({ path: "Note" })).blocks).toEqual([
			`Folder/Note.md | lines 1-12 | version ${noteVersion(NOTE)}`,
			NOTE,
		]);
	});

	it("reads a heading's section with everything under it, naming its lines", async () => {
		const answer = await tool.call({ path: "Folder/Note.md", section: "Top > Part" });
		expect(answer.blocks[1]).toBe("## Part\npart text\n### Deep\ndeep text ^blk\n");
		expect(answer.blocks[0]).toMatch(/^Folder\/Note\.md \| .*lines 6-9 of 12 \| version /);
	});

	it("reads a block and the frontmatter", async () => {
		expect((await tool.call({ path: "Note", section: "^blk" })).blocks[1]).toBe("deep text ^blk\n");
		expect((await tool.call({ path: "Note", section: "frontmatter" })).blocks[1]).toBe("---\ntitle: T\n---\n");
	});

	it("continues from an offset and says where the text ends", async () => {
		const small = toolOver(createReadNoteTool, { "Note.md": NOTE }, { textCap: 10 });
		try {
			const first = await small.call({ path: "Note" });
			expect(first.blocks[1]).toBe(NOTE.slice(0, 10));
			expect(first.blocks[0]).toMatch(
				new RegExp(`\\| characters 0-10 of ${NOTE.length}; continue with offset 10$`),
			);
			const last = await small.call({ path: "Note", offset: NOTE.length - 1 });
			expect(last.blocks).toEqual([
				expect.stringMatching(
					new RegExp(`\\| characters ${NOTE.length - 1}-${NOTE.length} of ${NOTE.length} \\(the end\\)$`),
				),
				"\n",
			]);
		} finally {
			small.dispose();
		}
	});

	it("answers bad sections and offsets as errors", async () => {
		expect((await tool.call({ path: "Note", section: " " })).text).toBe(
			'read_note: "section" must be a heading path like "Heading > Sub", "^blockid" or "frontmatter"',
		);
		expect((await tool.call({ path: "Note", section: "Missing" })).isError).toBe(true);
		expect((await tool.call({ path: "Note", offset: -1 })).text).toBe(
			'read_note: "offset" must be a whole number of 0 or more, not -1',
		);
		expect((await tool.call({ path: "Note", offset: 999 })).text).toBe(
			'read_note: "offset" 999 is past the end of the text (84 characters)',
		);
		expect(NOTE).toHaveLength(84);
	});

	it("answers a private note exactly as a missing one", async () => {
		const privateNote = await tool.call({ path: "Private/Secret.md" });
		const missing = await tool.call({ path: "Private/Missing.md" });
		expect(privateNote.isError).toBe(true);
		expect(privateNote.text).toBe(missing.text.replace("Missing", "Secret"));
	});
});
