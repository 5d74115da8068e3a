import { DiagnosticsEngine } from "../../../../src/ide/diagnostics/diagnostics-engine";
import { MemoryDiagnosticsNotes } from "../../../vault/notes/memory-diagnostics-notes";

function engineFor(files: Record<string, string>) {
	const source = new MemoryDiagnosticsNotes(files);
	return { source, engine: new DiagnosticsEngine(source) };
}

function brief(
	diagnostics: {
		code: string;
		severity: string;
		range: { start: { line: number; character: number }; end: { line: number; character: number } };
	}[],
) {
	return diagnostics.map(
		({ code, severity, range }) =>
			`${code} ${severity} ${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character}`,
	);
}

describe("rule: unresolved links and embeds", () => {
	it("reports missing notes, files and Markdown link targets at the link's exact range", async () => {
		const { engine } = engineFor({
			"Home.md":
				"😀 [[Missing]] [[Present]] [[present|alias]]\n![[missing.png]] ![[pic.png]]\n[x](Missing%20Too.md) [y](Present.md) [z](https://example.com)",
			"Present.md": "",
			"pic.png": "",
		});
		const diagnostics = await engine.forNote("Home.md");
		expect(brief(diagnostics)).toEqual([
			"unresolved-link Warning 0:3-0:14",
			"unresolved-embed Warning 1:0-1:16",
			"unresolved-link Warning 2:0-2:21",
		]);
		expect(diagnostics[0]).toMatchObject({
			source: "Obsidian",
			message: 'Unresolved link: no note or file named or at "Missing" in the vault',
		});
		expect(diagnostics[2]?.message).toContain('"Missing Too.md"');
	});

	it("does not count links in code blocks, inline code or comments", async () => {
		const { engine } = engineFor({
			"Home.md": "```\n[[Missing]]\n```\n`[[Missing]]` %%[[Missing]]%% <!-- [[Missing]] -->",
		});
		expect(await engine.forNote("Home.md")).toEqual([]);
	});
});

describe("rule: missing headings and block ids", () => {
	const files = {
		"Home.md": [
			"# Top",
			"[[Target#Part One]] [[Target#part one]] [[Target#Part: One]] [[Target#No such heading]]",
			"[[Target#^blk]] [[Target#^BLK]] [[Target#^nope]] [[#Top]] [[#Nowhere]] [[#^here]]",
			"[[Target#Part One#Detail]] [[Target#Detail#Part One]] [[doc.pdf#page=3]]",
			"[a](Target.md#Part%20One) [b](#Missing%20part)",
			"Local block ^here",
		].join("\n"),
		"Target.md": "# Part One\ntext ^blk\n## Detail",
		"doc.pdf": "",
	};

	it("reports only the subpaths the target lacks, comparing headings and ids case-insensitively", async () => {
		const { engine } = engineFor(files);
		const diagnostics = await engine.forNote("Home.md");
		expect(brief(diagnostics)).toEqual([
			"missing-heading Warning 1:61-1:87",
			"missing-block Warning 2:32-2:48",
			"missing-heading Warning 2:58-2:70",
			"missing-heading Warning 3:27-3:53",
			"missing-heading Warning 4:26-4:46",
		]);
		expect(diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
			'Heading not found: "Target" has no heading "No such heading"',
			'Block not found: "Target" has no block with id ^nope',
			'Heading not found: This note has no heading "Nowhere"',
			'Heading not found: "Target" has no heading "Detail#Part One"',
			'Heading not found: This note has no heading "Missing part"',
		]);
	});
});

describe("rule: invalid frontmatter", () => {
	it("reports an Error on the bad line and nothing for valid frontmatter", async () => {
		const { engine } = engineFor({
			"Bad.md": "---\ntitle: ok\ntitle: again\n---\n",
			"Good.md": "---\ntitle: ok\n---\n",
		});
		expect(brief(await engine.forNote("Bad.md"))).toEqual(["invalid-frontmatter Error 2:0-2:12"]);
		expect(await engine.forNote("Good.md")).toEqual([]);
	});
});

describe("rule: duplicate block ids", () => {
	it("reports every repeat (case-insensitive) on its ^id, naming the first line", async () => {
		const { engine } = engineFor({ "Home.md": "One ^dup\nTwo ^other\n\nThree ^DUP\n- four ^dup" });
		const diagnostics = await engine.forNote("Home.md");
		expect(brief(diagnostics)).toEqual([
			"duplicate-block-id Warning 3:6-3:10",
			"duplicate-block-id Warning 4:7-4:11",
		]);
		expect(diagnostics[0]?.message).toBe(
			"Duplicate block id ^DUP: already used on line 1 of this note, so links to it reach only one block",
		);
	});
});

describe("DiagnosticsEngine", () => {
	it("lists only notes with problems, sorted by path, and [] for non-notes and missing paths", async () => {
		const { engine } = engineFor({ "b.md": "[[x]]", "a.md": "[[y]]", "ok.md": "[[a]]", "pic.png": "" });
		expect((await engine.forVault()).map((note) => note.path)).toEqual(["a.md", "b.md"]);
		expect(await engine.forNote("pic.png")).toEqual([]);
		expect(await engine.forNote("nope.md")).toEqual([]);
	});

	it("updates other notes' results when files appear or disappear, or headings change", async () => {
		const { source, engine } = engineFor({ "Home.md": "[[Later]] [[Target#Part]]", "Target.md": "# Part" });
		expect(brief((await engine.forVault())[0]?.diagnostics ?? [])).toEqual(["unresolved-link Warning 0:0-0:9"]);
		source.write("Later.md", "");
		expect(await engine.forVault()).toEqual([]);
		source.write("Target.md", "# Renamed part");
		expect(brief((await engine.forVault())[0]?.diagnostics ?? [])).toEqual(["missing-heading Warning 0:10-0:25"]);
		source.remove("Target.md");
		expect((await engine.forVault())[0]?.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
			"unresolved-link",
		]);
	});

	it("returns the cached results when nothing changed", async () => {
		const { engine } = engineFor({ "Home.md": "[[Missing]]" });
		const first = await engine.forVault();
		const second = await engine.forVault();
		expect(second[0]?.diagnostics).toBe(first[0]?.diagnostics);
	});

	it("ignores links and block ids that a producer reports inside code ranges", async () => {
		const { source, engine } = engineFor({ "Home.md": "" });
		const metadata = source.facts("Home.md");
		if (!metadata) throw new Error("no metadata");
		metadata.links.push({ embed: false, linkpath: "Missing", original: "[[Missing]]", line: 1, start: 0, end: 11 });
		metadata.codeRanges = [{ start: { line: 0, character: 0 }, end: { line: 2, character: 3 } }];
		expect(await engine.forNote("Home.md")).toEqual([]);
	});
});
