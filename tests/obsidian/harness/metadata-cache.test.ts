import { getAllTags, resolveSubpath } from "../../__mocks__/obsidian";
import { createMetadataHarness } from "./metadata-vault";

/** The fake metadata cache behaves as obsidian.d.ts and Obsidian's documented behaviour say (see its comments). */
describe("the fake MetadataCache", () => {
	it("has no cache for a note until the parser ran, then fires changed, resolve and resolved in that order", async () => {
		const { vault, metadataCache } = createMetadataHarness({
			"A.md": "# A\n\n[[B]] [[Nowhere]]\n",
			"B.md": "text\n",
		});
		const file = vault.getFileByPath("A.md");
		if (!file) throw new Error("A.md is missing");
		expect(metadataCache.getFileCache(file)).toBeNull();
		const events: string[] = [];
		metadataCache.on("changed", (changed: { path: string }, data: string) =>
			events.push(`changed ${changed.path} ${data.length}`),
		);
		metadataCache.on("resolve", (resolved: { path: string }) => events.push(`resolve ${resolved.path}`));
		metadataCache.on("resolved", () => events.push("resolved"));
		await metadataCache.parsePending(["A.md"]);
		expect(events).toEqual(["changed A.md 23", "resolve A.md"]);
		await metadataCache.parsePending();
		expect(events).toEqual(["changed A.md 23", "resolve A.md", "changed B.md 5", "resolve B.md", "resolved"]);
		expect(metadataCache.getFileCache(file)?.headings?.map((heading) => heading.heading)).toEqual(["A"]);
		expect(metadataCache.resolvedLinks["A.md"]).toEqual({ "B.md": 1 });
		expect(metadataCache.unresolvedLinks["A.md"]).toEqual({ Nowhere: 1 });
	});

	it("keeps the old cache after an external write until the watcher reports it and the parser runs", async () => {
		const { vault, metadataCache } = createMetadataHarness({ "A.md": "# Old\n" });
		await metadataCache.parsePending();
		vault.writeExternally("A.md", "# New\n");
		const file = vault.getFileByPath("A.md");
		if (!file) throw new Error("A.md is missing");
		expect(metadataCache.pending.size).toBe(0);
		vault.watcherCatchesUp("A.md");
		expect([...metadataCache.pending]).toEqual(["A.md"]);
		expect(metadataCache.getFileCache(file)?.headings?.[0]?.heading).toBe("Old");
		await metadataCache.parsePending();
		expect(metadataCache.getFileCache(file)?.headings?.[0]?.heading).toBe("New");
	});

	it("moves the cache on rename without a changed event, and fires deleted with the previous cache", async () => {
		const { vault, metadataCache } = createMetadataHarness({ "A.md": "# A\n", "B.md": "[[A]]\n" });
		await metadataCache.parsePending();
		const events: string[] = [];
		metadataCache.on("changed", () => events.push("changed"));
		metadataCache.on("deleted", (file: { path: string }, previous: { headings?: unknown[] } | null) =>
			events.push(`deleted ${file.path} ${previous?.headings?.length ?? "null"}`),
		);
		vault.rename("A.md", "Moved.md");
		expect(metadataCache.getCache("Moved.md")?.headings?.length).toBe(1);
		expect(metadataCache.getCache("A.md")).toBeNull();
		expect(metadataCache.unresolvedLinks["B.md"]).toEqual({ A: 1 });
		vault.removeExternally("Moved.md");
		vault.watcherCatchesUp("Moved.md");
		expect(events).toEqual(["deleted Moved.md 1"]);
	});

	it("resolves link paths case-insensitively, without .md, by name anywhere, the one beside the source first", async () => {
		const { metadataCache } = createMetadataHarness({
			"Top.md": "",
			"a/Note.md": "",
			"b/Note.md": "",
			"b/c/Deep.md": "",
			"pic.png": "",
		});
		expect(metadataCache.getFirstLinkpathDest("top", "a/Note.md")?.path).toBe("Top.md");
		expect(metadataCache.getFirstLinkpathDest("Note", "b/x.md")?.path).toBe("b/Note.md");
		expect(metadataCache.getFirstLinkpathDest("Note", "a/x.md")?.path).toBe("a/Note.md");
		expect(metadataCache.getFirstLinkpathDest("c/deep", "Top.md")?.path).toBe("b/c/Deep.md");
		expect(metadataCache.getFirstLinkpathDest("pic.png", "Top.md")?.path).toBe("pic.png");
		expect(metadataCache.getFirstLinkpathDest("Nowhere", "Top.md")).toBeNull();
	});

	it("reads inline tags outside code, as getAllTags reports them with frontmatter tags", async () => {
		const { vault, metadataCache } = createMetadataHarness({
			"A.md": "---\ntags: [front]\n---\n## Heading #inline\n\nText #Secret/health, `#code` and #2024 #y2024\n",
		});
		await metadataCache.parsePending();
		const file = vault.getFileByPath("A.md");
		const cache = file ? metadataCache.getFileCache(file) : null;
		expect(cache?.tags?.map((tag) => `${tag.tag} @${tag.position.start.line}:${tag.position.start.col}`)).toEqual([
			"#inline @3:11",
			"#Secret/health @5:5",
			"#y2024 @5:39",
		]);
		expect(cache ? getAllTags(cache) : null).toEqual(["#inline", "#Secret/health", "#y2024", "#front"]);
	});

	it("resolveSubpath finds nested headings in order and blocks by id, and answers null otherwise", async () => {
		const { vault, metadataCache } = createMetadataHarness({
			"A.md": "# One\n\n## Two: part\n\nText ^Block-1\n\n# Three\n",
		});
		await metadataCache.parsePending();
		const file = vault.getFileByPath("A.md");
		const cache = file ? metadataCache.getFileCache(file) : null;
		if (!cache) throw new Error("A.md was not indexed");
		expect(resolveSubpath(cache, "#one#two part")).toMatchObject({
			type: "heading",
			current: { heading: "Two: part" },
			next: { heading: "Three" },
		});
		expect(resolveSubpath(cache, "#Three#One")).toBeNull();
		expect(resolveSubpath(cache, "#^block-1")).toMatchObject({ type: "block", block: { id: "Block-1" } });
		expect(resolveSubpath(cache, "#^nope")).toBeNull();
	});
});
