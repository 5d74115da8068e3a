import { createLinksTool } from "../../../src/vault-tools/tools/links";
import { toolOver, type ToolUnderTest } from "./vault-tool-env";

const TARGET = "Hub/Target.md";
/** 300 notes in three folders; every seventh links to the target (one of them twice), F1's notes are private. */
function notes(): Record<string, string> {
	const files: Record<string, string> = { [TARGET]: "The target, [[Elsewhere]]. [[#Part]]\n" };
	for (let n = 0; n < 300; n++) {
		files[`F${n % 3}/note ${String(n).padStart(3, "0")}.md`] =
			n % 7 === 0
				? `Line one.\nTo [[Target]]${n === 21 ? " and [[Hub/Target|again]]" : ""}.\n`
				: `Plain prose, [[note ${n + 1}]].\n`;
	}
	return files;
}

const isPrivate = (path: string): boolean => path.startsWith("F1/");
const tools: ToolUnderTest[] = [];
afterAll(() => tools.forEach((tool) => tool.dispose()));

function linksTool(pageTimeMs?: number): ToolUnderTest {
	const tool = toolOver((env) => createLinksTool(env, pageTimeMs === undefined ? {} : { pageTimeMs }), notes(), {
		isPrivate,
	});
	tools.push(tool);
	return tool;
}

/** Every page, by the cursor each gives, until one gives none. */
async function allPages(tool: ToolUnderTest, args: Record<string, unknown>): Promise<string[]> {
	const pages: string[] = [];
	for (let cursor: string | undefined; pages.length < 100;) {
		const answer = await tool.call(cursor === undefined ? args : { ...args, cursor });
		expect(answer.isError).toBe(false);
		pages.push(answer.text);
		cursor = /More: cursor "([^"]+)"/.exec(answer.text)?.[1];
		if (cursor === undefined) return pages;
	}
	throw new Error(
		`no last page: ${pages
			.slice(0, 8)
			.map((page) => `${page.split("\n")[0]} / ${page.split("\n").at(-1)}`)
			.join("\n")}`,
	);
}

const entries = (pages: readonly string[]): string[] =>
	pages.flatMap((page) => page.split("\n").filter((line) => /^(in|out) /.test(line)));

describe("links pages in a vault's first session (backlinks from the notes looked at so far)", () => {
	it("says a page is partial only while it is, and its pages hold every backlink once", async () => {
		// Every note read: the reverse index answers whole at once, as before.
		const warm = linksTool();
		await warm.index.refresh();
		for (const path of warm.index.notePaths()) warm.index.warmNote(path);
		const whole = await allPages(warm, { path: TARGET, direction: "in", limit: 10 });
		expect(whole[0]?.split("\n")[0]).toBe(`${TARGET}: 30 backlinks from 29 notes`);
		expect(whole[0]?.split("\n").at(-1)).toMatch(/^\(total 30 links; showing 1-10\. More: cursor "[^"]+"\)$/);
		expect(whole.join("\n")).not.toMatch(/at least|more may follow/);

		// Nothing read, and every page's time up at once: each page looks at a few more notes.
		const first = linksTool(0);
		const pages = await allPages(first, { path: TARGET, direction: "in", limit: 10 });
		expect(pages.length).toBeGreaterThan(3);
		for (const page of pages.slice(0, -1)) {
			const lines = page.split("\n");
			expect(lines[0]).toMatch(
				/^Hub\/Target\.md: at least \d+ backlinks from \d+ notes so far \(still reading the vault: \d+% of its notes looked at\)$/,
			);
			expect(lines.at(-1)).toMatch(/; more may follow\. More: cursor "[^"]+"\)$/);
		}
		const last = pages.at(-1)?.split("\n") ?? [];
		expect(last[0]).toBe(`${TARGET}: 30 backlinks from 29 notes`);
		expect(last.join("\n")).not.toMatch(/at least|more may follow/);
		expect(entries(pages)).toEqual(entries(whole));
		expect(entries(pages).some((line) => line.includes("F1/"))).toBe(false);
	});

	it("keeps the outgoing links first with direction both", async () => {
		const tool = linksTool(0);
		const answer = (await tool.call({ path: TARGET, limit: 5 })).text.split("\n");
		expect(answer[0]).toMatch(/^Hub\/Target\.md: 2 outgoing \(1 unresolved\), at least \d+ backlinks/);
		expect(answer[1]).toMatch(/^out Hub\/Target\.md:1: .*\[\[Elsewhere\]\] → UNRESOLVED$/);
		expect(answer[2]).toMatch(/^out Hub\/Target\.md:1: .*\[\[#Part\]\] → Hub\/Target\.md$/);
	});
});
