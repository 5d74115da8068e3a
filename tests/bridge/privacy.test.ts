import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { normaliseTag, PrivacyFilter, type PrivacyRules } from "../../src/bridge/privacy";
import { VaultPaths } from "../../src/bridge/vault-paths";
import { makeTempDir } from "../helpers/temp-dir";

describe("PrivacyFilter", () => {
	const temp = makeTempDir("privacy");
	const vault = join(temp.path, "vault");
	let paths: VaultPaths;
	const tags = new Map<string, string[]>();
	let rules: PrivacyRules = { folders: [], tags: [] };
	const tagLookups: string[] = [];

	beforeAll(() => {
		mkdirSync(vault);
		paths = new VaultPaths(vault);
	});
	afterAll(() => temp.remove());
	beforeEach(() => {
		rules = { folders: [], tags: [] };
		tags.clear();
		tagLookups.length = 0;
	});

	const filter = () =>
		new PrivacyFilter(
			paths,
			() => rules,
			(relativePath) => {
				tagLookups.push(relativePath);
				return tags.get(relativePath) ?? [];
			},
		);

	describe("folders", () => {
		it("make every note in them private, nested ones included", () => {
			rules.folders = ["Private"];
			const privacy = filter();
			expect(privacy.isPrivateRelative("Private/a.md")).toBe(true);
			expect(privacy.isPrivateRelative("Private/Deep/er/b.md")).toBe(true);
			expect(privacy.isPrivateRelative("Private")).toBe(true);
		});

		it("match whole folder names only, not prefixes or the same name deeper down", () => {
			rules.folders = ["Private"];
			const privacy = filter();
			expect(privacy.isPrivateRelative("Private notes/a.md")).toBe(false);
			expect(privacy.isPrivateRelative("PrivateX.md")).toBe(false);
			expect(privacy.isPrivateRelative("Public/Private/a.md")).toBe(false);
		});

		it("can be nested paths themselves", () => {
			rules.folders = ["Work/Clients"];
			const privacy = filter();
			expect(privacy.isPrivateRelative("Work/Clients/acme.md")).toBe(true);
			expect(privacy.isPrivateRelative("Work/Other.md")).toBe(false);
			expect(privacy.isPrivateRelative("Work/ClientsList.md")).toBe(false);
		});

		it.each(["Private/", "/Private", "/Private/", "  Private  ", "Private//", "Private\\"])("ignore leading/trailing slashes and spaces (%j)", (folder) => {
			rules.folders = [folder];
			expect(filter().isPrivateRelative("Private/a.md")).toBe(true);
		});

		it("accept backslash separators in a rule", () => {
			rules.folders = ["Work\\Clients"];
			expect(filter().isPrivateRelative("Work/Clients/a.md")).toBe(true);
		});

		it("an empty rule or '/' does not make the whole vault private", () => {
			rules.folders = ["", "/", "   "];
			expect(filter().isPrivateRelative("a.md")).toBe(false);
		});

		it("are read on every call, so a settings change applies at once", () => {
			const privacy = filter();
			expect(privacy.isPrivateRelative("Private/a.md")).toBe(false);
			rules = { folders: ["Private"], tags: [] };
			expect(privacy.isPrivateRelative("Private/a.md")).toBe(true);
		});
	});

	describe("tags", () => {
		it("with or without '#' in the rule or in the note", () => {
			tags.set("a.md", ["#secret"]);
			tags.set("b.md", ["secret"]);
			for (const rule of ["secret", "#secret"]) {
				rules.tags = [rule];
				const privacy = filter();
				expect(privacy.isPrivateRelative("a.md")).toBe(true);
				expect(privacy.isPrivateRelative("b.md")).toBe(true);
			}
		});

		it("case-insensitively", () => {
			tags.set("a.md", ["#Secret"]);
			rules.tags = ["SECRET"];
			expect(filter().isPrivateRelative("a.md")).toBe(true);
		});

		it("nested tags below a rule count, parents and look-alikes do not", () => {
			tags.set("child.md", ["#secret/health"]);
			tags.set("parent.md", ["#journal"]);
			tags.set("lookalike.md", ["#secrets", "#topsecret"]);
			rules.tags = ["#secret", "journal/private"];
			const privacy = filter();
			expect(privacy.isPrivateRelative("child.md")).toBe(true);
			expect(privacy.isPrivateRelative("parent.md")).toBe(false);
			expect(privacy.isPrivateRelative("lookalike.md")).toBe(false);
		});

		it("one matching tag among many is enough", () => {
			tags.set("a.md", ["#work", "#idea", "#Secret/x"]);
			rules.tags = ["secret"];
			expect(filter().isPrivateRelative("a.md")).toBe(true);
		});

		it("empty rules ('' or '#') match nothing", () => {
			tags.set("a.md", ["#x"]);
			rules.tags = ["", "#", "  "];
			expect(filter().isPrivateRelative("a.md")).toBe(false);
		});

		it("are not looked up when there are no tag rules (cheap for every selection change)", () => {
			rules.folders = ["Private"];
			filter().isPrivateRelative("a.md");
			expect(tagLookups).toEqual([]);
		});

		it("normaliseTag strips one '#', spaces and case", () => {
			expect(normaliseTag("  #Work/Clients ")).toBe("work/clients");
			expect(normaliseTag("plain")).toBe("plain");
		});
	});

	describe("isPrivateAbsolute", () => {
		it("resolves absolute paths and file URIs inside the vault to the same rules", () => {
			rules.folders = ["Private"];
			tags.set("Notes/t.md", ["#secret"]);
			rules.tags = ["secret"];
			const privacy = filter();
			expect(privacy.isPrivateAbsolute(join(vault, "Private", "a.md"))).toBe(true);
			expect(privacy.isPrivateAbsolute(`file://${join(vault, "Private", "a.md")}`)).toBe(true);
			expect(privacy.isPrivateAbsolute(join(vault, "Notes", "t.md"))).toBe(true);
			expect(privacy.isPrivateAbsolute(join(vault, "Notes", "open.md"))).toBe(false);
			expect(tagLookups).toContain("Notes/t.md");
		});

		it("judges a symlink inside the vault by its target too (no way around a private folder)", () => {
			mkdirSync(join(vault, "Private"), { recursive: true });
			mkdirSync(join(vault, "Public"), { recursive: true });
			writeFileSync(join(vault, "Private", "diary.md"), "x");
			symlinkSync(join(vault, "Private", "diary.md"), join(vault, "Public", "alias.md"));
			symlinkSync(join(vault, "Private"), join(vault, "Public", "folder-alias"));
			rules.folders = ["Private"];
			const privacy = filter();
			expect(privacy.isPrivateRelative("Public/alias.md")).toBe(false);
			expect(privacy.isPrivateAbsolute(join(vault, "Public", "alias.md"))).toBe(true);
			expect(privacy.isPrivateAbsolute(join(vault, "Public", "folder-alias", "diary.md"))).toBe(true);
			rules.folders = [];
			expect(privacy.isPrivateAbsolute(join(vault, "Public", "alias.md"))).toBe(false);
		});

		it("counts everything outside the vault as private (nothing from elsewhere is ever broadcast)", () => {
			const privacy = filter();
			expect(privacy.isPrivateAbsolute("/etc/passwd")).toBe(true);
			expect(privacy.isPrivateAbsolute(join(vault, "..", "elsewhere.md"))).toBe(true);
			expect(privacy.isPrivateAbsolute("")).toBe(true);
			expect(privacy.isPrivateAbsolute("a\0b")).toBe(true);
		});

		it("lets errors other than path refusals through (a broken tag lookup is not silently 'public')", () => {
			rules.tags = ["x"];
			const privacy = new PrivacyFilter(
				paths,
				() => rules,
				() => {
					throw new Error("metadata cache exploded");
				},
			);
			expect(() => privacy.isPrivateAbsolute(join(vault, "a.md"))).toThrow("metadata cache exploded");
		});
	});
});
