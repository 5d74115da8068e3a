import {
	denyRulesFor,
	escapeGitignore,
	escapeRuleContent,
	normaliseFolder,
} from "../../../src/ide/claude-permissions/deny-rules";

/** A renamed config folder (users can rename `.obsidian`); the rules use whatever name the vault has. */
const CONFIG_DIR = ".vault-config";

describe("denyRulesFor", () => {
	it("denies Read and Edit of each private folder, the config folder and the trash, the folder itself and all below", () => {
		const { rules, folders } = denyRulesFor({
			folders: ["Secret", " Diary/2024/ "],
			configDirs: [CONFIG_DIR],
			tags: [],
		});
		expect(folders).toEqual(["Secret", "Diary/2024", ".vault-config", ".trash"]);
		expect(rules).toEqual([
			"Read(./Secret)",
			"Read(./Secret/**)",
			"Edit(./Secret)",
			"Edit(./Secret/**)",
			"Read(./Diary/2024)",
			"Read(./Diary/2024/**)",
			"Edit(./Diary/2024)",
			"Edit(./Diary/2024/**)",
			"Read(./.vault-config)",
			"Read(./.vault-config/**)",
			"Edit(./.vault-config)",
			"Edit(./.vault-config/**)",
			"Read(./.trash)",
			"Read(./.trash/**)",
			"Edit(./.trash)",
			"Edit(./.trash/**)",
		]);
	});

	it("writes only Read and Edit rules, the only path rules the CLI's file checks use", () => {
		const { rules } = denyRulesFor({ folders: ["A"], configDirs: [CONFIG_DIR], tags: [] });
		expect(rules.every((rule) => /^(Read|Edit)\(/.test(rule))).toBe(true);
	});

	it("drops duplicates, empty entries and folders outside the vault", () => {
		const { folders } = denyRulesFor({
			folders: ["A", "/A/", "", "../outside", "./B"],
			configDirs: [CONFIG_DIR],
			tags: [],
		});
		expect(folders).toEqual(["A", "B", ".vault-config", ".trash"]);
	});

	it("says that private tags and shell commands are not covered", () => {
		const { uncovered } = denyRulesFor({ folders: [], configDirs: [CONFIG_DIR], tags: ["private", "#secret"] });
		expect(uncovered.join("\n")).toContain("#private, #secret");
		expect(uncovered.join("\n")).toMatch(/Bash/);
		expect(denyRulesFor({ folders: [], configDirs: [CONFIG_DIR], tags: [] }).uncovered.join("\n")).not.toMatch(
			/tag/,
		);
	});
});

describe("escaping", () => {
	it("escapes gitignore wildcards so a folder name is taken literally", () => {
		expect(escapeGitignore("Notes [old]*?")).toBe("Notes \\[old\\]\\*\\?");
	});

	it("escapes what the CLI's rule parser unescapes: backslashes first, then parentheses", () => {
		expect(escapeRuleContent("./My (old) notes/**")).toBe("./My \\(old\\) notes/**");
		expect(escapeRuleContent("./a\\*b")).toBe("./a\\\\*b");
		expect(denyRulesFor({ folders: ["Work (2024)"], configDirs: [CONFIG_DIR], tags: [] }).rules[1]).toBe(
			"Read(./Work \\(2024\\)/**)",
		);
	});

	it("normalises folders as the privacy rules do", () => {
		expect(normaliseFolder("\\Secret\\Sub\\")).toBe("Secret/Sub");
		expect(normaliseFolder("a/../b")).toBe("");
	});
});
