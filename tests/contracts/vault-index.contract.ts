import type { NoteFacts } from "../../src/vault/markdown/note-model";
import { NoteChangedError, type VaultIndex } from "../../src/vault/notes/vault-index";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/** One VaultIndex adapter over a vault of files, with the host's own way of changing a file behind its back. */
export interface VaultIndexUnderTest {
	index: VaultIndex;
	/** Writes a file the way the Claude Code CLI does: straight to the vault folder, the index not told. */
	writeExternally: (path: string, text: string) => void;
	dispose: () => void;
}

export type VaultIndexFactory = (files: Record<string, string>) => Promise<VaultIndexUnderTest>;

const HOME = [
	"---",
	"tags: [alpha, beta/gamma]",
	"status: draft",
	"---",
	"# Home",
	"",
	"See [[Target]], [[target#Part One|the part]] and ![[Target#^para-1]].",
	"A [markdown link](Folder/Deep.md) and [[Missing note]]. #inline-tag",
	"",
	"```",
	"[[Inside code]] #notatag",
	"```",
	"",
	"## Second",
	"",
	"- item ^item-1",
	"",
].join("\n");

const VAULT: Record<string, string> = {
	"Home.md": HOME,
	"Target.md": ["# Part One", "", "## Detail", "", "A paragraph. ^para-1", ""].join("\n"),
	"Folder/Deep.md": ["# Deep", "", "Back to [[Home]] and [[Target]].", ""].join("\n"),
	"Bad.md": ["---", "key: [unclosed", "---", "Text", ""].join("\n"),
	"picture.png": "not really a picture",
};

/** A link as `line:start-end original -> target` (target "?" when unresolved), in document order. */
function links(facts: NoteFacts | undefined): string[] {
	return (facts?.links ?? []).map(
		(link) =>
			`${link.line}:${link.start}-${link.end} ${link.original} ${link.embed ? "embed " : ""}${link.linkpath}${link.subpath === undefined ? "" : `#${link.subpath}`} -> ${link.target ?? "?"}`,
	);
}

/** Where `text` starts and ends on `line` of `note`, as `line:start-end`. */
function at(note: string, line: number, text: string): string {
	const start = (note.split("\n")[line] ?? "").indexOf(text);
	if (start < 0) throw new Error(`${text} is not on line ${line}`);
	return `${line}:${start}-${start + text.length}`;
}

/**
 * The behaviour every VaultIndex adapter must share, so the vault tools answer the same whether the folder or
 * Obsidian serves them: which files are notes, their facts (0-based lines), link resolution, backlinks, the
 * compare-and-write, creating notes in new folders, link-safe renames, and notes changed behind the index's back.
 */
