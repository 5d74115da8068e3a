import { ObsidianDiagnosticsNotes } from "../../../src/obsidian/notes/obsidian-diagnostics-notes";
import { ObsidianNoteStore } from "../../../src/obsidian/notes/obsidian-note-store";
import { obsidianYamlCodec } from "../../../src/obsidian/notes/obsidian-yaml-codec";
import { ObsidianVaultIndex } from "../../../src/obsidian/vault-tools/obsidian-vault-index";
import { noteTags } from "../../../src/vault/markdown/note-tags";
import { TAGS_NOT_KNOWN } from "../../../src/vault/privacy/privacy";
import { App, type MetadataCache } from "../../__mocks__/obsidian";
import { parseWithTags } from "../harness/metadata-parser";
import { createIndexedApp, vaultIndexPorts } from "../harness/indexed-app";
import { FIXTURE_TIMEOUT_MS } from "../../helpers/fixture-timeout";

/** The one store both Obsidian readers share: what one of them learns of a note, the other sees. */
describe("ObsidianNoteStore shared by the diagnostics and the vault tools", () => {
	let app: App;
	let store: ObsidianNoteStore;
	let index: ObsidianVaultIndex;
	let diagnostics: ObsidianDiagnosticsNotes;
	beforeEach(async () => {
		app = await createIndexedApp({
			"Props.md": "---\nrelated: '[[Target]]'\n---\nBody\n",
			"Target.md": "# Target\n",
		});
		const ports = vaultIndexPorts(app);
		store = new ObsidianNoteStore(ports.vault, ports.metadataCache, { yaml: obsidianYamlCodec });
		index = new ObsidianVaultIndex({ ...ports, store });
		diagnostics = new ObsidianDiagnosticsNotes({
			vault: ports.vault as unknown as ConstructorParameters<typeof ObsidianDiagnosticsNotes>[0]["vault"],
			metadataCache: ports.metadataCache,
			yaml: obsidianYamlCodec,
			store,
		});
		store.load();
		index.load();
		diagnostics.load();
	}, FIXTURE_TIMEOUT_MS);
	afterEach(() => {
		diagnostics?.unload();
		index?.unload();
		store?.unload();
	});

	it("subscribes to Obsidian once for both readers", () => {
		expect(app.metadataCache.listenerCount("changed")).toBe(1);
	});

	it("reads a note's frontmatter once for both: the problem for the diagnostics, the detail for the tools", async () => {
		await index.refresh();
		const reading = store.indexedReading("Props.md");
		expect(reading?.problem).toBeNull();
		expect(reading?.detail()?.links.map((link) => link.linkpath)).toEqual(["Target"]);
		expect(index.facts("Props.md")?.links.map((link) => link.target)).toEqual(["Target.md"]);
		expect((await index.backlinks("Target.md")).map((backlink) => backlink.source)).toEqual(["Props.md"]);
	});

	it("serves a note read from its text by one reader to the other until Obsidian parses it", async () => {
		app.vault.writeExternally("Target.md", "# Changed on disk\n");
		await index.refresh();
		expect(store.unindexedRead("Target.md")?.text).toBe("# Changed on disk\n");
		expect(diagnostics.facts("Target.md")?.headings.map((heading) => heading.text)).toEqual(["Changed on disk"]);
		await app.metadataCache.parsePending();
		expect(store.unindexedRead("Target.md")).toBeUndefined();
		expect(index.facts("Target.md")?.headings.map((heading) => heading.text)).toEqual(["Changed on disk"]);
	});
});

/** Lets the store's queued text reads finish. */
async function settle(): Promise<void> {
	for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
}

describe("ObsidianNoteStore.tagsOf, the one tag reader privacy relies on", () => {
	const NOTES: Record<string, string> = {
		"Notes/a.md": "# A\n",
		"Tagged/front.md": "---\ntags: [secret, work]\n---\nbody\n",
		"Tagged/inline.md": "text #Secret/health and #idea\n",
		"Tagged/emoji.md": "done #📝private\n",
		"Images/pixel.png": "PNG",
	};
	let app: App;
	let store: ObsidianNoteStore;

	beforeEach(async () => {
		app = new App("/vault", "Vault");
		for (const [path, text] of Object.entries(NOTES)) app.vault.contents.set(path, text);
		app.metadataCache.attach(app.vault as unknown as Parameters<MetadataCache["attach"]>[0], parseWithTags);
		await app.metadataCache.parsePending();
		store = new ObsidianNoteStore(app.vault as never, app.metadataCache as never, { yaml: obsidianYamlCodec });
		store.load();
	}, FIXTURE_TIMEOUT_MS);
	afterEach(() => store?.unload());

	it("answers noteTags of the text Obsidian indexed: a note reads the same listed as when it is written", async () => {
		for (const path of ["Tagged/front.md", "Tagged/inline.md", "Tagged/emoji.md", "Notes/a.md"]) store.tagsOf(path);
		await settle();
		for (const path of ["Tagged/front.md", "Tagged/inline.md", "Tagged/emoji.md", "Notes/a.md"])
			expect(store.tagsOf(path)).toEqual(noteTags(NOTES[path] ?? "", obsidianYamlCodec));
		expect(store.tagsOf("Tagged/emoji.md")).toEqual(["📝private"]);
	});

	it("has Obsidian's reading of the same version stand in until that text is read, which it asks for at once", async () => {
		expect(store.tagsOf("Tagged/front.md")).toEqual(["secret", "work"]);
		expect(store.tagsOf("Tagged/inline.md")).toEqual(["Secret/health", "idea"]);
		await settle();
		expect(store.indexedReading("Tagged/front.md")?.tags).toEqual(["secret", "work"]);
	});

	it("reads a changed note's tags from the text Obsidian parsed, with no read of its own", async () => {
		await app.vault.modify(app.vault.getFileByPath("Notes/a.md") as never, "now #secret\n");
		await app.metadataCache.parsePending();
		expect(store.tagsOf("Notes/a.md")).toEqual(["secret"]);
	});

	it("normalises paths before looking them up (Obsidian's lookups take normalised paths only)", async () => {
		store.tagsOf("Tagged/front.md");
		await settle();
		expect(store.tagsOf("/Tagged//front.md")).toEqual(["secret", "work"]);
	});

	it("answers TAGS_NOT_KNOWN for a note the cache has not parsed yet or Obsidian does not know, so privacy counts it as private", async () => {
		expect(store.tagsOf("Notes/missing.md")).toBe(TAGS_NOT_KNOWN);
		await app.vault.create("Notes/synced.md", "#secret\n");
		expect(store.tagsOf("Notes/synced.md")).toBe(TAGS_NOT_KNOWN);
		await app.metadataCache.parsePending();
		expect(store.tagsOf("Notes/synced.md")).toEqual(["secret"]);
	});

	it("has no tags for a file that is not a note, known or not", () => {
		expect(store.tagsOf("Images/pixel.png")).toEqual([]);
		expect(store.tagsOf("Images/pixel.png")).not.toBe(TAGS_NOT_KNOWN);
		expect(store.tagsOf("Images/missing.png")).not.toBe(TAGS_NOT_KNOWN);
	});
});
