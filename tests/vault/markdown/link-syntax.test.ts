import { findLinks, isExternalTarget } from "../../../src/vault/markdown/link-syntax";

const links = (line: string, masked = line) => findLinks(line, masked, 4);

describe("findLinks", () => {
	it("reads wikilinks and embeds: path, heading or block part, alias dropped, exact range on its line", () => {
		expect(links("See [[Plan#Goals|the goals]] and ![[img.png]]")).toEqual([
			{
				embed: false,
				linkpath: "Plan",
				subpath: "Goals",
				original: "[[Plan#Goals|the goals]]",
				line: 4,
				start: 4,
				end: 28,
			},
			{ embed: true, linkpath: "img.png", original: "![[img.png]]", line: 4, start: 33, end: 45 },
		]);
	});

	it("reads the table form of an alias, [[Note\\|alias]], as a link to Note", () => {
		expect(links("| [[Note\\|alias]] |").map((link) => link.linkpath)).toEqual(["Note"]);
	});

	it("reads Markdown links with percent-decoded targets, angle brackets and titles, and skips URLs", () => {
		const found = links(
			'[a](My%20Note.md#Part%201) [b](<Other Note.md> "title") [c](https://example.com) [d](mailto:x@y.z) ![e](pic.png)',
		);
		expect(found.map(({ linkpath, subpath, embed }) => ({ linkpath, subpath, embed }))).toEqual([
			{ linkpath: "My Note.md", subpath: "Part 1", embed: false },
			{ linkpath: "Other Note.md", subpath: undefined, embed: false },
			{ linkpath: "pic.png", subpath: undefined, embed: true },
		]);
	});

	it("keeps a link to a heading of the same note, and drops an empty one", () => {
		expect(links("[[#Top]] [[ ]] [x]()").map(({ linkpath, subpath }) => ({ linkpath, subpath }))).toEqual([
			{ linkpath: "", subpath: "Top" },
		]);
	});

	it("ignores escaped links and whatever the mask blanked, while taking text from the original line", () => {
		expect(links("\\[[Not a link]] \\[x](y.md)")).toEqual([]);
		const line = "`[[Code]]` [[Real]]";
		const masked = `${" ".repeat(11)}[[Real]]`;
		expect(findLinks(line, masked, 0).map((link) => [link.linkpath, link.start])).toEqual([["Real", 11]]);
	});

	it("leaves a bad percent escape as written", () => {
		expect(links("[x](100%.md)").map((link) => link.linkpath)).toEqual(["100%.md"]);
	});

	it("answers links in the order they appear on the line, wikilinks and Markdown links mixed", () => {
		expect(links("[m](m.md) [[w]] [n](n.md)").map((link) => link.linkpath)).toEqual(["m.md", "w", "n.md"]);
	});
});

describe("isExternalTarget", () => {
	it("counts URL schemes and protocol-relative targets as outside the vault", () => {
		expect(["https://x", "obsidian://open?vault=a", "mailto:me@x", "//host/path"].map(isExternalTarget)).toEqual([
			true,
			true,
			true,
			true,
		]);
		expect(["Note.md", "Folder/Note", "../up.md", "#heading"].map(isExternalTarget)).toEqual([
			false,
			false,
			false,
			false,
		]);
	});
});
