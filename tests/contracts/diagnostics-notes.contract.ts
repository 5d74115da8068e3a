import { DiagnosticsEngine } from "../../src/ide/diagnostics/diagnostics-engine";
import type { NoteFacts } from "../../src/vault/markdown/note-model";
import type { DiagnosticsNotes } from "../../src/vault/notes/notes";

/** One `DiagnosticsNotes` implementation over a vault of notes, with the host's own ways of changing it. */
export interface NoteSourceUnderTest {
	source: DiagnosticsNotes;
	/** Writes a file the way the Claude Code CLI does: straight to disk, the host not told. */
	writeExternally: (path: string, text: string) => void;
	/** Deletes a file the way the CLI's shell would: straight from disk, the host not told. */
	removeExternally: (path: string) => void;
	/** Runs a call to the source, letting the host's own clocks and events run until it is done. */
	run: <T>(call: () => Promise<T>) => Promise<T>;
	dispose: () => void;
}

export type NoteSourceFactory = (files: Record<string, string>) => Promise<NoteSourceUnderTest>;

const VAULT: Record<string, string> = {
	"Home.md": [
		"# Home",
		"",
		"See [[Target]], [[target#part one]], [[Target#Part One#Detail]] and [[Target#^para-1]].",
		"Broken: [[Missing note]], [[Target#No such heading]], [[Target#^nope]], ![[gone.png]].",
		"Fine: ![[picture.png]], [text](Folder/Deep.md), [[deep]], [[#Home]].",
		"",
		"```",
		"[[Inside code]]",
		"```",
		"",
		"- item one ^dup",
		"- item two ^DUP",
		"",
	].join("\n"),
	"Target.md": ["# Part One", "", "## Detail", "", "A paragraph. ^para-1", ""].join("\n"),
	"Folder/Deep.md": ["---", "title: deep", "---", "# Deep", "", "Back to [[Home]].", ""].join("\n"),
	"Bad.md": ["---", "key: [unclosed", "---", "Text", ""].join("\n"),
	"picture.png": "not really a picture",
};

function outline(metadata: NoteFacts | undefined): unknown {
	if (!metadata) return undefined;
	const inCode = (line: number): boolean =>
		(metadata.codeRanges ?? []).some((range) => range.start.line <= line && line <= range.end.line);
	return {
		headings: metadata.headings.map((heading) => `${heading.level} ${heading.text} @${heading.line}`),
		blockIds: metadata.blockIds.filter((block) => !inCode(block.line)).map((block) => `${block.id} @${block.line}`),
		// In document order: the contract does not fix the order of links (Obsidian lists links before embeds).
		// Links in the frontmatter's properties are not the diagnostics' (a builder without the frontmatter's text has none).
		links: [...metadata.links]
			.sort((a, b) => a.line - b.line || a.start - b.start)
			.filter((link) => !inCode(link.line) && link.line > (metadata.frontmatter?.endLine ?? -1))
			.map(
				(link) =>
					`${link.embed ? "!" : ""}${link.linkpath}${link.subpath === undefined ? "" : `#${link.subpath}`} @${link.line}:${link.start}`,
			),
		frontmatterProblem: metadata.frontmatterProblem ? metadata.frontmatterProblem.range.start.line : undefined,
	};
}

function brief(diagnostics: { code: string; range: { start: { line: number; character: number } } }[]): string[] {
	return diagnostics.map(
		(diagnostic) => `${diagnostic.code} ${diagnostic.range.start.line}:${diagnostic.range.start.character}`,
	);
}

/**
 * What every DiagnosticsNotes means, whoever implements it (the headless file system scanner, Obsidian's metadata cache):
 * the same vault gives the same notes, headings, block ids, links, link targets and diagnostics; a note written
 * behind the host's back is seen by `refreshNote`, as is a note the host has not indexed yet.
 */
