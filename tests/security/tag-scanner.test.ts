import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { noteTags } from "../../src/vault/markdown/note-tags";
import { getAllTags } from "../__mocks__/obsidian";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import type { TestClient } from "../helpers/test-client";
import { parseNoteForCache } from "../obsidian/harness/metadata-parser";
import { CAUTIOUS_ROWS, TAG_ROWS as ROWS } from "./tag-table";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";
import { libraryYamlCodec } from "../../src/vault/folder/yaml-library-codec";

/**
 * Finding 4 of issue 11: a note that is private in Obsidian (it carries a private tag) must be private headless
 * too. One table, read by the headless tag reader (`noteTags`, what `FolderVault.tagsOf` answers) and by the
 * fake metadata cache (tests/obsidian/harness, what the Obsidian side's `getAllTags` sees): both must find the
 * tags Obsidian finds. Then the same notes in a vault served by the headless host, attacked over the wire.
 */
const lower = (tags: string[]): string[] => tags.map((tag) => tag.replace(/^#/, "").toLowerCase());

describe("tag reading: the headless reader and the fake metadata cache find what Obsidian finds", () => {
	it.each(ROWS)("headless: $behaviour", ({ text, tags }) => {
		expect(lower(noteTags(text, libraryYamlCodec)).sort()).toEqual([...tags].sort());
	});

	it.each(ROWS)("fake metadata cache (getAllTags): $behaviour", ({ text, tags }) => {
		expect(lower(getAllTags(parseNoteForCache(text))).sort()).toEqual([...tags].sort());
	});

	// Where Obsidian's reading is uncertain or the YAML is broken, the headless reader errs towards private.
	it.each(CAUTIOUS_ROWS)("headless counts $behaviour", ({ text }) => {
		expect(lower(noteTags(text, libraryYamlCodec))).toContain("private");
	});

	it("headless reads a tag that starts with an emoji, which Obsidian allows", () => {
		expect(noteTags("Filed #🔒secret here\n", libraryYamlCodec)).toContain("🔒secret");
	});
});

describe("the headless host serves none of the privately tagged notes", () => {
	let fixture: AssembledBridge;
	let client: TestClient;
	const notes = ROWS.filter((row) => row.tags.includes("private")).map((row, index) => ({
		path: `Notes/private-${index}.md`,
		text: `${row.text}\nSECRET-TAGGED-${index}\n`,
		behaviour: row.behaviour,
	}));

	beforeAll(async () => {
		fixture = await startAssembledBridge({
			privacy: { tags: ["#private"] },
			populate: (vault) => {
				writeFileSync(join(vault, "open.md"), "A public note.\n");
				mkdirSync(join(vault, "Notes"));
				for (const note of notes) writeFileSync(join(vault, note.path), note.text);
			},
		});
		client = await fixture.client();
	}, FIXTURE_TIMEOUT_MS);
	afterAll(() => fixture?.stop());

	it("resources/list lists the public note and none of the private ones", async () => {
		const listed: string[] = [];
		let cursor: string | undefined;
		do {
			const answer = await client.request("resources/list", cursor === undefined ? {} : { cursor });
			const result = answer.result as { resources: { uri: string }[]; nextCursor?: string };
			listed.push(...result.resources.map((resource) => resource.uri));
			cursor = result.nextCursor;
		} while (cursor !== undefined);
		expect(listed).toContain(pathToFileURL(join(fixture.vaultPath, "open.md")).href);
		expect(listed.filter((uri) => uri.includes("/Notes/"))).toEqual([]);
	});

	it.each(notes.map((note) => [note.behaviour, note] as const))(
		"files/read and resources/read refuse the note: %s",
		async (_behaviour, note) => {
			const absolute = join(fixture.vaultPath, ...note.path.split("/"));
			const answers = [
				await client.request("files/read", { path: note.path }),
				await client.request("resources/read", { uri: pathToFileURL(absolute).href }),
			];
			for (const answer of answers) {
				expect(JSON.stringify(answer)).not.toContain("SECRET-TAGGED");
				expect(answer.error).toBeDefined();
			}
		},
	);
});

describe("the headless host's tag cache follows edits", () => {
	let fixture: AssembledBridge;
	let client: TestClient;

	beforeAll(async () => {
		fixture = await startAssembledBridge({
			privacy: { tags: ["private"] },
			populate: (vault) => writeFileSync(join(vault, "later.md"), "Filed under #publics for now. SECRET-LATER\n"),
		});
		client = await fixture.client();
	}, FIXTURE_TIMEOUT_MS);
	afterAll(() => fixture?.stop());

	it("a note whose extension is in capitals (Note.MD) is read for tags too", async () => {
		writeFileSync(join(fixture.vaultPath, "Upper.MD"), "#private SECRET-UPPER\n");
		const answer = await client.request("files/read", { path: "Upper.MD" });
		expect(answer.error).toBeDefined();
		expect(JSON.stringify(answer)).not.toContain("SECRET-UPPER");
	});

	it("a note tagged private after it was read (same size) is refused at once", async () => {
		const before = await client.request("files/read", { path: "later.md" });
		expect(JSON.stringify(before.result)).toContain("SECRET-LATER");
		writeFileSync(join(fixture.vaultPath, "later.md"), "Filed under #private for now. SECRET-LATER\n");
		const after = await client.request("files/read", { path: "later.md" });
		expect(after.error).toBeDefined();
		expect(JSON.stringify(after)).not.toContain("SECRET-LATER");
	});
});
