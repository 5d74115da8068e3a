import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createVaultTools } from "../../../src/vault-tools/create-vault-tools";
import { FolderVault } from "../../../src/vault/folder/folder-vault";
import type { VaultIndex } from "../../../src/vault/notes/vault-index";
import { VisibleVault } from "../../../src/vault/privacy/visible-vault";
import { VaultPaths } from "../../../src/vault/vault-paths";
import { makeTempDir } from "../../helpers/temp-dir";
import { createSearchTool, readFolder } from "../../../src/vault-tools/tools/search";
import { toolOver } from "./vault-tool-env";
import { snippet } from "../../../src/vault-tools/kit/tool-kit";
import { makeVault } from "../vault-fixture";
import { libraryYamlCodec } from "../../../src/vault/folder/yaml-library-codec";

const tool = toolOver(
	createSearchTool,
	{
		"Garden.md":
			"---\ntags: [plants]\nstatus: Active\ndue: 2026-05-01\n---\n# Garden\nRed tomato seeds\n## Beds\ntomato beds and seeds\nno match here\n",
		"Notes/Kitchen.md": "# Kitchen\nseeds are in the tomato jar #plants/veg\n",
		"Notes/Tomato.md": "A tomato.\n",
		"Private/Secret.md": "tomato seeds secret #plants\n",
	},
	{ isPrivate: (path) => path.startsWith("Private/") },
);
afterAll(() => tool.dispose());

const lines = async (args: Record<string, unknown>): Promise<string[]> =>
	(await tool.call(args as never)).text.split("\n");

describe("search", () => {
	it("text: every word on one line, the exact phrase first, each with its line and the heading it is under", async () => {
		expect(await lines({ query: "tomato seeds" })).toEqual([
			'Garden.md:7: Red tomato seeds  [under "Garden"]',
			'Garden.md:9: tomato beds and seeds  [under "Garden > Beds"]',
			'Notes/Kitchen.md:2: seeds are in the tomato jar #plants/veg  [under "Kitchen"]',
			"(total 3 matches; showing 1-3)",
		]);
	});

	it("text: ranks a note whose path holds the phrase above others, case-insensitively", async () => {
		expect((await lines({ query: "TOMATO" }))[0]).toBe("Notes/Tomato.md:1: A tomato.");
	});

	it("regex: /pattern/flags, one hit per line; an invalid pattern is an error", async () => {
		expect(await lines({ query: "/^tomato \\w+/", mode: "regex" })).toEqual([
			'Garden.md:9: tomato beds and seeds  [under "Garden > Beds"]',
			"(total 1 matches; showing 1-1)",
		]);
		expect((await tool.call({ query: "/(/", mode: "regex" })).text).toMatch(
			/^search: "query" is not a valid regular expression: /,
		);
	});

	it("tag: the tag and its nested tags, never a tag that only starts the same", async () => {
		expect(await lines({ query: "#plants", mode: "tag" })).toEqual([
			"Garden.md:2: tags: [plants]",
			'Notes/Kitchen.md:2: seeds are in the tomato jar #plants/veg  [under "Kitchen"]',
			"(total 2 matches; showing 1-2)",
		]);
		expect((await tool.call({ query: "#plant", mode: "tag" })).text).toBe('No matches for "#plant" (mode tag).');
	});

	it("property: a key, or key: value matched whole and without case, dates by their day", async () => {
		expect(await lines({ query: "Status", mode: "property" })).toEqual([
			"Garden.md:3: status: Active",
			"(total 1 matches; showing 1-1)",
		]);
		expect((await lines({ query: "status=active", mode: "property" }))[0]).toBe("Garden.md:3: status: Active");
		expect((await tool.call({ query: "status: act", mode: "property" })).text).toBe(
			'No matches for "status: act" (mode property).',
		);
		expect((await lines({ query: "due: 2026-05-01", mode: "property" }))[0]).toBe("Garden.md:4: due: 2026-05-01");
	});

	it("path: the exact name first, then names that start with it, then anywhere in the path", async () => {
		expect(await lines({ query: "tomato", mode: "path" })).toEqual([
			"Notes/Tomato.md",
			"(total 1 notes; showing 1-1)",
		]);
		expect(await lines({ query: "notes", mode: "path" })).toEqual([
			"Notes/Tomato.md",
			"Notes/Kitchen.md",
			"(total 2 notes; showing 1-2)",
		]);
	});

	it("searches under a folder, and never finds private notes", async () => {
		expect((await lines({ query: "tomato", folder: "Notes/" })).slice(-1)).toEqual([
			"(total 2 matches; showing 1-2)",
		]);
		expect((await tool.call({ query: "secret" })).text).toBe('No matches for "secret" (mode text).');
		expect((await tool.call({ query: "tomato", folder: "Private" })).text).toBe(
			'search: no notes under folder "Private"; use list_notes to see the folders',
		);
	});

	it("answers bad arguments as errors", async () => {
		expect((await tool.call({ query: " " })).text).toBe('search: "query" is required and must be non-empty text');
		expect((await tool.call({ query: "x", mode: "fuzzy" })).text).toBe(
			'search: "mode" must be one of text, regex, tag, property, path, not "fuzzy"',
		);
		expect((await tool.call({ query: "#", mode: "tag" })).text).toBe(
			'search: "query" must name a tag, e.g. "#project"',
		);
	});
});

