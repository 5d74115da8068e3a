import { ObsidianVaultIndex } from "../../../src/obsidian/vault-tools/obsidian-vault-index";
import type { App } from "../../__mocks__/obsidian";
import { createIndexedApp, vaultIndexPorts } from "../harness/indexed-app";
import { FIXTURE_TIMEOUT_MS } from "../../helpers/fixture-timeout";

/**
 * After a restart (the fake app's cache made before the index loads, no `changed` event), a refresh reads the
 * frontmatter texts its caller needs, judged from the cache entries, and the answers are those of a refresh that
 * read every note's.
 */
describe("ObsidianVaultIndex.refresh with a frontmatter need", () => {
	const notes: Record<string, string> = {
		"Hub.md": "---\ntags: [hub]\n---\n# Hub\n",
		"Quoted.md": '---\nrelated: "[[Hub]]"\n---\n# Quoted\n',
		"Listed.md": '---\nup:\n  - "[[Elsewhere]]"\n  - "[[Hub|the hub]]"\n---\n# Listed\n',
		"Bare.md": "---\nrelated: [[Hub]]\n---\n# Bare: a list in a list to YAML\n",
		"Body.md": "---\nstatus: open\n---\n[[Hub]] in the body\n",
		"Tagged.md": "---\nTags: heavy\nstatus: open\n---\n# Tagged\n",
		"Broken.md": '---\nrelated: "[[Hub]]\n---\n# YAML that does not parse\n',
	};
	for (let note = 0; note < 20; note++) notes[`Plain ${note}.md`] = `---\nstatus: s${note}\n---\n# Plain ${note}\n`;

	let app: App;
	let index: ObsidianVaultIndex;
	beforeEach(async () => {
		app = await createIndexedApp(notes);
		index = new ObsidianVaultIndex(vaultIndexPorts(app));
		index.load();
	}, FIXTURE_TIMEOUT_MS);
	afterEach(() => index?.unload());

	function readPaths(read: jest.SpyInstance): string[] {
		return read.mock.calls.map(([file]) => (file as { path: string }).path).sort();
	}

	async function backlinksOfHub(of: ObsidianVaultIndex): Promise<string[]> {
		return (await of.backlinks("Hub.md")).map(({ source, link }) => `${source}:${link.line}:${link.original}`);
	}

	it("for links, reads only the notes whose properties may hold one, and finds the same backlinks", async () => {
		const read = jest.spyOn(app.vault, "cachedRead");
		await index.refresh("links");
		expect(readPaths(read)).toEqual(["Bare.md", "Broken.md", "Listed.md", "Quoted.md"]);
		const found = await backlinksOfHub(index);

		const whole = new ObsidianVaultIndex(vaultIndexPorts(await createIndexedApp(notes)));
		whole.load();
		await whole.refresh();
		expect(found).toEqual(await backlinksOfHub(whole));
		expect(found).toEqual([
			"Bare.md:1:[[Hub]]",
			"Body.md:3:[[Hub]]",
			"Broken.md:1:[[Hub]]",
			"Listed.md:3:[[Hub|the hub]]",
			"Quoted.md:1:[[Hub]]",
		]);
		expect(index.facts("Plain 3.md")?.links).toEqual(whole.facts("Plain 3.md")?.links);
		whole.unload();
	});

	it("reads the rest when a later call needs them, and each note once", async () => {
		const read = jest.spyOn(app.vault, "cachedRead");
		await index.refresh("links");
		await index.refresh("links");
		expect(read).toHaveBeenCalledTimes(4);
		read.mockClear();
		await index.refresh("tags");
		expect(readPaths(read)).toEqual(["Hub.md", "Tagged.md"]);
		expect(index.tagsOf("Tagged.md")).toEqual([{ tag: "heavy", line: 1 }]);
		read.mockClear();
		await index.refresh("none");
		expect(read).not.toHaveBeenCalled();
		await index.refresh();
		expect(read).toHaveBeenCalledTimes(21);
		expect(index.frontmatterOf("Plain 3.md")).toEqual({
			endLine: 2,
			properties: { status: "s3" },
			keyLines: { status: 1 },
		});
		read.mockClear();
		await index.refresh();
		expect(read).not.toHaveBeenCalled();
	});

	it("reads a renamed note's frontmatter again when a call needs it (its reading went with the old path)", async () => {
		await index.refresh("links");
		await index.refresh("tags");
		await app.fileManager.renameFile(app.vault.getFileByPath("Tagged.md") as never, "Moved/Tagged.md");
		const read = jest.spyOn(app.vault, "cachedRead");
		await index.refresh("links");
		expect(read).not.toHaveBeenCalled();
		await index.refresh("tags");
		expect(readPaths(read)).toEqual(["Moved/Tagged.md"]);
		expect(index.tagsOf("Moved/Tagged.md")).toEqual([{ tag: "heavy", line: 1 }]);
	});
});
