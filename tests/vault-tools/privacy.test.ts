import { readFileSync } from "node:fs";
import { join } from "node:path";
import { noteTags } from "../../src/vault/markdown/note-tags";
import { CAUTIOUS_ROWS, TAG_ROWS } from "../security/tag-table";
import { makeVault, type VaultFixture } from "./vault-fixture";
import { libraryYamlCodec } from "../../src/vault/folder/yaml-library-codec";

/**
 * A private note must not exist for any tool: every answer is what it would be if the note were not in the vault.
 * The same vault is served twice, once with the private notes and once without them, and the answers compared.
 */
const PUBLIC: Record<string, string> = {
	"Public/Hub.md":
		"---\ntags: [shared]\nstatus: open\n---\n# Hub\n\nLinks [[Diary]], [[Plans]] and [[Open]]. Keyword apple.\n",
	"Public/Open.md": "# Open\n\nKeyword apple here too. #shared\n",
};
const PRIVATE: Record<string, string> = {
	"Private/Diary.md":
		"---\ntags: [shared, diarytag]\nmood: calm\n---\n# Diary\n\nKeyword apple, links [[Hub]] and [[Open]]. #privatetag\n",
	"Elsewhere/Plans.md":
		"---\ntags: [secret]\nstatus: open\n---\n# Plans\n\nKeyword apple in a secret note, links [[Hub]].\n",
};

describe("privacy at the port", () => {
	let withPrivate: VaultFixture;
	let without: VaultFixture;
	beforeAll(() => {
		withPrivate = makeVault(
			{ ...PUBLIC, ...PRIVATE },
			{
				isPrivate: (path) => {
					if (path.startsWith("Private/")) return true;
					try {
						return /tags: \[[^\]]*\bsecret\b/.test(readFileSync(join(withPrivate.root, path), "utf8"));
					} catch {
						return false;
					}
				},
			},
		);
		without = makeVault(PUBLIC);
	});
	afterAll(() => {
		withPrivate?.dispose();
		without?.dispose();
	});

	const calls: [string, Record<string, unknown>][] = [
		["search", { query: "apple" }],
		["search", { query: "secret" }],
		["search", { query: "#privatetag", mode: "tag" }],
		["search", { query: "#shared", mode: "tag" }],
		["search", { query: "status: open", mode: "property" }],
		["search", { query: "mood", mode: "property" }],
		["search", { query: "diary", mode: "path" }],
		["search", { query: "apple", mode: "regex" }],
		["read_note", { path: "Private/Diary.md" }],
		["read_note", { path: "Diary" }],
		["read_note", { path: "Plans" }],
		["outline", { path: "Elsewhere/Plans.md" }],
		["links", { path: "Hub" }],
		["links", { path: "Open", direction: "in" }],
		["links", { path: "Hub", unresolved: true }],
		["tags", {}],
		["tags", { prefix: "diary" }],
		["properties", {}],
		["properties", { key: "status" }],
		["properties", { key: "mood" }],
		["list_notes", {}],
		["list_notes", { folder: "Private" }],
		["edit_note", { path: "Diary", edits: [{ target: "Diary", op: "append", content: "x" }] }],
		["set_properties", { path: "Plans", set: { a: 1 } }],
		["move_note", { path: "Private/Diary.md", to: "Public/Diary.md" }],
	];

	it.each(calls)("%s %j answers as if the private notes did not exist", async (name, args) => {
		const answer = await withPrivate.call(name, args);
		const reference = await without.call(name, args);
		expect(answer).toEqual(reference);
		// Nothing of the private notes beyond what the question itself said.
		const asked = Object.values(args).filter((value): value is string => typeof value === "string");
		const rest = asked.reduce((text, value) => text.split(value).join(""), answer.text);
		expect(rest).not.toMatch(/Diary\.md|Plans\.md|privatetag|diarytag|mood|calm|secret note/);
	});

	it("watching, a first session's tags (each note glanced at, no stamp) count no private note", async () => {
		const watched = makeVault(
			{ ...PUBLIC, ...PRIVATE },
			{
				watch: true,
				// A folder rule and a tag rule (Plans has the tag `secret`), read from the file as the fixture above does.
				isPrivate: (path) =>
					path.startsWith("Private/") ||
					/tags: \[[^\]]*\bsecret\b/.test(readFileSync(join(watched.root, path), "utf8")),
			},
		);
		try {
			for (const [name, args] of [
				["tags", {}],
				["tags", { prefix: "diary" }],
				["search", { query: "#shared", mode: "tag" }],
			] as const) {
				expect(await watched.call(name, args)).toEqual(await without.call(name, args));
			}
			expect(watched.index.glancedNotes).toBe(2);
		} finally {
			watched.dispose();
		}
	});

	it("leaves the private notes untouched", () => {
		expect(withPrivate.read("Private/Diary.md")).toBe(PRIVATE["Private/Diary.md"]);
		expect(withPrivate.read("Elsewhere/Plans.md")).toBe(PRIVATE["Elsewhere/Plans.md"]);
	});

	it("refuses to create a note in a private folder", async () => {
		const answer = await withPrivate.call("create_note", { path: "Private/New.md", content: "x" });
		expect(answer.isError).toBe(true);
		expect(answer.text).toMatch(/not available to vault tools/);
	});

	it("reads a note's tags for tag rules from the folder adapter's one tag reader (frontmatter and inline)", () => {
		expect(withPrivate.folder.tagsOf("Private/Diary.md")).toEqual(["shared", "diarytag", "privatetag"]);
		expect(withPrivate.folder.tagsOf("Nowhere.md")).toEqual([]);
	});

	it("reads tags for privacy exactly as the IDE tools' reader does, comments and byte order marks included", async () => {
		const rows = [...TAG_ROWS, ...CAUTIOUS_ROWS];
		const vault = makeVault(Object.fromEntries(rows.map((row, index) => [`Row ${index}.md`, row.text])));
		try {
			await vault.index.refresh();
			for (const [index, row] of rows.entries())
				expect([row.behaviour, vault.folder.tagsOf(`Row ${index}.md`)]).toEqual([
					row.behaviour,
					noteTags(row.text, libraryYamlCodec),
				]);
		} finally {
			vault.dispose();
		}
	});

	it("hides the active note when it is private", async () => {
		const vault = makeVault(
			{ ...PUBLIC, ...PRIVATE },
			{
				isPrivate: (path) => path.startsWith("Private/"),
				activeNote: { current: () => ({ path: "Private/Diary.md" }) },
			},
		);
		try {
			expect((await vault.call("active_note", {})).text).toBe("No note is open.");
		} finally {
			vault.dispose();
		}
	});
});
