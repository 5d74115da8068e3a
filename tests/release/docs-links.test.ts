import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

/** The README stays short, and every page it leads to, and every link between them, is there. */
const ROOT = join(__dirname, "..", "..");
const PAGES = [
	"README.md",
	...readdirSync(join(ROOT, "docs")).flatMap((name) => (name.endsWith(".md") ? [`docs/${name}`] : [])),
];

/** The Markdown a reader sees: without fenced code blocks and HTML comments (their links are not links). */
function rendered(markdown: string): string {
	return markdown.replace(/^```[\s\S]*?^```$/gm, "").replace(/<!--[\s\S]*?-->/g, "");
}

/** GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const anchors = new Set<string>();
	for (const match of rendered(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
		const base = (match[1] ?? "")
			.trim()
			.toLowerCase()
			.replace(/[^\p{L}\p{N} _-]/gu, "")
			.replace(/ /g, "-");
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	return anchors;
}

/** Each relative link of a page (images included): its text as written, the file it names, the anchor. */
function relativeLinks(page: string): { link: string; file: string; anchor: string | undefined }[] {
	const markdown = readFileSync(join(ROOT, page), "utf8");
	return [...rendered(markdown).matchAll(/\]\(([^)\s]+)\)/g)]
		.map((match) => match[1] ?? "")
		.filter((link) => !/^[a-z]+:/i.test(link))
		.map((link) => {
			const [path = "", anchor] = link.split("#");
			const file = path === "" ? page : relative(ROOT, join(ROOT, dirname(page), path));
			return { link, file, anchor };
		});
}

describe("the README and docs/", () => {
	it("keep the README at 400 lines at most", () => {
		const lines = readFileSync(join(ROOT, "README.md"), "utf8").split("\n").length;
		expect(lines).toBeLessThanOrEqual(400);
	});

	it("hold the pages the README leads to", () => {
		expect(PAGES).toEqual(
			expect.arrayContaining([
				"docs/security.md",
				"docs/benchmarks.md",
				"docs/developers.md",
				"docs/vault-tools.md",
				"docs/panel.md",
			]),
		);
		const fromReadme = new Set(relativeLinks("README.md").map((link) => link.file));
		expect(PAGES.filter((page) => page !== "README.md" && !fromReadme.has(page))).toEqual([]);
	});

	it.each(PAGES)("%s links only to files that exist, and to headings that exist in Markdown files", (page) => {
		const links = relativeLinks(page);
		if (page === "README.md") expect(links.length).toBeGreaterThan(10);
		const broken = links.filter(({ file, anchor }) => {
			if (!existsSync(join(ROOT, file))) return true;
			if (anchor === undefined || !file.endsWith(".md")) return false;
			return !anchorsOf(readFileSync(join(ROOT, file), "utf8")).has(anchor);
		});
		expect(broken.map(({ link }) => link)).toEqual([]);
	});

	it("reads anchors as GitHub makes them, and no links in code blocks or comments", () => {
		expect(anchorsOf("# Tag a note, review an edit\n## Add Claude's vault tools\n## Notes\n## Notes\n")).toEqual(
			new Set(["tag-a-note-review-an-edit", "add-claudes-vault-tools", "notes", "notes-1"]),
		);
		expect(rendered("see [x](a.md)\n<!-- [y](b.md) -->\n```\n[z](c.md)\n```\n")).not.toMatch(/b\.md|c\.md/);
	});
});
