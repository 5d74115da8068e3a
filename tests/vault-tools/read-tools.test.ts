import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { VaultPaths } from "../../src/vault/vault-paths";
import { createVaultTools } from "../../src/vault-tools/create-vault-tools";
import { FolderVaultIndex } from "../../src/vault/folder/folder-vault-index";
import { makeTempDir } from "../helpers/temp-dir";
import { makeVault, type VaultFixture } from "./vault-fixture";
import { waitUntil } from "../helpers/wait-until";
import { VisibleVault } from "../../src/vault/privacy/visible-vault";
import { libraryYamlCodec } from "../../src/vault/folder/yaml-library-codec";

const FILES: Record<string, string> = {
	"Projects/Garden.md":
		"---\ntitle: Garden\ntags: [project, home/outdoor]\ndue: 2026-05-01\npriority: 2\n---\n# Garden\n\nPlant tomato seeds in spring.\n\n## Tools\n\nA spade and tomato cages. ^tools\n\n## Log\n\n- watered #chores\n\n```\n# not a heading, tomato in code\n[[Ghost]]\n```\n",
	"Projects/Kitchen.md":
		"---\ntags: project\npriority: 1\n---\n# Kitchen\n\nSee [[Garden#Tools]] and [[Ghost]]. Tomato soup recipe.\n",
	"Archive/Garden.md": "# Old garden\n\nAn older note with the same name.\n",
	"Tomato.md": "# Tomato\n\nAll about it.\n",
	".hidden/workspace.md": "tomato hidden\n",
};

