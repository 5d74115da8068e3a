import { VaultPaths } from "../../src/vault/vault-paths";
import type { ToolDefinition } from "../../src/protocol/mcp-types";
import { createVaultTools } from "../../src/vault-tools/create-vault-tools";
import type { VaultIndex } from "../../src/vault/notes/vault-index";
import { makeVault, type VaultFixture } from "./vault-fixture";
import { VisibleVault } from "../../src/vault/privacy/visible-vault";
import { libraryYamlCodec } from "../../src/vault/folder/yaml-library-codec";

/**
 * Text and regex search take a note's text without a promise when the index has it at hand (the folder index's
 * `textNow`), and await `readText` otherwise (Obsidian's index). Either way the answers, privacy and freshness
 * are the same.
 */
const NOTES: Record<string, string> = {
	"A.md": "# A\n\nThe apple tree.\n",
	"B.md": "# B\n\nAn apple pie and an apple.\n",
	"Private/C.md": "---\nkind: fruit\n---\n# C\n\nA secret apple. #fruit\n",
};

/** The same index, seen through `readText` only (as an index without `textNow` is). */
function withoutTextNow(index: VaultIndex): VaultIndex {
	return {
		refresh: () => index.refresh(),
		notePaths: () => index.notePaths(),
		exists: (path) => index.exists(path),
		readText: (path) => index.readText(path),
		facts: (path) => index.facts(path),
		resolveLink: (linkpath, source) => index.resolveLink(linkpath, source),
		backlinks: (path) => index.backlinks(path),
		writeText: (path, text, expected) => index.writeText(path, text, expected),
		createNote: (path, text) => index.createNote(path, text),
		renameNote: (from, to) => index.renameNote(from, to),
	};
}

describe("search reads texts without a promise when the index has them", () => {
	let vault: VaultFixture;
	let privateFolders: string[];
	let searchThroughPromises: ToolDefinition;
	beforeEach(() => {
		privateFolders = ["Private"];
		const isPrivate = (path: string): boolean =>
			privateFolders.some((folder) => folder === "*" || path.startsWith(`${folder}/`));
		vault = makeVault(NOTES, { isPrivate });
		const tool = createVaultTools({
			yaml: libraryYamlCodec,
			vault: new VisibleVault({
				index: withoutTextNow(vault.index),
				paths: new VaultPaths(vault.root),
				isPrivate,
			}),
		}).find((candidate) => candidate.name === "search");
		if (!tool) throw new Error("no search tool");
		searchThroughPromises = tool;
	});
	afterEach(() => vault?.dispose());

	const throughPromises = async (args: Record<string, unknown>): Promise<string> =>
		(await searchThroughPromises.call(args, { sessionId: 1, signal: new AbortController().signal })).content
			.map((block) => block.text)
			.join("\n");

	it.each([{ query: "apple" }, { query: "apple", mode: "regex" }, { query: "pie apple" }])(
		"answers %j the same either way",
		async (args) => {
			const answer = (await vault.call("search", args)).text;
			expect(answer).toContain("B.md:3:");
			expect(answer).not.toContain("Private/C.md");
			expect(await throughPromises(args)).toBe(answer);
		},
	);

	it("hides a note that became private on the next call (text, regex, tag and property modes), and shows it again once it is not", async () => {
		expect((await vault.call("search", { query: "apple" })).text).not.toContain("Private/C.md");
		expect((await vault.call("search", { query: "#fruit", mode: "tag" })).text).toMatch(/^No matches/);
		expect((await vault.call("search", { query: "kind: fruit", mode: "property" })).text).toMatch(/^No matches/);
		privateFolders = [];
		expect((await vault.call("search", { query: "apple" })).text).toContain("Private/C.md:6:");
		expect((await vault.call("search", { query: "#fruit", mode: "tag" })).text).toContain("Private/C.md:6:");
		expect((await vault.call("search", { query: "kind: fruit", mode: "property" })).text).toContain(
			"Private/C.md:2:",
		);
		privateFolders = ["*"];
		expect((await vault.call("search", { query: "apple" })).text).toMatch(/^No matches/);
		expect((await vault.call("search", { query: "#fruit", mode: "tag" })).text).toMatch(/^No matches/);
		expect((await vault.call("search", { query: "apple", mode: "regex" })).text).toMatch(/^No matches/);
	});

	it("shows the lines of tag and property hits the same either way", async () => {
		privateFolders = [];
		for (const args of [
			{ query: "#fruit", mode: "tag" },
			{ query: "kind: fruit", mode: "property" },
		]) {
			const answer = (await vault.call("search", args)).text;
			expect(answer).toMatch(/^Private\/C\.md:\d+: \S/m);
			expect(await throughPromises(args)).toBe(answer);
		}
	});

	it("finds a note's new text on the next call", async () => {
		expect((await vault.call("search", { query: "banana" })).text).toMatch(/^No matches/);
		vault.write("A.md", "# A\n\nA banana now.\n");
		expect((await vault.call("search", { query: "banana" })).text).toContain("A.md:3:");
		expect(await throughPromises({ query: "banana" })).toContain("A.md:3:");
	});
});
