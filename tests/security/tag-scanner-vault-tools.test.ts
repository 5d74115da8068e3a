import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { factsFromText } from "../../src/vault/notes/note-facts";
import { makeTempDir } from "../helpers/temp-dir";
import { startStdioServer, type StdioServer } from "../vault-tools/stdio/stdio-server-process";
import { CAUTIOUS_ROWS, TAG_ROWS } from "./tag-table";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";
import { libraryYamlCodec } from "../../src/vault/folder/yaml-library-codec";

/**
 * Issue 11 finding 4, for the vault tools: their index's tags (`factsFromText`) decide privacy where the index is
 * the tag source (`claude-code-bridge mcp --vault` with no bridge running, `tagsFromIndex`). A note that is
 * private in Obsidian must be private there too, and so must a note the IDE tools' reader (`noteTags`) calls private.
 */
describe("the vault tools' index reads tags as Obsidian does", () => {
	it.each(TAG_ROWS)("$behaviour", ({ text, tags }) => {
		const found = factsFromText("n.md", text, libraryYamlCodec).tags.map((fact) => fact.tag.toLowerCase());
		for (const tag of tags) expect(found).toContain(tag);
	});
});

describe("mcp --vault (folder fallback) serves none of the privately tagged notes", () => {
	const temp = makeTempDir("stdio-tags");
	const vault = join(temp.path, "vault");
	const home = join(temp.path, "home");
	// Obsidian's own readings, and the ones where the project's reader errs private (comments, a byte order mark).
	const rows = [...TAG_ROWS.filter((row) => row.tags.includes("private")), ...CAUTIOUS_ROWS];
	const notes = rows.map((row, index) => ({
		path: `Notes/private-${index}.md`,
		text: `${row.text}\nSECRET-STDIO-${index}\n`,
		behaviour: row.behaviour,
	}));
	let server: StdioServer;

	beforeAll(async () => {
		mkdirSync(home);
		const files: Record<string, string> = {
			"open.md": "A public note.\n",
			".obsidian-config/plugins/claude-code-bridge/data.json": JSON.stringify({
				enabled: true,
				privateFolders: [],
				privateTags: ["#private"],
			}),
		};
		for (const note of notes) files[note.path] = note.text;
		for (const [path, text] of Object.entries(files)) {
			mkdirSync(dirname(join(vault, path)), { recursive: true });
			writeFileSync(join(vault, path), text);
		}
		server = await startStdioServer(vault, home);
	}, FIXTURE_TIMEOUT_MS);
	afterAll(async () => {
		await server?.close();
		temp.remove();
	});

	it("search finds none of their text, list_notes lists none of them", async () => {
		// The answer repeats the query; a note's line would carry its number.
		expect((await server.call("search", { query: "SECRET-STDIO" })).text).not.toMatch(/SECRET-STDIO-\d/);
		expect((await server.call("list_notes", {})).text).not.toContain("Notes/private-");
	});

	it.each(notes.map((note) => [note.behaviour, note] as const))("read_note refuses: %s", async (_behaviour, note) => {
		const answer = await server.call("read_note", { path: note.path });
		expect(answer.text).not.toMatch(/SECRET-STDIO-\d/);
		expect(answer.isError).toBe(true);
	});
});
