import type { App as RealApp } from "obsidian";
import { ObsidianVaultFiles } from "../../../src/obsidian/notes/obsidian-vault-files";
import { App, type MetadataCache } from "../../__mocks__/obsidian";
import { parseNoteForCache } from "../harness/metadata-parser";
import { FIXTURE_TIMEOUT_MS } from "../../helpers/fixture-timeout";

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
		app.metadataCache.attach(app.vault as unknown as Parameters<MetadataCache["attach"]>[0], parseNoteForCache);
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
	});

	it("reads a file's bytes, and refuses a missing one", async () => {
		expect(Buffer.from(await files.readBytes("Notes/ünïcode 📝.md")).toString("utf8")).toBe("héllo");
		expect(Buffer.from(await files.readBytes("Images/pixel.png")).toString("utf8")).toBe("PNG");
		await expect(files.readBytes("Notes/missing.md")).rejects.toThrow("Not found: Notes/missing.md");
	});
});
