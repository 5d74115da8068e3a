import { rewriteLink } from "../../../src/vault/folder/link-rewrite";
import type { LinkFact } from "../../../src/vault/markdown/note-model";

const link = (original: string): LinkFact => ({
	line: 0,
	start: 0,
	end: original.length,
	original,
	linkpath: "",
	embed: original.startsWith("!"),
});

/** Link paths as a vault resolves them: by full path (with or without .md), or by a unique name. */
function resolverFor(notes: string[]): (linkpath: string) => string | undefined {
	return (linkpath) => {
		const wanted = linkpath.replace(/^\.\//, "");
		const exact = notes.find((note) => note === wanted || note === `${wanted}.md`);
		if (exact) return exact;
		const named = notes.filter(
			(note) => note.slice(note.lastIndexOf("/") + 1).replace(/\.md$/, "") === wanted.replace(/\.md$/, ""),
		);
		return named.length === 1 ? named[0] : undefined;
	};
}

describe("rewriteLink", () => {
	it("rewrites a wikilink's file part to the shortest spelling that resolves, keeping subpath, alias and embed mark", () => {
		const resolves = resolverFor(["New/Place.md", "Other.md"]);
		expect(rewriteLink(link("[[Old#Part|alias]]"), "New/Place.md", "Home.md", resolves)).toBe(
			"[[Place#Part|alias]]",
		);
		expect(rewriteLink(link("![[Old#^block]]"), "New/Place.md", "Home.md", resolves)).toBe("![[Place#^block]]");
	});

	it("uses the full path when the name alone is ambiguous, and keeps a written .md", () => {
		const resolves = resolverFor(["A/Plan.md", "B/Plan.md"]);
		expect(rewriteLink(link("[[Old]]"), "B/Plan.md", "Home.md", resolves)).toBe("[[B/Plan]]");
		expect(rewriteLink(link("[[Old.md|x]]"), "B/Plan.md", "Home.md", resolves)).toBe("[[B/Plan.md|x]]");
	});

	it("keeps a table's escaped alias pipe", () => {
		expect(rewriteLink(link("[[Old\\|alias]]"), "New.md", "Home.md", resolverFor(["New.md"]))).toBe(
			"[[New\\|alias]]",
		);
	});

	it("rewrites a Markdown link's destination, keeping text, title and percent-encoding", () => {
		const resolves = resolverFor(["Folder/My Note.md"]);
		expect(rewriteLink(link('[text](Old%20Name.md#Part "title")'), "Folder/My Note.md", "Home.md", resolves)).toBe(
			'[text](My%20Note.md#Part "title")',
		);
		expect(rewriteLink(link("[t](<Old Name.md>)"), "Folder/My Note.md", "Home.md", resolves)).toBe(
			"[t](<My Note.md>)",
		);
	});

	it("keeps a relative Markdown link relative to the linking note", () => {
		const resolves = (linkpath: string): string | undefined =>
			linkpath === "../B/Plan.md" || linkpath === "B/Plan.md" ? "B/Plan.md" : undefined;
		expect(rewriteLink(link("[p](../A/Old.md)"), "B/Plan.md", "A/Home.md", resolves)).toBe("[p](../B/Plan.md)");
	});

	it("answers undefined when no spelling leads to the target", () => {
		expect(rewriteLink(link("[[Old]]"), "New.md", "Home.md", () => undefined)).toBeUndefined();
		expect(rewriteLink(link("[t](Old.md)"), "New.md", "Home.md", () => "Elsewhere.md")).toBeUndefined();
	});
});
