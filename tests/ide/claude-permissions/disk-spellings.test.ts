import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { denyRulesOnDisk, withDiskSpellings } from "../../../src/ide/claude-permissions/disk-spellings";
import { FOLDED_PATH_KEY, normaliseUnicode, type PathKey } from "../../../src/vault/path-identity";
import { makeTempDir } from "../../helpers/temp-dir";

const NFD = "Caf\u0065\u0301";
const NFC = "Caf\u00e9";
/** A case-sensitive volume's identity: NFC only. */
const CASE_SENSITIVE: PathKey = { key: normaliseUnicode };

let vault: string;
let removeVault: () => void;
beforeEach(() => {
	({ path: vault, remove: removeVault } = makeTempDir("disk-spellings"));
});
afterEach(() => removeVault?.());

describe("withDiskSpellings", () => {
	it("adds the NFD spelling a folder has on disk to a rule typed in NFC", async () => {
		mkdirSync(join(vault, NFD, "Sub"), { recursive: true });
		expect(await withDiskSpellings(vault, [`${NFC}/Sub`], CASE_SENSITIVE)).toEqual([`${NFC}/Sub`, `${NFD}/Sub`]);
	});

	it("adds the disk's case where the vault's identity folds case (APFS, NTFS), and not where it does not", async () => {
		mkdirSync(join(vault, "Secret"));
		expect(await withDiskSpellings(vault, ["secret"], FOLDED_PATH_KEY)).toEqual(["secret", "Secret"]);
		expect(await withDiskSpellings(vault, ["secret"], CASE_SENSITIVE)).toEqual(["secret"]);
	});

	it("keeps a folder that is not on disk as typed, once", async () => {
		expect(await withDiskSpellings(vault, ["Later", "Later/", ""], FOLDED_PATH_KEY)).toEqual(["Later"]);
	});
});

describe("denyRulesOnDisk", () => {
	it("writes rules for the disk's spelling as well as the typed one", async () => {
		mkdirSync(join(vault, NFD));
		const { rules } = await denyRulesOnDisk(vault, { folders: [NFC], tags: [], configDirs: [] });
		expect(rules).toEqual(expect.arrayContaining([`Read(./${NFC}/**)`, `Read(./${NFD}/**)`]));
	});
});
