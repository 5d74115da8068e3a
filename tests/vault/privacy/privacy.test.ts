import type { PathKey } from "../../../src/vault/path-identity";
import fc from "fast-check";
import {
	isHidden,
	normaliseTag,
	PrivacyFilter,
	TAGS_NOT_KNOWN,
	type PrivacyRules,
} from "../../../src/vault/privacy/privacy";

describe("PrivacyFilter", () => {
	const tags = new Map<string, string[]>();
	let rules: PrivacyRules = { folders: [], tags: [] };
	const tagLookups: string[] = [];

	beforeEach(() => {
		rules = { folders: [], tags: [] };
		tags.clear();
		tagLookups.length = 0;
	});

	const filter = () =>
		new PrivacyFilter(
			() => rules,
			(relativePath) => {
				tagLookups.push(relativePath);
				return tags.get(relativePath) ?? [];
			},
		);

	describe("pathOnlyDecisions", () => {
		it("stays the same while the rules do and no tag rule is set; changes with them; is undefined with a tag rule", () => {
			rules = { folders: ["Private"], tags: [] };
			const privacy = filter();
			const first = privacy.pathOnlyDecisions();
			expect(first).toBeDefined();
			rules = { folders: ["Private"], tags: [] };
			expect(privacy.pathOnlyDecisions()).toBe(first);
			rules = { folders: ["Private", "Secret"], tags: [] };
			const second = privacy.pathOnlyDecisions();
			expect(second).toBeDefined();
			expect(second).not.toBe(first);
			rules = { folders: [], tags: ["private"] };
			expect(privacy.pathOnlyDecisions()).toBeUndefined();
		});
	});

	describe("rules that cannot be read", () => {
		it("make every note private, without asking for tags, until they can be read again", () => {
			rules = { folders: ["Private"], tags: [], unreadable: "the privacy settings cannot be read" };
			const privacy = filter();
			for (const path of ["Public/a.md", "a.md", "Private/b.md"])
				expect({ path, hidden: privacy.isPrivate({ relative: path }) }).toEqual({ path, hidden: true });
			expect(privacy.isInPrivateFolder("Public/link-target.md")).toBe(true);
			expect(tagLookups).toEqual([]);
			rules = { folders: ["Private"], tags: [] };
			expect(privacy.isPrivate({ relative: "Public/a.md" })).toBe(false);
		});
	});

	describe("folders", () => {
		it("make every note in them private, nested ones included", () => {
			rules.folders = ["Private"];
			const privacy = filter();
			expect(privacy.isPrivate({ relative: "Private/a.md" })).toBe(true);
			expect(privacy.isPrivate({ relative: "Private/Deep/er/b.md" })).toBe(true);
			expect(privacy.isPrivate({ relative: "Private" })).toBe(true);
		});

		it("match whole folder names only, not prefixes or the same name deeper down", () => {
			rules.folders = ["Private"];
			const privacy = filter();
			expect(privacy.isPrivate({ relative: "Private notes/a.md" })).toBe(false);
			expect(privacy.isPrivate({ relative: "PrivateX.md" })).toBe(false);
			expect(privacy.isPrivate({ relative: "Public/Private/a.md" })).toBe(false);
		});

		it("can be nested paths themselves", () => {
			rules.folders = ["Work/Clients"];
			const privacy = filter();
			expect(privacy.isPrivate({ relative: "Work/Clients/acme.md" })).toBe(true);
			expect(privacy.isPrivate({ relative: "Work/Other.md" })).toBe(false);
			expect(privacy.isPrivate({ relative: "Work/ClientsList.md" })).toBe(false);
		});

		it.each(["Private/", "/Private", "/Private/", "  Private  ", "Private//", "Private\\"])(
			"ignore leading/trailing slashes and spaces (%j)",
			(folder) => {
				rules.folders = [folder];
				expect(filter().isPrivate({ relative: "Private/a.md" })).toBe(true);
			},
		);

		it("accept backslash separators in a rule", () => {
			rules.folders = ["Work\\Clients"];
			expect(filter().isPrivate({ relative: "Work/Clients/a.md" })).toBe(true);
		});

		it("an empty rule or '/' does not make the whole vault private", () => {
			rules.folders = ["", "/", "   "];
			expect(filter().isPrivate({ relative: "a.md" })).toBe(false);
		});

		it("are read on every call, so a settings change applies at once", () => {
			const privacy = filter();
			expect(privacy.isPrivate({ relative: "Private/a.md" })).toBe(false);
			rules = { folders: ["Private"], tags: [] };
			expect(privacy.isPrivate({ relative: "Private/a.md" })).toBe(true);
		});
	});

	describe("tags", () => {
		it("with or without '#' in the rule or in the note", () => {
			tags.set("a.md", ["#secret"]);
			tags.set("b.md", ["secret"]);
			for (const rule of ["secret", "#secret"]) {
				rules.tags = [rule];
				const privacy = filter();
				expect(privacy.isPrivate({ relative: "a.md" })).toBe(true);
				expect(privacy.isPrivate({ relative: "b.md" })).toBe(true);
			}
		});

		it("case-insensitively", () => {
			tags.set("a.md", ["#Secret"]);
			rules.tags = ["SECRET"];
			expect(filter().isPrivate({ relative: "a.md" })).toBe(true);
		});

		it("nested tags below a rule count, parents and look-alikes do not", () => {
			tags.set("child.md", ["#secret/health"]);
			tags.set("parent.md", ["#journal"]);
			tags.set("lookalike.md", ["#secrets", "#topsecret"]);
			rules.tags = ["#secret", "journal/private"];
			const privacy = filter();
			expect(privacy.isPrivate({ relative: "child.md" })).toBe(true);
			expect(privacy.isPrivate({ relative: "parent.md" })).toBe(false);
			expect(privacy.isPrivate({ relative: "lookalike.md" })).toBe(false);
		});

		it("one matching tag among many is enough", () => {
			tags.set("a.md", ["#work", "#idea", "#Secret/x"]);
			rules.tags = ["secret"];
			expect(filter().isPrivate({ relative: "a.md" })).toBe(true);
		});

		it("empty rules ('' or '#') match nothing", () => {
			tags.set("a.md", ["#x"]);
			rules.tags = ["", "#", "  "];
			expect(filter().isPrivate({ relative: "a.md" })).toBe(false);
		});

		it("are not looked up when there are no tag rules (cheap for every selection change)", () => {
			rules.folders = ["Private"];
			filter().isPrivate({ relative: "a.md" });
			expect(tagLookups).toEqual([]);
		});

		it("paths are not keyed (normalised, case-folded) when there are no folder rules: the vault tools judge every note on every call", () => {
			const keyed: string[] = [];
			const identity: PathKey = { key: (path) => (keyed.push(path), path.toLowerCase()) };
			const privacy = new PrivacyFilter(
				() => rules,
				() => [],
				identity,
			);
			expect(privacy.isPrivateRelative("Notes/a.md")).toBe(false);
			expect(privacy.isInPrivateFolder("Notes/b.md")).toBe(false);
			expect(keyed).toEqual([]);
			rules.folders = ["Notes"];
			expect(privacy.isPrivateRelative("Notes/a.md")).toBe(true);
			expect(keyed).toContain("Notes/a.md");
		});

		it("normaliseTag strips one '#', spaces and case", () => {
			expect(normaliseTag("  #Work/Clients ")).toBe("work/clients");
			expect(normaliseTag("plain")).toBe("plain");
		});
	});

	describe("symbolic links and hidden folders", () => {
		it("judges a location by its real path too (a symbolic link is no way around a private folder)", () => {
			rules.folders = ["Private"];
			const privacy = filter();
			expect(privacy.isPrivate({ relative: "Public/alias.md" })).toBe(false);
			expect(privacy.isPrivate({ relative: "Public/alias.md", realRelative: "Private/diary.md" })).toBe(true);
			rules.folders = [];
			expect(privacy.isPrivate({ relative: "Public/alias.md", realRelative: "Private/diary.md" })).toBe(false);
		});

		it.each([".vault-config/plugins/p/data.json", ".git/config", "Notes/.trash/old.md", ".hidden.md"])(
			"counts anything in a hidden (dot) folder or file as private (%s)",
			(path) => {
				expect(filter().isPrivate({ relative: path })).toBe(true);
			},
		);

		it("isHidden: a path part starting with a dot, wherever it is (checked against splitting the path)", () => {
			fc.assert(
				fc.property(fc.array(fc.constantFrom("a", ".", "/", "b.md", ".x", ""), { maxLength: 8 }), (parts) => {
					const path = parts.join("");
					expect(isHidden(path)).toBe(path.split("/").some((segment) => segment.startsWith(".")));
				}),
			);
		});

		it("counts a symbolic link into a hidden folder as private", () => {
			expect(
				filter().isPrivate({
					relative: "Notes/config.json",
					realRelative: ".vault-config/plugins/p/data.json",
				}),
			).toBe(true);
			expect(filter().isPrivate({ relative: "Notes/a.md" })).toBe(false);
		});

		it("lets a failing tag lookup through (a broken lookup is not silently 'public')", () => {
			rules.tags = ["x"];
			const privacy = new PrivacyFilter(
				() => rules,
				() => {
					throw new Error("metadata cache exploded");
				},
			);
			expect(() => privacy.isPrivate({ relative: "a.md" })).toThrow("metadata cache exploded");
		});
	});

	describe("one canonical identity (issue 11, finding 3)", () => {
		const caseSensitive: PathKey = { key: (path) => path.normalize("NFC") };

		it("compares folders in Unicode NFC: a folder stored in NFD matches a rule typed in NFC, and the other way round", () => {
			rules.folders = ["Caf\u00e9"];
			expect(filter().isPrivate({ relative: "Cafe\u0301/menu.md" })).toBe(true);
			rules.folders = ["Cafe\u0301"];
			expect(filter().isPrivate({ relative: "Caf\u00e9/menu.md" })).toBe(true);
		});

		it("folds case by default (no identity given: the safe side) and follows the identity it is given", () => {
			rules.folders = ["secret"];
			expect(filter().isPrivate({ relative: "SECRET/a.md" })).toBe(true);
			const sensitive = new PrivacyFilter(
				() => rules,
				() => [],
				caseSensitive,
			);
			expect(sensitive.isPrivate({ relative: "SECRET/a.md" })).toBe(false);
			expect(sensitive.isPrivate({ relative: "secret/a.md" })).toBe(true);
		});

		it("compares tags in NFC too", () => {
			rules.tags = ["#caf\u00e9"];
			tags.set("a.md", ["#cafe\u0301"]);
			expect(filter().isPrivate({ relative: "a.md" })).toBe(true);
		});

		it("re-reads changed rules at once", () => {
			const privacy = filter();
			rules.folders = ["One"];
			expect(privacy.isPrivate({ relative: "One/a.md" })).toBe(true);
			rules.folders.push("Two");
			expect(privacy.isPrivate({ relative: "Two/a.md" })).toBe(true);
			rules.folders[0] = "Three";
			expect(privacy.isPrivate({ relative: "One/a.md" })).toBe(false);
			expect(privacy.isPrivate({ relative: "Three/a.md" })).toBe(true);
			rules = { folders: [], tags: [] };
			expect(privacy.isPrivate({ relative: "One/a.md" })).toBe(false);
		});
	});

	describe("tags not known yet (issue 11, finding 7)", () => {
		it("make a note private while any tag rule is set, and count for nothing without tag rules", () => {
			const unknown = (answer: readonly string[] | undefined) =>
				new PrivacyFilter(
					() => rules,
					() => answer,
				);
			rules.tags = ["#private"];
			expect(unknown(TAGS_NOT_KNOWN).isPrivate({ relative: "a.md" })).toBe(true);
			expect(unknown(undefined).isPrivate({ relative: "a.md" })).toBe(true);
			expect(unknown([]).isPrivate({ relative: "a.md" })).toBe(false);
			rules.tags = [];
			expect(unknown(TAGS_NOT_KNOWN).isPrivate({ relative: "a.md" })).toBe(false);
		});
	});

	describe("isInPrivateFolder and isPrivateRelative", () => {
		it("judge a path that may not exist by folder and hidden rules only; isPrivateRelative adds the tags", () => {
			rules = { folders: ["Secret"], tags: ["#private"] };
			tags.set("Notes/tagged.md", ["#private"]);
			const privacy = filter();
			expect(privacy.isInPrivateFolder("Secret/ghost")).toBe(true);
			expect(privacy.isInPrivateFolder(".config/ghost")).toBe(true);
			expect(privacy.isInPrivateFolder("Notes/tagged.md")).toBe(false);
			expect(tagLookups).toEqual([]);
			expect(privacy.isPrivateRelative("Notes/tagged.md")).toBe(true);
			expect(privacy.isPrivateRelative("Notes/open.md")).toBe(false);
		});
	});
});