describe("readFolder", () => {
	it("normalises a folder argument and refuses one that climbs out", () => {
		expect(readFolder(undefined)).toBe("");
		expect(readFolder(" ./Notes/Sub/ ")).toBe("Notes/Sub");
		expect(readFolder("Notes\\Sub")).toBe("Notes/Sub");
		expect(() => readFolder("Notes/../..")).toThrow('"folder" must be inside the vault: Notes/../..');
		expect(() => readFolder(3)).toThrow('"folder" must be a vault folder path, not 3');
	});
});

/**
 * Text search scans each note's lower-cased UTF-8 copy and places a hit on its line only when it is shown: lines
 * end at `\r\n`, `\n` or `\r`, and the place on the line is counted in UTF-16 characters whatever comes before it
 * (accents, emoji, the one-to-two `İ`).
 */
const LONG_PREFIX = `${"😀 é İ ".repeat(40)}`;
const LONG_LINE = `${LONG_PREFIX}the Zebra crossing ${"and more words ".repeat(20)}`;
/** "crossing" first and "zebra" (the rarer letter, so the word searched for) far to its right. */
const FAR_APART = `A crossing ${"with filler words ".repeat(15)}then a zebra, and a crossing again`;

describe("search (text mode) over notes of any script and line end", () => {
	const vault = makeVault({
		"Crlf.md": "first\r\nsecond line with zebra\r\nthird zebra\r\n",
		"Lone cr.md": "one\rtwo zebra\rthree",
		"Long.md": `# Long\n\n${LONG_LINE}\n`,
		"Two words.md": "zebra alone\ncrossing alone\nzebra crossing together\n",
		"Far apart.md": `${FAR_APART}\n`,
	});
	afterAll(() => vault.dispose());

	it("names the line of each hit", async () => {
		const answer = (await vault.call("search", { query: "zebra" })).text;
		expect(answer).toContain("Crlf.md:2: second line with zebra");
		expect(answer).toContain("Crlf.md:3: third zebra");
		expect(answer).toContain("Lone cr.md:2: two zebra");
		expect(answer).toContain("Two words.md:1: zebra alone");
	});

	it("cuts a long line's snippet around the hit, counted in UTF-16 characters", async () => {
		const answer = (await vault.call("search", { query: "zebra crossing" })).text;
		const expected = snippet(LONG_LINE, LONG_LINE.indexOf("Zebra crossing"));
		expect(expected.startsWith("…")).toBe(true);
		expect(answer).toContain(`Long.md:3: ${expected}  [under "Long"]`);
		// Both words on one line, the phrase ranked first; a line with one of them is no hit.
		expect(answer.indexOf("Two words.md:3: zebra crossing together")).toBeGreaterThanOrEqual(0);
		expect(answer).not.toContain("Two words.md:1:");
		expect(answer).not.toContain("Two words.md:2:");
	});

	it("places a hit without the phrase where the longest word first is on its line, whichever word is looked for", async () => {
		const answer = (await vault.call("search", { query: "crossing zebra" })).text;
		const atCrossing = snippet(FAR_APART, FAR_APART.indexOf("crossing"));
		expect(atCrossing).not.toBe(snippet(FAR_APART, FAR_APART.indexOf("zebra")));
		expect(answer).toContain(`Far apart.md:1: ${atCrossing}`);
		expect(answer).toContain("Two words.md:3: zebra crossing together");
		expect(answer).not.toContain("Two words.md:1:");
	});
});

describe("search over a note made private by the version the search reads", () => {
	it.each(["note by note", "for the whole list at once"])(
		"counts no match in a note whose search text, read during the search (%s), makes it private",
		async (how) => {
			const temp = makeTempDir("search-private-now");
			const folder = new FolderVault({ root: temp.path, watch: false });
			try {
				writeFileSync(join(temp.path, "Note.md"), "zebra here\n");
				writeFileSync(join(temp.path, "Other.md"), "zebra too\n");
				const privateNow = new Set<string>();
				const index = folder.index;
				// The index reads a newer version of Note.md while searching, one tagged private: as when the watcher has
				// not yet reported the change and the note's search text was not made before.
				const reading: VaultIndex = Object.assign(Object.create(index) as VaultIndex, {
					searchText: (path: string) => {
						if (path === "Note.md") privateNow.add(path);
						return index.searchText(path);
					},
					forEachSearchText:
						how === "note by note"
							? undefined
							: (paths: readonly string[], each: (position: number, text: Buffer) => void) => {
									if (paths.includes("Note.md")) privateNow.add("Note.md");
									index.forEachSearchText(paths, each);
								},
				});
				const vault = new VisibleVault({
					index: reading,
					paths: new VaultPaths(temp.path),
					isPrivate: (path) => privateNow.has(path),
				});
				const search = createVaultTools({ yaml: libraryYamlCodec, vault }).find(
					(tool) => tool.name === "search",
				);
				const answer = await search?.call(
					{ query: "zebra" },
					{ sessionId: 1, signal: new AbortController().signal },
				);
				const text = answer?.content.map((block) => block.text).join("\n");
				expect(text).toContain("Other.md:1: zebra too");
				expect(text).not.toContain("Note.md");
				expect(text).toContain("(total 1 matches");
			} finally {
				folder.dispose();
				temp.remove();
			}
		},
	);
});