export function describeNoteSourceContract(name: string, create: NoteSourceFactory): void {
	describe(`DiagnosticsNotes contract: ${name}`, () => {
		let subject: NoteSourceUnderTest | undefined;
		const open = async (files: Record<string, string> = VAULT): Promise<NoteSourceUnderTest> => {
			subject = await create(files);
			await subject.run(() => subject?.source.refresh() ?? Promise.resolve());
			return subject;
		};
		afterEach(() => {
			subject?.dispose();
			subject = undefined;
		});

		it("lists the Markdown notes, not other files", async () => {
			const { source } = await open();
			expect([...source.notePaths()].sort()).toEqual(["Bad.md", "Folder/Deep.md", "Home.md", "Target.md"]);
			expect(source.facts("picture.png")).toBeUndefined();
		});

		it("reads headings, block ids, links and broken frontmatter the same way", async () => {
			const { source } = await open();
			expect(outline(source.facts("Home.md"))).toEqual({
				headings: ["1 Home @0"],
				blockIds: ["dup @10", "DUP @11"],
				links: [
					"Target @2:4",
					"target#part one @2:16",
					"Target#Part One#Detail @2:37",
					"Target#^para-1 @2:68",
					"Missing note @3:8",
					"Target#No such heading @3:26",
					"Target#^nope @3:54",
					"!gone.png @3:72",
					"!picture.png @4:6",
					"Folder/Deep.md @4:24",
					"deep @4:48",
					"#Home @4:58",
				],
				frontmatterProblem: undefined,
			});
			expect(outline(source.facts("Target.md"))).toMatchObject({
				headings: ["1 Part One @0", "2 Detail @2"],
				blockIds: ["para-1 @4"],
			});
			expect(outline(source.facts("Bad.md"))).toMatchObject({ frontmatterProblem: 1 });
			expect(outline(source.facts("Folder/Deep.md"))).toMatchObject({
				headings: ["1 Deep @3"],
				frontmatterProblem: undefined,
			});
		});

		it("resolves links as Obsidian does: case-insensitive, .md optional, bare names anywhere, attachments", async () => {
			const { source } = await open();
			expect(source.resolveLink("Target", "Home.md")).toBe("Target.md");
			expect(source.resolveLink("target", "Home.md")).toBe("Target.md");
			expect(source.resolveLink("deep", "Home.md")).toBe("Folder/Deep.md");
			expect(source.resolveLink("Folder/Deep.md", "Home.md")).toBe("Folder/Deep.md");
			expect(source.resolveLink("picture.png", "Home.md")).toBe("picture.png");
			expect(source.resolveLink("Missing note", "Home.md")).toBeUndefined();
		});

		it("resolves among the files `exists` accepts as Obsidian would in a vault without the others", async () => {
			const { source } = await open({
				...VAULT,
				"Folder/Target.md": "# Namesake\n",
				"Folder/Other.md": "# Other\n",
				"Elsewhere/Deeper/Other.md": "# Other\n",
			});
			const without =
				(...refused: string[]) =>
				(path: string) =>
					!refused.includes(path);
			expect(source.resolveLink("Other", "Folder/Deep.md")).toBe("Folder/Other.md");
			expect(source.resolveLink("Other", "Folder/Deep.md", without("Folder/Other.md"))).toBe(
				"Elsewhere/Deeper/Other.md",
			);
			expect(source.resolveLink("Other", "Home.md", without("Folder/Other.md"))).toBe(
				"Elsewhere/Deeper/Other.md",
			);
			expect(source.resolveLink("Other", "Home.md", without("Elsewhere/Deeper/Other.md"))).toBe(
				"Folder/Other.md",
			);
			expect(source.resolveLink("Target", "Folder/Deep.md", without("Target.md"))).toBe("Folder/Target.md");
			expect(source.resolveLink("Target", "Home.md", without("Target.md", "Folder/Target.md"))).toBeUndefined();
			expect(source.resolveLink("picture.png", "Home.md", without("picture.png"))).toBeUndefined();
		});

		it("gives the same diagnostics: unresolved links and embeds, missing headings and blocks, duplicate ids, frontmatter", async () => {
			const { source, run } = await open();
			const all = await run(() => new DiagnosticsEngine(source).forVault());
			expect(all.map((note) => [note.path, brief(note.diagnostics)])).toEqual([
				["Bad.md", ["invalid-frontmatter 1:0"]],
				[
					"Home.md",
					[
						"unresolved-link 3:8",
						"missing-heading 3:26",
						"missing-block 3:54",
						"unresolved-embed 3:72",
						"duplicate-block-id 11:11",
					],
				],
			]);
		});

		it("sees a note the CLI rewrote as soon as refreshNote returns", async () => {
			const { source, run, writeExternally } = await open();
			writeExternally("Target.md", "# Renamed heading\n\nNo block here.\n");
			const engine = new DiagnosticsEngine(source);
			expect(brief(await run(() => engine.forNote("Target.md")))).toEqual([]);
			writeExternally("Home.md", "Now [[Target#Part One]] and [[Elsewhere]].\n");
			expect(brief(await run(() => engine.forNote("Home.md")))).toEqual([
				"missing-heading 0:4",
				"unresolved-link 0:28",
			]);
		});

		it("resolves links to a note the CLI just created once it was checked, before the host lists it", async () => {
			const { source, run, writeExternally } = await open();
			writeExternally("Ideas/New idea.md", "# New idea\n");
			writeExternally("Target.md", "See [[New idea]] and [[Ideas/New idea#New idea]].\n");
			const engine = new DiagnosticsEngine(source);
			expect(await run(() => engine.forNote("Ideas/New idea.md"))).toEqual([]);
			expect(brief(await run(() => engine.forNote("Target.md")))).toEqual([]);
		});

		it("treats a note the CLI deleted as gone once it was checked, before the host notices", async () => {
			const { source, run, removeExternally } = await open();
			removeExternally("Target.md");
			const engine = new DiagnosticsEngine(source);
			expect(await run(() => engine.forNote("Target.md"))).toEqual([]);
			expect(source.resolveLink("Target", "Home.md")).toBeUndefined();
		});

		it("leaves out notes under a dot folder, as Obsidian does", async () => {
			const { source, run, writeExternally } = await open();
			writeExternally(".trash/Old.md", "[[Nowhere]]\n");
			const engine = new DiagnosticsEngine(source);
			expect(await run(() => engine.forNote(".trash/Old.md"))).toEqual([]);
			expect([...source.notePaths()]).not.toContain(".trash/Old.md");
		});

		it("checks a note the host has not indexed yet instead of calling it clean", async () => {
			const { source, run, writeExternally } = await open();
			writeExternally("Fresh.md", "Links to [[Nowhere]].\n");
			expect(brief(await run(() => new DiagnosticsEngine(source).forNote("Fresh.md")))).toEqual([
				"unresolved-link 0:9",
			]);
		});
	});
}