describe("read tools", () => {
	let vault: VaultFixture;
	beforeAll(() => {
		vault = makeVault(FILES);
	});
	afterAll(() => vault?.dispose());

	it("search text: lines 1-based with the heading they are under, notes with more matches and names first", async () => {
		const answer = await vault.call("search", { query: "tomato" });
		expect(answer.text.split("\n")).toEqual([
			'Tomato.md:1: # Tomato  [under "Tomato"]',
			'Projects/Garden.md:9: Plant tomato seeds in spring.  [under "Garden"]',
			'Projects/Garden.md:13: A spade and tomato cages. ^tools  [under "Garden > Tools"]',
			'Projects/Garden.md:20: # not a heading, tomato in code  [under "Garden > Log"]',
			'Projects/Kitchen.md:7: See [[Garden#Tools]] and [[Ghost]]. Tomato soup recipe.  [under "Kitchen"]',
			"(total 5 matches; showing 1-5)",
		]);
	});

	it("search text needs every word on one line and ranks the exact phrase first; folder narrows", async () => {
		expect((await vault.call("search", { query: "seeds tomato" })).text).toMatch(/^Projects\/Garden\.md:9: /);
		expect((await vault.call("search", { query: "spade tomato" })).text.split("\n")[0]).toMatch(
			/^Projects\/Garden\.md:13:/,
		);
		const inFolder = await vault.call("search", { query: "tomato", folder: "Projects" });
		expect(inFolder.text).not.toContain("Tomato.md:1");
	});

	it("search regex, tag (nested), property and path modes", async () => {
		expect((await vault.call("search", { query: "/^- \\w+ #chores$/", mode: "regex" })).text).toMatch(
			/^Projects\/Garden\.md:17: - watered #chores/,
		);
		const tag = await vault.call("search", { query: "#home", mode: "tag" });
		expect(tag.text.split("\n")[0]).toBe("Projects/Garden.md:3: tags: [project, home/outdoor]");
		const project = await vault.call("search", { query: "project", mode: "tag" });
		expect(project.text).toMatch(/total 2 matches/);
		expect((await vault.call("search", { query: "priority: 1", mode: "property" })).text.split("\n")[0]).toBe(
			"Projects/Kitchen.md:3: priority: 1",
		);
		expect((await vault.call("search", { query: "due=2026-05-01", mode: "property" })).text).toMatch(
			/^Projects\/Garden\.md:4: due: 2026-05-01/,
		);
		expect((await vault.call("search", { query: "garden", mode: "path" })).text.split("\n")).toEqual([
			"Archive/Garden.md",
			"Projects/Garden.md",
			"(total 2 notes; showing 1-2)",
		]);
	});

	it("read_note resolves a note name as Obsidian does (shortest path) and reads sections exactly", async () => {
		const whole = await vault.call("read_note", { path: "Garden" });
		expect(whole.blocks[0]).toMatch(/^Archive\/Garden\.md \| lines 1-4 \| version \S+$/);
		expect(whole.blocks[1]).toBe(FILES["Archive/Garden.md"]);
		const tools = await vault.call("read_note", { path: "Projects/Garden", section: "Garden > Tools" });
		expect(tools.blocks[1]).toBe("## Tools\n\nA spade and tomato cages. ^tools\n\n");
		expect((await vault.call("read_note", { path: "[[Projects/Garden|g]]", section: "^tools" })).blocks[1]).toBe(
			"A spade and tomato cages. ^tools\n",
		);
		expect((await vault.call("read_note", { path: "Projects/Garden.md", section: "frontmatter" })).blocks[1]).toBe(
			"---\ntitle: Garden\ntags: [project, home/outdoor]\ndue: 2026-05-01\npriority: 2\n---\n",
		);
		expect((await vault.call("read_note", { path: "Projects/Garden.md", section: "not a heading" })).isError).toBe(
			true,
		);
	});

	it("read_note cuts long text at the cap and continues from the offset it names", async () => {
		const long = makeVault({ "Long.md": "x".repeat(30_000) + "\nend\n" }, { textCap: 24_000 });
		try {
			const first = await long.call("read_note", { path: "Long" });
			expect(first.blocks[0]).toMatch(/characters 0-24000 of 30005; continue with offset 24000/);
			expect(first.blocks[1]).toHaveLength(24_000);
			const second = await long.call("read_note", { path: "Long", offset: 24_000 });
			expect(second.blocks[0]).toMatch(/characters 24000-30005 of 30005 \(the end\)/);
			expect(first.blocks[1] + second.blocks[1]).toBe(long.read("Long.md"));
			expect((await long.call("read_note", { path: "Long", offset: 40_000 })).text).toMatch(/past the end/);
		} finally {
			long.dispose();
		}
	});

	it("outline lists headings with paths and lines, block ids, frontmatter keys, tags and words; code is not a heading", async () => {
		const answer = await vault.call("outline", { path: "Projects/Garden.md" });
		expect(answer.text).toMatch(
			/^Projects\/Garden\.md \| 23 lines, \d+ words \| version \S+\nfrontmatter \(lines 1-6\): title, tags, due, priority\ntags: #project #home\/outdoor #chores\nheadings \(line: level path\):\n7: # Garden\n11: ## Garden > Tools\n15: ## Garden > Log\nblock ids: \^tools \(line 13\)$/,
		);
	});

	it("links: outgoing with targets and unresolved marks (never from code), backlinks with the linking line", async () => {
		const kitchen = await vault.call("links", { path: "Projects/Kitchen.md", direction: "out" });
		expect(kitchen.text.split("\n")).toEqual([
			"Projects/Kitchen.md: 2 outgoing (1 unresolved)",
			"out Projects/Kitchen.md:7: See [[Garden#Tools]] and [[Ghost]]. Tomato soup recipe. | [[Garden#Tools]] → Projects/Garden.md",
			"out Projects/Kitchen.md:7: See [[Garden#Tools]] and [[Ghost]]. Tomato soup recipe. | [[Ghost]] → UNRESOLVED",
			"(total 2 links; showing 1-2)",
		]);
		expect((await vault.call("links", { path: "Projects/Kitchen.md", unresolved: true })).text).toMatch(
			/^Projects\/Kitchen\.md: 1 outgoing unresolved\nout .*\[\[Ghost\]\] → UNRESOLVED/,
		);
		const garden = await vault.call("links", { path: "Projects/Garden.md", direction: "in" });
		expect(garden.text).toMatch(/^Projects\/Garden\.md: 1 backlinks from 1 notes\nin Projects\/Kitchen\.md:7: /);
		expect((await vault.call("links", { path: "Projects/Garden.md", direction: "out" })).text).toMatch(
			/^Projects\/Garden\.md: 0 outgoing/,
		);
	});

	it("tags and properties, vault-wide and for one note", async () => {
		expect((await vault.call("tags", {})).text.split("\n")).toEqual([
			"tag notes",
			"#project 2",
			"#chores 1",
			"#home/outdoor 1",
			"(total 3 tags; showing 1-3)",
		]);
		expect((await vault.call("tags", { prefix: "#home" })).text).toMatch(/#home\/outdoor 1/);
		expect((await vault.call("tags", { path: "Kitchen" })).text.split("\n")[1]).toBe(
			"#project (line 2, frontmatter)",
		);
		expect((await vault.call("properties", {})).text.split("\n")).toEqual([
			"key (types) notes",
			"priority (number) 2",
			"tags (list|text) 2",
			"due (date) 1",
			"title (text) 1",
			"(total 4 keys; showing 1-4)",
		]);
		expect((await vault.call("properties", { key: "priority" })).text.split("\n")).toEqual([
			"priority:",
			"Projects/Garden.md:5: 2",
			"Projects/Kitchen.md:3: 1",
			"(total 2 notes; showing 1-2)",
		]);
		expect((await vault.call("properties", { path: "Projects/Garden" })).text).toMatch(
			/4: due \(date\): 2026-05-01/,
		);
	});

	it("list_notes pages to the end in a stable order, and never lists hidden files", async () => {
		const first = await vault.call("list_notes", { limit: 2 });
		expect(first.text.split("\n").slice(0, 2)).toEqual(["Archive/Garden.md", "Projects/Garden.md"]);
		const cursor = /cursor "([^"]+)"/.exec(first.text)?.[1];
		const second = await vault.call("list_notes", { limit: 2, cursor });
		expect(second.text.split("\n").slice(0, 2)).toEqual(["Projects/Kitchen.md", "Tomato.md"]);
		expect(second.text).toMatch(/total 4 notes; showing 3-4\)$/);
		expect((await vault.call("list_notes", { limit: 2, cursor, folder: "Projects" })).text).toMatch(
			/belongs to a different query/,
		);
	});

	it("pages a large result: capped at the limit with total and cursor, every hit exactly once", async () => {
		const files: Record<string, string> = {};
		for (let index = 0; index < 150; index++)
			files[`N/${String(index).padStart(3, "0")}.md`] = "needle one\nneedle two\n";
		const big = makeVault(files);
		try {
			const first = await big.call("search", { query: "needle" });
			expect(first.text.split("\n")).toHaveLength(21);
			expect(first.text).toMatch(/total 300 matches; showing 1-20\. More: cursor/);
			const seen = new Set<string>();
			let cursor: string | undefined;
			for (;;) {
				const answer = await big.call("search", { query: "needle", limit: 100, ...(cursor ? { cursor } : {}) });
				for (const line of answer.text.split("\n").slice(0, -1)) seen.add(line);
				cursor = /cursor "([^"]+)"/.exec(answer.text)?.[1];
				if (!cursor) break;
			}
			expect(seen.size).toBe(300);
		} finally {
			big.dispose();
		}
	});

	it("refuses paths outside the vault, hidden files, and notes behind symbolic links", async () => {
		const outside = makeTempDir("vault-tools-outside");
		try {
			writeFileSync(join(outside.path, "secret.md"), "outside");
			mkdirSync(join(vault.root, "Links"), { recursive: true });
			symlinkSync(join(outside.path, "secret.md"), join(vault.root, "Links/secret.md"));
			expect((await vault.call("read_note", { path: "../x.md" })).text).toMatch(
				/refused: Path is outside the vault/,
			);
			expect((await vault.call("read_note", { path: join(outside.path, "secret.md") })).text).toMatch(
				/refused: Path is outside the vault/,
			);
			expect((await vault.call("read_note", { path: "Links/secret.md" })).text).toMatch(/outside the vault/);
			expect((await vault.call("read_note", { path: "%2e%2e/x.md" })).text).toMatch(/outside the vault/);
			expect((await vault.call("read_note", { path: ".hidden/workspace.md" })).text).toMatch(/No note/);
			expect((await vault.call("search", { query: "hidden" })).text).toMatch(/^No matches/);
			expect((await vault.call("read_note", { path: join(vault.root, "Tomato.md") })).blocks[1]).toBe(
				FILES["Tomato.md"],
			);
		} finally {
			outside.remove();
		}
	});

	it("sees notes changed on disk since the last call", async () => {
		vault.write("Fresh.md", "# Fresh\n\nbrandnewword\n");
		expect((await vault.call("search", { query: "brandnewword" })).text).toMatch(/^Fresh\.md:3:/);
		vault.write("Fresh.md", "# Fresh\n\nreplacedword\n");
		expect((await vault.call("search", { query: "brandnewword" })).text).toMatch(/^No matches/);
	});
});

