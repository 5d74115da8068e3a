import fc from "fast-check";
import { LinkResolver } from "../../../src/vault/notes/link-resolver";

function indexOf(paths: string[]): LinkResolver {
	const index = new LinkResolver();
	for (const path of paths) index.add(path);
	return index;
}

describe("LinkResolver.resolve", () => {
	const index = indexOf([
		"Home.md",
		"Projects/Plan.md",
		"Archive/Plan.md",
		"Archive/Old/Plan.md",
		"img/Pic.PNG",
		"Version 1.2.md",
		"Projects/Sub/Deep.md",
	]);

	it("matches names case-insensitively anywhere in the vault, with or without .md", () => {
		expect(index.resolve("home", "Projects/Plan.md")).toBe("Home.md");
		expect(index.resolve("HOME.md", "Projects/Plan.md")).toBe("Home.md");
		expect(index.resolve("deep", "Home.md")).toBe("Projects/Sub/Deep.md");
		expect(index.resolve("version 1.2", "Home.md")).toBe("Version 1.2.md");
		expect(index.resolve("pic.png", "Home.md")).toBe("img/Pic.PNG");
	});

	it("needs the extension for files that are not notes", () => {
		expect(index.resolve("Pic", "Home.md")).toBeUndefined();
	});

	it("prefers the source's folder, then the shortest path, for a name used twice", () => {
		expect(index.resolve("Plan", "Archive/Old/Note.md")).toBe("Archive/Old/Plan.md");
		expect(index.resolve("Plan", "Home.md")).toBe("Archive/Plan.md");
		expect(index.resolve("Plan", "Projects/Other.md")).toBe("Projects/Plan.md");
	});

	it("resolves paths from the vault root, relative to the source, and by trailing segments", () => {
		expect(index.resolve("Projects/Plan", "Archive/Plan.md")).toBe("Projects/Plan.md");
		expect(index.resolve("/Archive/Plan.md", "Home.md")).toBe("Archive/Plan.md");
		expect(index.resolve("../Plan.md", "Archive/Old/Note.md")).toBe("Archive/Plan.md");
		expect(index.resolve("./Sub/Deep", "Projects/Plan.md")).toBe("Projects/Sub/Deep.md");
		expect(index.resolve("Old/Plan", "Home.md")).toBe("Archive/Old/Plan.md");
		expect(index.resolve("Sub/Deep.md", "Projects/Plan.md")).toBe("Projects/Sub/Deep.md");
	});

	it("does not resolve what is not there or climbs out of the vault", () => {
		expect(index.resolve("Missing", "Home.md")).toBeUndefined();
		expect(index.resolve("Nope/Plan", "Home.md")).toBeUndefined();
		expect(index.resolve("../../Home.md", "Projects/Plan.md")).toBeUndefined();
		expect(index.resolve("./Home", "Projects/Plan.md")).toBeUndefined();
	});

	it("leads a bare name one file has to it from any folder, and to the closest once a second file takes the name", () => {
		const live = indexOf(["Deep/Down/Only.md", "Elsewhere/Note.md"]);
		for (const source of ["Home.md", "Deep/Down/Note.md", "Elsewhere/Note.md"])
			expect(live.resolve("ONLY", source)).toBe("Deep/Down/Only.md");
		live.add("Else/only.md");
		expect(live.resolve("only", "Else/Note.md")).toBe("Else/only.md");
		expect(live.resolve("only", "Deep/Down/Note.md")).toBe("Deep/Down/Only.md");
		expect(live.resolve("only", "Home.md")).toBe("Else/only.md");
		for (const dots of [".", ".."]) expect(live.resolve(dots, "Deep/Down/Note.md")).toBeUndefined();
	});

	it("resolves an empty link path to the source note itself", () => {
		expect(index.resolve("", "Home.md")).toBe("Home.md");
	});

	it("follows additions and removals and counts them", () => {
		const live = indexOf(["A.md"]);
		const before = live.version;
		live.add("Folder/B.md");
		expect(live.resolve("b", "A.md")).toBe("Folder/B.md");
		live.remove("Folder/B.md");
		expect(live.resolve("b", "A.md")).toBeUndefined();
		expect(live.version).toBe(before + 2);
	});

	it("answers the same whether files came and went before the first link was resolved or after", () => {
		const files = ["A.md", "One/Plan.md", "Two/Plan.md", "Two/pic.png", "Three/Plan.md"];
		const questions: [string, string][] = [
			["Plan", "A.md"],
			["Plan", "Three/x.md"],
			["pic.png", "A.md"],
			["Two/Plan", "A.md"],
			["plan.md", "One/x.md"],
		];
		const answers = (resolver: LinkResolver): (string | undefined)[] =>
			questions.map(([linkpath, source]) => resolver.resolve(linkpath, source));
		const asked = indexOf(files);
		answers(asked);
		const unasked = indexOf(files);
		for (const resolver of [asked, unasked]) {
			resolver.remove("Two/Plan.md");
			resolver.remove("One/Plan.md");
			resolver.add("Four/Plan.md");
		}
		const fresh = indexOf(["A.md", "Two/pic.png", "Three/Plan.md", "Four/Plan.md"]);
		expect(answers(asked)).toEqual(answers(fresh));
		expect(answers(unasked)).toEqual(answers(fresh));
		expect(answers(fresh)).toEqual(["Four/Plan.md", "Three/Plan.md", "Two/pic.png", undefined, "Four/Plan.md"]);
		expect(asked.version).toBe(unasked.version);
	});

	it("answers a question asked before anew once a file is added or removed, and per linking folder", () => {
		const live = indexOf(["Deep/Down/Plan.md", "Notes/A.md"]);
		expect(live.resolve("Plan", "Notes/A.md")).toBe("Deep/Down/Plan.md");
		live.add("Other/Plan.md");
		expect(live.resolve("Plan", "Notes/A.md")).toBe("Other/Plan.md");
		live.add("Notes/Plan.md");
		expect(live.resolve("Plan", "Notes/A.md")).toBe("Notes/Plan.md");
		expect(live.resolve("Plan", "Deep/Down/B.md")).toBe("Deep/Down/Plan.md");
		expect(live.resolve("Plan", "Notes/A.md", (path) => path !== "Notes/Plan.md")).toBe("Other/Plan.md");
		live.remove("Notes/Plan.md");
		expect(live.resolve("Plan", "Notes/A.md")).toBe("Other/Plan.md");
	});

	it("answers a link path spelling a file's whole path (a plain one, kept nowhere) as the full rules do", () => {
		// The full rules, without the shortcut for plain paths or the kept answers.
		const byTheRules = (resolver: LinkResolver, linkpath: string, source: string): string | undefined =>
			(resolver as unknown as { resolveAmong(l: string, s: string): string | undefined }).resolveAmong(
				linkpath,
				source,
			);
		const segment = fc.constantFrom("A", "b", "Area 1", "deep", ".hidden", "Plan", "plan");
		const file = fc
			.tuple(fc.array(segment, { maxLength: 2 }), segment, fc.constantFrom(".md", ".MD", ".png", ""))
			.map(([folders, name, extension]) => [...folders, `${name}${extension}`].join("/"));
		const spelling = fc.tuple(
			fc.constantFrom("as is", "lower", "upper", "without .md", "./ from its folder", "../", "/ first", "\\"),
			fc.nat(),
		);
		fc.assert(
			fc.property(
				fc.uniqueArray(file, { minLength: 1, maxLength: 8 }),
				fc.array(spelling, { maxLength: 6 }),
				(files, spellings) => {
					const resolver = indexOf(files);
					for (const [how, pick] of spellings) {
						const target = files[pick % files.length] ?? "";
						const source = files[(pick >> 3) % files.length] ?? "";
						const folder = source.includes("/") ? source.slice(0, source.lastIndexOf("/")) : "";
						const linkpath =
							how === "lower"
								? target.toLowerCase()
								: how === "upper"
									? target.toUpperCase()
									: how === "without .md"
										? target.replace(/\.md$/i, "")
										: how === "./ from its folder"
											? target.startsWith(`${folder}/`) || folder === ""
												? `./${folder === "" ? target : target.slice(folder.length + 1)}`
												: `./${target}`
											: how === "../"
												? `../${target}`
												: how === "/ first"
													? `/${target}`
													: how === "\\"
														? target.replace(/\//g, "\\")
														: target;
						expect(resolver.resolve(linkpath, source)).toBe(byTheRules(resolver, linkpath, source));
					}
				},
			),
			{ numRuns: 300 },
		);
	});
});
