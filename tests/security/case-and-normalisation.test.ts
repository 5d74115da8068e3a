import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { detectCaseInsensitive, nodeFileSystem } from "../../src/vault/path-identity";
import type { PrivacyRules } from "../../src/vault/privacy/privacy";
import { VaultPrivacy } from "../../src/vault/privacy/vault-privacy";
import type { VaultFileBytes } from "../../src/vault/notes/vault-files";
import { VaultPaths } from "../../src/vault/vault-paths";
import { makeTempDir } from "../helpers/temp-dir";
import {
	APFS,
	CASE_SENSITIVE,
	NTFS,
	TYPED_CASE_INSENSITIVE,
	VolumeDouble,
	type VolumeBehaviour,
} from "./volume-double";

/**
 * Issue 11, finding 3: privacy rules compared as raw strings. On a case-insensitive volume `files/read SECRET/x.md`
 * read a note in the private folder `Secret`; a folder stored in NFD was not private under a rule typed in NFC.
 * The vault's volume is played by a file-system double that answers as APFS, NTFS or a Linux casefold mount do
 * (the machine running the tests is case-sensitive), and the whole path — VaultPaths, the privacy filter with the
 * vault's detected identity, the boundary's file port — decides.
 */

const ROOT = "/Users/me/Vault";
const CAFE_NFC = "Caf\u00e9";
const CAFE_NFD = "Cafe\u0301";
const STORED = [
	`${ROOT}/Secret/diary.md`,
	`${ROOT}/${CAFE_NFD}/menu.md`,
	`${ROOT}/Notes/open.md`,
	`${ROOT}/.vault-config/plugins/p/data.json`,
];

function boundaryOn(
	behaviour: VolumeBehaviour,
	rules: PrivacyRules,
): { paths: VaultPaths; boundary: VaultPrivacy; files: VaultFileBytes } {
	const paths = new VaultPaths(ROOT, new VolumeDouble(behaviour, STORED));
	const boundary = new VaultPrivacy({ paths, rules: () => rules, tagsOf: () => [] });
	const files = boundary.files({
		list: () => [],
		stat: () => Promise.resolve({ size: 1 }),
		readBytes: () => Promise.resolve(new Uint8Array([1])),
	});
	return { paths, boundary, files };
}

const OTHER_SPELLINGS = [
	"SECRET/diary.md",
	"secret/DIARY.md",
	"sEcReT/diary.md",
	`${CAFE_NFC}/menu.md`,
	`${CAFE_NFD}/menu.md`,
	`${CAFE_NFC.toUpperCase()}/menu.md`,
	".VAULT-CONFIG/plugins/p/data.json",
];

describe.each([
	["APFS", APFS],
	["NTFS", NTFS],
	["a case-insensitive mount whose realpath keeps the typed case", TYPED_CASE_INSENSITIVE],
])("on %s", (_name, behaviour) => {
	const rules: PrivacyRules = { folders: ["Secret", CAFE_NFC], tags: [] };

	it("the vault's volume is detected as case-insensitive", () => {
		expect(boundaryOn(behaviour, rules).paths.identity.caseInsensitive).toBe(true);
	});

	it.each(OTHER_SPELLINGS)("%s is private, and the file port answers it as missing", async (spelling) => {
		const { boundary, files } = boundaryOn(behaviour, rules);
		expect(boundary.hidesPath(spelling)).toBe(true);
		expect(await files.stat(spelling)).toBeUndefined();
		await expect(files.readBytes(spelling)).rejects.toThrow(`Not found: ${spelling}`);
	});

	it("a rule typed in another case or normalisation matches the folder", () => {
		const { boundary } = boundaryOn(behaviour, { folders: ["secret", "CAF\u00c9"], tags: [] });
		expect(boundary.hidesPath("Secret/diary.md")).toBe(true);
		expect(boundary.hidesPath(`${CAFE_NFD}/menu.md`)).toBe(true);
	});

	it("public notes stay public under any spelling", async () => {
		const { boundary, files } = boundaryOn(behaviour, rules);
		for (const spelling of ["Notes/open.md", "NOTES/open.md", "notes/OPEN.md"])
			expect(boundary.hidesPath(spelling)).toBe(false);
		expect(await files.stat("NOTES/open.md")).toEqual({ size: 1 });
	});
});

describe("on a case-sensitive volume (ext4 without casefold)", () => {
	it("is detected as case-sensitive: a rule matches the folder of exactly that name, in any Unicode normalisation", () => {
		const { paths, boundary } = boundaryOn(CASE_SENSITIVE, { folders: ["Secret", CAFE_NFC], tags: [] });
		expect(paths.identity.caseInsensitive).toBe(false);
		expect(boundary.hidesPath("Secret/diary.md")).toBe(true);
		expect(boundary.hidesPath(`${CAFE_NFD}/menu.md`)).toBe(true);
		// `secret/` would be another folder here; a rule that matches no folder is shown in the settings instead.
		expect(
			boundaryOn(CASE_SENSITIVE, { folders: ["secret"], tags: [] }).boundary.hidesPath("Secret/diary.md"),
		).toBe(false);
	});
});

describe("case-insensitivity is detected, not assumed from the OS", () => {
	it("on the real temp folder it agrees with what the folder does with a case-swapped name", () => {
		const temp = makeTempDir("case-probe");
		try {
			const vault = join(temp.path, "Vault");
			mkdirSync(vault);
			writeFileSync(join(temp.path, "probe-file"), "x");
			const insensitive = existsSync(join(temp.path, "PROBE-FILE"));
			expect(detectCaseInsensitive(vault, nodeFileSystem)).toBe(insensitive);
			expect(new VaultPaths(vault).identity.caseInsensitive).toBe(insensitive);
		} finally {
			temp.remove();
		}
	});

	it("uses an entry of the vault when the vault's own name has no letters, and counts as case-insensitive when nothing can tell", () => {
		expect(detectCaseInsensitive("/data/2024", new VolumeDouble(CASE_SENSITIVE, ["/data/2024/Notes/a.md"]))).toBe(
			false,
		);
		expect(detectCaseInsensitive("/data/2024", new VolumeDouble(APFS, ["/data/2024/Notes/a.md"]))).toBe(true);
		expect(
			detectCaseInsensitive("/data/2024", new VolumeDouble(CASE_SENSITIVE, ["/data/2024/1/2.md"])),
		).toBeUndefined();
		expect(
			new VaultPaths("/data/2024", new VolumeDouble(CASE_SENSITIVE, ["/data/2024/1/2.md"])).identity
				.caseInsensitive,
		).toBe(true);
	});
});
