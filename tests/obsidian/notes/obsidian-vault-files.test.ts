import type { App as RealApp, CachedMetadata } from "obsidian";
import { TAGS_NOT_KNOWN } from "../../../src/vault/privacy/privacy";
import { ObsidianVaultFiles } from "../../../src/obsidian/notes/obsidian-vault-files";
import { App, type MetadataCache } from "../../__mocks__/obsidian";
import { parseNoteForCache } from "../harness/metadata-parser";
import { FIXTURE_TIMEOUT_MS } from "../../helpers/fixture-timeout";

/** The harness parser, plus inline #tags (which it does not read), so both kinds of tags reach `getAllTags`. */
function parseWithTags(text: string): CachedMetadata {
	const cache = parseNoteForCache(text);
	const at = { line: 0, col: 0, offset: 0 };
	const tags = [...text.matchAll(/(?:^|\s)(#[\p{L}\p{N}_/-]+)/gu)].map((match) => ({
		tag: match[1] ?? "",
		position: { start: at, end: at },
	}));
	return tags.length > 0 ? { ...cache, tags } : cache;
}

describe("ObsidianVaultFiles", () => {
	let app: App;
	let files: ObsidianVaultFiles;

	beforeEach(async () => {
		app = new App("/vault", "Vault");
		for (const [path, text] of [
			["Notes/a.md", "# A\n"],
			["Notes/ünïcode 📝.md", "héllo"],
			["Tagged/front.md", "---\ntags: [secret, work]\n---\nbody\n"],
			["Tagged/inline.md", "text #Secret/health and #idea\n"],
			["Images/pixel.png", "PNG"],
		])
			app.vault.contents.set(path, text);
		// The fake's Vault is the vault the fake cache indexes; its `on` is typed more loosely than `attach` asks.
		app.metadataCache.attach(app.vault as unknown as Parameters<MetadataCache["attach"]>[0], parseWithTags);
		await app.metadataCache.parsePending();
		files = new ObsidianVaultFiles(app as unknown as RealApp);
	}, FIXTURE_TIMEOUT_MS);

	it("lists every file from Obsidian's index, with its size in bytes", () => {
		expect(files.list().sort((x, y) => x.path.localeCompare(y.path))).toEqual([
			{ path: "Images/pixel.png", size: 3 },
			{ path: "Notes/a.md", size: 4 },
			{ path: "Notes/ünïcode 📝.md", size: Buffer.byteLength("héllo") },
			{ path: "Tagged/front.md", size: Buffer.byteLength("---\ntags: [secret, work]\n---\nbody\n") },
			{ path: "Tagged/inline.md", size: Buffer.byteLength("text #Secret/health and #idea\n") },
		]);
	});

	it("answers a file's size, and undefined for a missing file", async () => {
		expect(await files.stat("Notes/a.md")).toEqual({ size: 4 });
		expect(await files.stat("Notes/missing.md")).toBeUndefined();
	});

	it("normalises paths before looking them up (Obsidian's lookups take normalised paths only)", async () => {
		expect(await files.stat("/Notes//a.md")).toEqual({ size: 4 });
		expect(Buffer.from(await files.readBytes("Notes\\a.md")).toString("utf8")).toBe("# A\n");
		expect(files.tagsOf("/Tagged//front.md")).toEqual(["#secret", "#work"]);
	});

	it("reads a file's bytes, and refuses a missing one", async () => {
		expect(Buffer.from(await files.readBytes("Notes/ünïcode 📝.md")).toString("utf8")).toBe("héllo");
		expect(Buffer.from(await files.readBytes("Images/pixel.png")).toString("utf8")).toBe("PNG");
		await expect(files.readBytes("Notes/missing.md")).rejects.toThrow("Not found: Notes/missing.md");
	});

	it("reads tags from the metadata cache: frontmatter and inline, nested ones as written", () => {
		expect(files.tagsOf("Tagged/front.md")).toEqual(["#secret", "#work"]);
		expect(files.tagsOf("Tagged/inline.md")).toEqual(["#Secret/health", "#idea"]);
		expect(files.tagsOf("Notes/a.md")).toEqual([]);
	});

	it("answers TAGS_NOT_KNOWN for a note the cache has not parsed yet or Obsidian does not know, so privacy counts it as private", async () => {
		expect(files.tagsOf("Notes/missing.md")).toBe(TAGS_NOT_KNOWN);
		await app.vault.create("Notes/synced.md", "#secret\n");
		expect(files.tagsOf("Notes/synced.md")).toBe(TAGS_NOT_KNOWN);
		await app.metadataCache.parsePending();
		expect(files.tagsOf("Notes/synced.md")).toEqual(["#secret"]);
	});

	it("has no tags for a file that is not a note, known or not", () => {
		expect(files.tagsOf("Images/pixel.png")).toEqual([]);
		expect(files.tagsOf("Images/pixel.png")).not.toBe(TAGS_NOT_KNOWN);
		expect(files.tagsOf("Images/missing.png")).not.toBe(TAGS_NOT_KNOWN);
	});
});
