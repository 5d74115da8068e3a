import fc from "fast-check";
import { FolderLinkResolver } from "../../../src/vault/folder/folder-link-resolver";

function indexOf(paths: string[]): FolderLinkResolver {
	const index = new FolderLinkResolver();
	for (const path of paths) index.add(path);
	return index;
}

describe("FolderLinkResolver", () => {
	it("answers the first names asked, found by a pass over the files, as its index by name does", () => {
		const segment = fc.constantFrom("A", "b", "Plan", "plan", "İd", "i̇d", "ΟΔΟΣ", "οδος", "x.md", "Plan.md");
		const file = fc
			.tuple(fc.array(segment, { maxLength: 2 }), segment, fc.constantFrom(".md", ".MD", ".png", ""))
			.map(([folders, name, extension]) => [...folders, `${name}${extension}`].join("/"));
		const linkpath = fc
			.tuple(fc.array(segment, { maxLength: 2 }), segment, fc.constantFrom(".md", ".MD", "", "/", "/.."))
			.map(([folders, name, end]) => [...folders, `${name}${end}`].join("/"));
		fc.assert(
			fc.property(
				fc.uniqueArray(file, { minLength: 1, maxLength: 8 }),
				fc.array(fc.tuple(linkpath, fc.nat()), { minLength: 1, maxLength: 6 }),
				(files, links) => {
					// Made whole: more names asked than are looked up by a pass.
					const indexed = indexOf(files);
					for (let at = 0; at < 10; at++) indexed.resolve(`none ${at}`, files[0] ?? "");
					for (const [link, pick] of links) {
						const source = files[pick % files.length] ?? "";
						expect(indexOf(files).resolve(link, source)).toBe(indexed.resolve(link, source));
					}
				},
			),
			{ numRuns: 300 },
		);
	});
});
