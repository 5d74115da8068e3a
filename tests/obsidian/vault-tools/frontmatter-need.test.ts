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
		"Around.md": '---\nrelated: "see [[Hub]] first"\n---\n# A link with text around it\n',
		"Away.md": '---\nrelated: "[[Elsewhere]]"\n---\n# A property link to another note\n',
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
		expect(readPaths(read)).toEqual(["Around.md", "Away.md", "Bare.md", "Broken.md", "Listed.md", "Quoted.md"]);
		const found = await backlinksOfHub(index);

		const whole = new ObsidianVaultIndex(vaultIndexPorts(await createIndexedApp(notes)));
		whole.load();
		await whole.refresh();
		expect(found).toEqual(await backlinksOfHub(whole));
		expect(found).toEqual([
			"Around.md:1:[[Hub]]",
			"Bare.md:1:[[Hub]]",
			"Body.md:3:[[Hub]]",
			"Broken.md:1:[[Hub]]",
			"Listed.md:3:[[Hub|the hub]]",
			"Quoted.md:1:[[Hub]]",
		]);
		expect(index.facts("Plain 3.md")?.links).toEqual(whole.facts("Plain 3.md")?.links);
		whole.unload();
	});

	it("for backlinks, reads the notes whose properties may hold a link their cache entry does not list, then those of the listed ones that lead to the note asked", async () => {
		const read = jest.spyOn(app.vault, "cachedRead");
		await index.refresh("backlinks");
		// A list in a list, YAML that does not parse, and text around a link: only their texts tell.
		expect(readPaths(read)).toEqual(["Around.md", "Bare.md", "Broken.md"]);
		read.mockClear();
		const found = await backlinksOfHub(index);
		// Their entries list a link to Hub (Away.md's leads elsewhere: not read).
		expect(readPaths(read)).toEqual(["Listed.md", "Quoted.md"]);

		const whole = new ObsidianVaultIndex(vaultIndexPorts(await createIndexedApp(notes)));
		whole.load();
		await whole.refresh();
		expect(found).toEqual(await backlinksOfHub(whole));
		expect(found).toContain("Quoted.md:1:[[Hub]]");
		expect(found).toContain("Listed.md:3:[[Hub|the hub]]");
		whole.unload();

		read.mockClear();
		await index.refresh("backlinks");
		expect(await backlinksOfHub(index)).toEqual(found);
		expect(read).not.toHaveBeenCalled();
		// A later call for every link reads the rest of the notes with links in properties, once.
		await index.refresh("links");
		expect(readPaths(read)).toEqual(["Away.md"]);
	});

	it("reads the rest when a later call needs them, and each note once", async () => {
		const read = jest.spyOn(app.vault, "cachedRead");
		await index.refresh("links");
		await index.refresh("links");
		expect(read).toHaveBeenCalledTimes(6);
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

describe("ObsidianVaultIndex.backlinks after a refresh for backlinks", () => {
	it(
		"reads every note whose listed property link leads to the note asked, past a batch of reads",
		async () => {
			const notes: Record<string, string> = { "Index.md": "# Index\n" };
			for (let note = 0; note < 150; note++)
				notes[`Part ${note}.md`] = `---\nup: "[[Index]]"\n---\n# Part ${note}\n`;
			const app = await createIndexedApp(notes);
			const index = new ObsidianVaultIndex(vaultIndexPorts(app));
			index.load();
			const read = jest.spyOn(app.vault, "cachedRead");
			await index.refresh("backlinks");
			expect(read).not.toHaveBeenCalled();
			const found = await index.backlinks("Index.md");
			expect(read).toHaveBeenCalledTimes(150);
			expect(found.map(({ source }) => source)).toEqual(
				Object.keys(notes)
					.filter((path) => path !== "Index.md")
					.sort(),
			);
			expect(found.every(({ link }) => link.line === 1)).toBe(true);
			index.unload();
		},
		FIXTURE_TIMEOUT_MS,
	);
});
