import fc from "fast-check";
import { LinkTargetFilter } from "../../../src/vault/folder/link-target-filter";
import { LinkResolver } from "../../../src/vault/notes/link-resolver";
import { linkFactsFromText } from "../../../src/vault/notes/note-facts";

const TARGET = "Hub/Popular Note.md";

/** Whether the filter lets the note through, judged from its text and from its bytes (which must agree). */
function mayLink(filter: LinkTargetFilter, source: string, text: string): boolean {
	const fromText = filter.mayLinkFromText(text);
	expect(filter.mayLinkFromBytes(Buffer.from(text, "utf8"))).toBe(fromText);
	return filter.mayLinkFromPath(source) || fromText;
}

describe("LinkTargetFilter", () => {
	const filter = new LinkTargetFilter(TARGET);

	it("lets through a note that names the target in any case, as written or percent-encoded", () => {
		for (const text of [
			"See [[popular note]].",
			"See [[Hub/POPULAR NOTE.md|x]].",
			"[x](Popular%20Note.md)",
			"[x](%50opular%20N%6Fte.md)",
			"[x](%70OPULAR%20NOTE)",
		])
			expect(mayLink(filter, "Area/a.md", text)).toBe(true);
	});

	it("keeps out a plain ASCII note that cannot name it, with or without escapes", () => {
		for (const text of ["See [[Popular]] and [[Note]].", "[x](Popular%2520Note.md) 100%", "no links"])
			expect(mayLink(filter, "Area/a.md", text)).toBe(false);
	});

	it("lets through the target itself, notes under a folder of its name, and notes it cannot judge", () => {
		expect(mayLink(filter, TARGET, "[[#Part]]")).toBe(true);
		// `../` from a note in `Hub/Popular Note/x/` leads to `Hub/Popular Note`.
		expect(mayLink(filter, "Hub/Popular Note/x/a.md", "[[../]]")).toBe(true);
		expect(mayLink(filter, "Area/a.md", "Café [[x]]")).toBe(true);
		// An escape of a byte outside ASCII may decode to the Kelvin sign, which lower-cases to `k`.
		expect(mayLink(new LinkTargetFilter("k.md"), "a.md", "[x](%E2%84%AA.md)")).toBe(true);
		expect(new LinkTargetFilter("Café.md").mayLinkFromText("nothing")).toBe(true);
		expect(new LinkTargetFilter("50%.md").mayLinkFromText("nothing")).toBe(true);
	});

	it("never keeps out a note with a link that resolves to the file", () => {
		const files = [
			"Hub/Popular Note.md",
			"Popular Note.png",
			"Hub/Popular Note/x/a.md",
			"Area/k.md",
			"Area/K note.md",
			"a.md",
			"Hub/b.md",
		];
		const resolver = new LinkResolver();
		for (const file of files) resolver.add(file);
		const spelling = fc
			.tuple(
				fc.constantFrom(
					"Popular Note",
					"popular note.md",
					"Hub/Popular Note",
					"./Popular Note",
					"../Hub/Popular Note",
					"..\\Popular Note",
					"Popular Note.png",
					"../",
					"./",
					"k",
					"K note",
					"\u212a",
					"a",
					"",
				),
				fc.array(fc.boolean(), { maxLength: 20 }),
				fc.boolean(),
			)
			.map(([path, encode, upper]) => {
				const cased = upper ? path.toUpperCase() : path;
				return { path: cased, encoded: [...cased].map((c, i) => (encode[i] ? encodeURIComponent(c) : c)) };
			});
		const link = fc
			.tuple(spelling, fc.constantFrom("wiki", "markdown", "angle"), fc.constantFrom("", "#Part", "|alias"))
			.map(([{ path, encoded }, kind, tail]) =>
				kind === "wiki"
					? `[[${path}${tail}]]`
					: kind === "angle"
						? `[x](<${encoded.join("").replace(/%20/g, " ")}>)`
						: `[x](${encoded.join("").replace(/ /g, "%20")}${tail.startsWith("#") ? tail : ""})`,
			);
		fc.assert(
			fc.property(fc.constantFrom(...files), fc.array(link, { maxLength: 4 }), (source, links) => {
				const text = `Text ${links.join(" and ")}\n`;
				for (const found of linkFactsFromText(text)) {
					const target = resolver.resolve(found.linkpath, source);
					if (target !== undefined) expect(mayLink(new LinkTargetFilter(target), source, text)).toBe(true);
				}
			}),
			{ numRuns: 500 },
		);
	});
	it("resolves only the link paths that may name the target to tell whether one leads to it", () => {
		const resolved: string[] = [];
		const resolve = (linkpath: string): string | undefined => {
			resolved.push(linkpath);
			return linkpath === "Other/popular NOTE" ? "Other/Popular Note.md" : TARGET;
		};
		const linkpaths = ["a", "Hub/b.md", "Other/popular NOTE", "sub\\Popular Note.md", "x/..", "c"];
		expect(filter.leadsTo(linkpaths, resolve)).toBe(true);
		expect(resolved).toEqual(["Other/popular NOTE", "sub\\Popular Note.md"]);
		resolved.length = 0;
		expect(filter.leadsTo(["a", "Popular", "Popular Note/"], resolve)).toBe(true);
		expect(resolved).toEqual(["Popular Note/"]);
		expect(filter.leadsTo(["a", "b"], resolve)).toBe(false);
	});
});