describe("the folder adapter watching the vault", () => {
	it("sees notes added and changed by others, in new folders too, without checking every file", async () => {
		const temp = makeTempDir("vault-tools-watch");
		writeFileSync(join(temp.path, "First.md"), "# First\n");
		const index = new FolderVaultIndex({ root: temp.path });
		const search = createVaultTools({
			yaml: libraryYamlCodec,
			vault: new VisibleVault({ index, paths: new VaultPaths(temp.path), isPrivate: () => false }),
		}).find((tool) => tool.name === "search");
		const ask = async (query: string): Promise<string> =>
			(await search?.call({ query }, { sessionId: 1, signal: new AbortController().signal }))?.content[0]?.text ??
			"";
		/** Asks until the answer matches: the watcher reports changes a moment after they happen. */
		const eventually = async (query: string, expected: RegExp): Promise<void> => {
			await waitUntil(
				async () => expected.test(await ask(query)),
				`search "${query}" to match ${String(expected)}`,
			).catch(() => undefined);
			expect(await ask(query)).toMatch(expected);
		};
		try {
			expect(await ask("first")).toMatch(/^First\.md:1:/);
			mkdirSync(join(temp.path, "New Folder/Deeper"), { recursive: true });
			writeFileSync(join(temp.path, "New Folder/Deeper/Later.md"), "watchedword\n");
			await eventually("watchedword", /^New Folder\/Deeper\/Later\.md:1:/);
			writeFileSync(join(temp.path, "First.md"), "# First\nsecondword\n");
			await eventually("secondword", /^First\.md:2:/);
		} finally {
			index.dispose();
			temp.remove();
		}
	});
});