export function describeVaultIndexContract(name: string, create: VaultIndexFactory): void {
	describe(`VaultIndex contract: ${name}`, () => {
		let subject: VaultIndexUnderTest;
		let index: VaultIndex;
		beforeEach(async () => {
			subject = await create(VAULT);
			index = subject.index;
			await index.refresh();
		}, FIXTURE_TIMEOUT_MS);
		afterEach(() => subject?.dispose());

		it("lists the Markdown notes only", () => {
			expect([...index.notePaths()].sort()).toEqual(["Bad.md", "Folder/Deep.md", "Home.md", "Target.md"]);
		});

		it("gives headings, block ids, tags and properties with 0-based lines", () => {
			const facts = index.facts("Home.md");
			expect(facts?.headings).toEqual([
				{ text: "Home", level: 1, line: 4, endLine: 4 },
				{ text: "Second", level: 2, line: 13, endLine: 13 },
			]);
			expect(facts?.blockIds).toEqual([{ id: "item-1", line: 15, start: 7, end: 14 }]);
			expect(facts?.tags).toEqual([
				{ tag: "alpha", line: 1 },
				{ tag: "beta/gamma", line: 1 },
				{ tag: "inline-tag", line: 7 },
			]);
			expect(facts?.frontmatter).toEqual({
				endLine: 3,
				properties: { tags: ["alpha", "beta/gamma"], status: "draft" },
				keyLines: { tags: 1, status: 2 },
			});
			expect(index.facts("Target.md")?.blockIds).toEqual([{ id: "para-1", line: 4, start: 13, end: 20 }]);
		});

		it("gives links outside code in document order, with positions, subpaths and targets", () => {
			expect(links(index.facts("Home.md"))).toEqual([
				`${at(HOME, 6, "[[Target]]")} [[Target]] Target -> Target.md`,
				`${at(HOME, 6, "[[target#Part One|the part]]")} [[target#Part One|the part]] target#Part One -> Target.md`,
				`${at(HOME, 6, "![[Target#^para-1]]")} ![[Target#^para-1]] embed Target#^para-1 -> Target.md`,
				`${at(HOME, 7, "[markdown link](Folder/Deep.md)")} [markdown link](Folder/Deep.md) Folder/Deep.md -> Folder/Deep.md`,
				`${at(HOME, 7, "[[Missing note]]")} [[Missing note]] Missing note -> ?`,
			]);
		});

		it("reports a frontmatter that does not parse instead of properties", () => {
			const frontmatter = index.facts("Bad.md")?.frontmatter;
			expect(frontmatter?.endLine).toBe(2);
			expect(frontmatter?.properties).toBeUndefined();
			expect(frontmatter?.problem).toMatch(/YAML/);
		});

		it("has no facts or text for what is not a note", async () => {
			expect(index.facts("picture.png")).toBeUndefined();
			expect(index.facts("Nope.md")).toBeUndefined();
			expect(await index.readText("picture.png")).toBeUndefined();
			expect(await index.readText("Nope.md")).toBeUndefined();
		});

		it("resolves link paths as Obsidian does", () => {
			expect(index.resolveLink("target", "Folder/Deep.md")).toBe("Target.md");
			expect(index.resolveLink("Deep", "Home.md")).toBe("Folder/Deep.md");
			expect(index.resolveLink("Folder/Deep.md", "Home.md")).toBe("Folder/Deep.md");
			expect(index.resolveLink("picture.png", "Home.md")).toBe("picture.png");
			expect(index.resolveLink("Nowhere", "Home.md")).toBeUndefined();
		});

		it("resolves among the files `exists` accepts as Obsidian would in a vault without the others", async () => {
			for (const path of ["Folder/Target.md", "Folder/Other.md", "Elsewhere/Deeper/Other.md"])
				subject.writeExternally(path, "# Namesake\n");
			await index.refresh();
			const without =
				(...refused: string[]) =>
				(path: string) =>
					!refused.includes(path);
			// Beside the source first, then the shortest path.
			expect(index.resolveLink("Other", "Folder/Deep.md")).toBe("Folder/Other.md");
			expect(index.resolveLink("Other", "Folder/Deep.md", without("Folder/Other.md"))).toBe(
				"Elsewhere/Deeper/Other.md",
			);
			expect(index.resolveLink("Other", "Home.md")).toBe("Folder/Other.md");
			expect(index.resolveLink("Other", "Home.md", without("Folder/Other.md"))).toBe("Elsewhere/Deeper/Other.md");
			expect(index.resolveLink("Other", "Home.md", without("Elsewhere/Deeper/Other.md"))).toBe("Folder/Other.md");
			// An exact path first, then the others of that name.
			expect(index.resolveLink("Target", "Folder/Deep.md")).toBe("Target.md");
			expect(index.resolveLink("Target", "Folder/Deep.md", without("Target.md"))).toBe("Folder/Target.md");
			expect(index.resolveLink("Target", "Home.md", without("Target.md", "Folder/Target.md"))).toBeUndefined();
			expect(index.resolveLink("", "Home.md", without("Home.md"))).toBeUndefined();
			expect(index.resolveLink("picture.png", "Home.md", without("picture.png"))).toBeUndefined();
		});

		it("finds every link to a note, with its source and line", async () => {
			const found = (await index.backlinks("Target.md"))
				.map((backlink) => `${backlink.source}:${backlink.link.line} ${backlink.link.original}`)
				.sort();
			expect(found).toEqual([
				"Folder/Deep.md:2 [[Target]]",
				"Home.md:6 ![[Target#^para-1]]",
				"Home.md:6 [[Target]]",
				"Home.md:6 [[target#Part One|the part]]",
			]);
		});

		it("reads a note's exact text and knows what exists", async () => {
			expect(await index.readText("Target.md")).toBe(VAULT["Target.md"]);
			expect(await index.exists("Folder")).toBe(true);
			expect(await index.exists("Folder/Deep.md")).toBe(true);
			expect(await index.exists("picture.png")).toBe(true);
			expect(await index.exists("Nope.md")).toBe(false);
		});

		it("writes only when the note is still what the caller read", async () => {
			await index.writeText("Target.md", "# Rewritten\n", VAULT["Target.md"] ?? "");
			await index.refresh();
			expect(await index.readText("Target.md")).toBe("# Rewritten\n");
			expect(index.facts("Target.md")?.headings.map((heading) => heading.text)).toEqual(["Rewritten"]);
			await expect(
				index.writeText("Target.md", "# Lost update\n", VAULT["Target.md"] ?? ""),
			).rejects.toBeInstanceOf(NoteChangedError);
			await index.refresh();
			expect(await index.readText("Target.md")).toBe("# Rewritten\n");
		});

		it("creates a note in folders that do not exist yet, and never over an existing one", async () => {
			await index.createNote("New/Sub/Note.md", "# Fresh\n\n[[Home]]\n");
			await index.refresh();
			expect(await index.exists("New/Sub")).toBe(true);
			expect(index.notePaths()).toContain("New/Sub/Note.md");
			expect(await index.readText("New/Sub/Note.md")).toBe("# Fresh\n\n[[Home]]\n");
			expect(links(index.facts("New/Sub/Note.md"))).toEqual(["2:0-8 [[Home]] Home -> Home.md"]);
			await expect(index.createNote("Target.md", "# Overwritten\n")).rejects.toThrow();
			expect(await index.readText("Target.md")).toBe(VAULT["Target.md"]);
		});

		it("renames a note so that every link that led to it still does, and reports the links it rewrote", async () => {
			const report = await index.renameNote("Target.md", "Archive/Renamed.md");
			await index.refresh();
			expect([...report.updates].sort((a, b) => a.path.localeCompare(b.path))).toEqual([
				{ path: "Folder/Deep.md", links: 1 },
				{ path: "Home.md", links: 3 },
			]);
			expect(index.notePaths()).not.toContain("Target.md");
			expect(await index.readText("Archive/Renamed.md")).toBe(VAULT["Target.md"]);
			const targets = (path: string): (string | undefined)[] =>
				(index.facts(path)?.links ?? []).map((link) => link.target);
			expect(targets("Home.md")).toEqual([
				"Archive/Renamed.md",
				"Archive/Renamed.md",
				"Archive/Renamed.md",
				"Folder/Deep.md",
				undefined,
			]);
			expect(targets("Folder/Deep.md")).toEqual(["Home.md", "Archive/Renamed.md"]);
			expect((await index.backlinks("Archive/Renamed.md")).length).toBe(4);
			expect(await index.backlinks("Target.md")).toEqual([]);
			// The rest of each linking note is untouched.
			expect(
				(await index.readText("Home.md"))?.replace(/\[\[[^\]]*\]\]/g, "[[]]").replace(/\]\([^)]*\)/g, "]()"),
			).toBe(HOME.replace(/\[\[[^\]]*\]\]/g, "[[]]").replace(/\]\([^)]*\)/g, "]()"));
		});

		it("sees a note the CLI created or changed behind its back once refreshed, links and backlinks included", async () => {
			subject.writeExternally("Later.md", "# Later\n\nAbout [[Home]].\n");
			subject.writeExternally("Target.md", "# Changed\n\nNow links [[Later]].\n");
			await index.refresh();
			expect(index.notePaths()).toContain("Later.md");
			expect(await index.readText("Later.md")).toBe("# Later\n\nAbout [[Home]].\n");
			expect(index.facts("Later.md")?.headings.map((heading) => heading.text)).toEqual(["Later"]);
			expect(index.facts("Target.md")?.headings.map((heading) => heading.text)).toEqual(["Changed"]);
			expect(links(index.facts("Target.md"))).toEqual(["2:10-19 [[Later]] Later -> Later.md"]);
			expect((await index.backlinks("Home.md")).map((backlink) => backlink.source).sort()).toEqual([
				"Folder/Deep.md",
				"Later.md",
			]);
			expect((await index.backlinks("Later.md")).map((backlink) => backlink.source)).toEqual(["Target.md"]);
		});
	});
}
