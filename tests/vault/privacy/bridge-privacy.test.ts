import { FOLDED_PATH_KEY, type PathKey } from "../../../src/vault/path-identity";
import { bridgePrivacy, readBridgePrivacy, rulesNotKept } from "../../../src/vault/privacy/bridge-privacy";

/** A case-sensitive volume's identity (Linux): NFC only. */
const CASE_SENSITIVE: PathKey = { key: (path) => path.normalize("NFC") };

describe("bridge privacy: what a bridge says it keeps private, and whether that covers a relay's own rules", () => {
	it("round-trips a bridge's answer and refuses anything of another shape", () => {
		const answer = bridgePrivacy({ folders: ["Secret"], tags: ["#private"] }, ".vault-config");
		expect(answer).toEqual({ folders: ["Secret"], tags: ["#private"], configFolder: ".vault-config" });
		expect(readBridgePrivacy(JSON.parse(JSON.stringify(answer)))).toEqual(answer);
		expect(readBridgePrivacy(bridgePrivacy({ folders: [], tags: [], unreadable: "why" }, undefined))).toEqual({
			folders: [],
			tags: [],
			unreadable: "why",
		});
		for (const bad of [
			undefined,
			null,
			"rules",
			{ folders: "Secret", tags: [] },
			{ folders: [], tags: [1] },
			{ folders: [], tags: [], configFolder: 3 },
			{ folders: [], tags: [], unreadable: true },
		]) {
			expect(readBridgePrivacy(bad)).toBeUndefined();
		}
	});

	it("is covered by the same rules, a folder above, a parent tag, or a bridge that hides everything", () => {
		const own = { folders: ["Secret/Plans", " /Diary/ "], tags: ["#work/private"] };
		expect(
			rulesNotKept(own, { folders: ["Secret/Plans", "Diary"], tags: ["work/private"] }, CASE_SENSITIVE),
		).toEqual([]);
		expect(rulesNotKept(own, { folders: ["Secret", "Diary"], tags: ["#work"] }, CASE_SENSITIVE)).toEqual([]);
		expect(rulesNotKept(own, { folders: [], tags: [], unreadable: "cannot read" }, CASE_SENSITIVE)).toEqual([]);
		// Hidden folders are private everywhere: no rule needed for them.
		expect(rulesNotKept({ folders: [".trash"], tags: [] }, { folders: [], tags: [] }, CASE_SENSITIVE)).toEqual([]);
	});

	it("names each rule the bridge does not keep: a missing folder or tag, a folder below, a sibling name", () => {
		const own = { folders: ["Secret", "Extra", "Diary"], tags: ["private", "#work"] };
		const bridge = { folders: ["Secret/Sub", "Diary2"], tags: ["work/private"] };
		expect(rulesNotKept(own, bridge, CASE_SENSITIVE)).toEqual([
			'the folder "Secret"',
			'the folder "Extra"',
			'the folder "Diary"',
			'the tag "#private"',
			'the tag "#work"',
		]);
	});

	it("compares folders in the vault's identity: another case is another folder on a case-sensitive volume, the same on a folding one", () => {
		const own = { folders: ["Secret"], tags: [] };
		const bridge = { folders: ["secret"], tags: [] };
		expect(rulesNotKept(own, bridge, CASE_SENSITIVE)).toEqual(['the folder "Secret"']);
		expect(rulesNotKept(own, bridge, FOLDED_PATH_KEY)).toEqual([]);
		expect(
			rulesNotKept({ folders: ["Cafe\u0301"], tags: [] }, { folders: ["Café"], tags: [] }, CASE_SENSITIVE),
		).toEqual([]);
	});

	it("own rules that cannot be read are kept only by a bridge that hides everything", () => {
		const own = { folders: [], tags: [], unreadable: "the privacy settings cannot be read" };
		expect(rulesNotKept(own, { folders: ["Secret"], tags: ["private"] }, CASE_SENSITIVE)).toEqual([
			"every note (this side cannot read the privacy settings)",
		]);
		expect(
			rulesNotKept(own, { folders: [], tags: [], unreadable: "neither can the bridge" }, CASE_SENSITIVE),
		).toEqual([]);
	});
});
