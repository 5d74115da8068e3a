import { ObsidianDiagnosticsNotes } from "../../../src/obsidian/notes/obsidian-diagnostics-notes";
import { ObsidianNoteStore } from "../../../src/obsidian/notes/obsidian-note-store";
import { obsidianYamlCodec } from "../../../src/obsidian/notes/obsidian-yaml-codec";
import { ObsidianVaultIndex } from "../../../src/obsidian/vault-tools/obsidian-vault-index";
import type { App } from "../../__mocks__/obsidian";
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
		const reading = store.frontmatterOf("Props.md");
		expect(reading?.problem).toBeNull();
		expect(reading?.detail()?.links.map((link) => link.linkpath)).toEqual(["Target"]);
		expect(index.facts("Props.md")?.links.map((link) => link.target)).toEqual(["Target.md"]);
		expect((await index.backlinks("Target.md")).map((backlink) => backlink.source)).toEqual(["Props.md"]);
	});

	it("serves a note read from its text by one reader to the other until Obsidian parses it", async () => {
		app.vault.writeExternally("Target.md", "# Changed on disk\n");
		await index.refresh();
		expect(store.readOf("Target.md")?.text).toBe("# Changed on disk\n");
		expect(diagnostics.facts("Target.md")?.headings.map((heading) => heading.text)).toEqual(["Changed on disk"]);
		await app.metadataCache.parsePending();
		expect(store.readOf("Target.md")).toBeUndefined();
		expect(index.facts("Target.md")?.headings.map((heading) => heading.text)).toEqual(["Changed on disk"]);
	});
});
