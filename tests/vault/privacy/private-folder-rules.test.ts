import {
	describeUnmatchedFolderRules,
	foldersOfFiles,
	unmatchedFolderRules,
} from "../../../src/vault/privacy/private-folder-rules";
import type { PathKey } from "../../../src/vault/path-identity";

const CASE_SENSITIVE: PathKey = { key: (path) => path.normalize("NFC") };
const CASE_INSENSITIVE: PathKey = { key: (path) => path.normalize("NFC").toLowerCase() };

describe("unmatchedFolderRules", () => {
	const folders = ["Secret", "Secret/Health", "Journal", "Cafe\u0301"];

	it("accepts rules that name a folder, at any depth, typed with slashes either way or in another Unicode form", () => {
		expect(
			unmatchedFolderRules(
				["Secret", "/Secret/Health/", "Secret\\Health", "Caf\u00e9", "  ", ""],
				folders,
				CASE_SENSITIVE,
			),
		).toEqual([]);
	});

	it("names a rule that matches no folder; on a case-sensitive volume a rule in another case suggests the folder", () => {
		expect(unmatchedFolderRules(["secret", "Diary", "journal/"], folders, CASE_SENSITIVE)).toEqual([
			{ rule: "secret", didYouMean: "Secret" },
			{ rule: "Diary" },
			{ rule: "journal/", didYouMean: "Journal" },
		]);
	});

	it("on a case-insensitive volume another case is the same folder", () => {
		expect(unmatchedFolderRules(["secret", "JOURNAL", "Diary"], folders, CASE_INSENSITIVE)).toEqual([
			{ rule: "Diary" },
		]);
	});

	it("without an identity it compares case-insensitively (the safe side: the rule does protect such a folder)", () => {
		expect(unmatchedFolderRules(["secret"], folders)).toEqual([]);
	});
});

describe("foldersOfFiles", () => {
	it("gives every folder that holds a file, at every depth", () => {
		expect([...foldersOfFiles(["a.md", "One/Two/b.md", "One/c.md", "Three/d.png"])].sort()).toEqual([
			"One",
			"One/Two",
			"Three",
		]);
	});
});

describe("describeUnmatchedFolderRules", () => {
	it("says nothing when every rule matches, and names each rule (with its likely folder) when not", () => {
		expect(describeUnmatchedFolderRules([])).toBeUndefined();
		expect(describeUnmatchedFolderRules([{ rule: "secret", didYouMean: "Secret" }])).toBe(
			'This private folder rule matches no folder of the vault, so it protects nothing: "secret" (did you mean "Secret"?).',
		);
		expect(describeUnmatchedFolderRules([{ rule: "a" }, { rule: "b" }])).toBe(
			'These private folder rules match no folder of the vault, so they protect nothing: "a", "b".',
		);
	});
});