describe("VisibleVault: the visible notes decided once while nothing they depend on changed", () => {
	it("asks isPrivate of every note again only when the list or the decisions' key changed, or without a key", async () => {
		const temp = makeTempDir("visible-decided");
		const write = (path: string): void => {
			mkdirSync(join(temp.path, path, ".."), { recursive: true });
			writeFileSync(join(temp.path, path), "# note\n");
		};
		for (const path of ["a.md", "Private/b.md", "c.md"]) write(path);
		const index = new FolderVaultIndex({ root: temp.path, watch: false });
		const asked: string[] = [];
		let key: object | undefined = {};
		const vault = new VisibleVault({
			index,
			paths: new VaultPaths(temp.path),
			isPrivate: (path) => {
				asked.push(path);
				return path.startsWith("Private/");
			},
			decisionsKey: () => key,
		});
		try {
			const decide = async (): Promise<readonly string[]> => {
				asked.length = 0;
				await vault.refresh();
				return vault.notePaths();
			};
			expect(await decide()).toEqual(["a.md", "c.md"]);
			expect(asked).toEqual(["Private/b.md", "a.md", "c.md"]);
			expect(await decide()).toEqual(["a.md", "c.md"]);
			expect(asked).toEqual([]);
			key = {};
			expect(await decide()).toEqual(["a.md", "c.md"]);
			expect(asked).toHaveLength(3);
			write("d.md");
			expect(await decide()).toEqual(["a.md", "c.md", "d.md"]);
			expect(asked).toHaveLength(4);
			key = undefined;
			await decide();
			expect(asked).toHaveLength(4);
			await decide();
			expect(asked).toHaveLength(4);
		} finally {
			index.dispose();
			temp.remove();
		}
	});
});
