import { ErrorCode, JsonRpcError } from "../../../src/protocol/json-rpc";
import { FOLDED_PATH_KEY } from "../../../src/vault/path-identity";
import type { PrivacyRules } from "../../../src/vault/privacy/privacy";
import { privacyRefusal } from "../../../src/vault-tools/stdio/bridge-admission";

const own: PrivacyRules = { folders: ["Private"], tags: ["secret"] };
const settings = { rulesFor: () => own };
const answering = (answer: unknown) => ({ request: () => Promise.resolve(answer) });

describe("privacyRefusal: the stdio side relays only to a bridge that hides at least as much", () => {
	it("admits a bridge that keeps every rule of this side", async () => {
		const bridge = answering({ folders: ["Private", "More"], tags: ["secret"] });
		expect(await privacyRefusal(bridge, "vaultTools/privacy", settings, FOLDED_PATH_KEY)).toBeUndefined();
	});

	it("refuses a bridge that misses a rule, naming it and the config folder it reads", async () => {
		const bridge = answering({ folders: [], tags: ["secret"], configFolder: "config" });
		expect(await privacyRefusal(bridge, "vaultTools/privacy", settings, FOLDED_PATH_KEY)).toMatch(
			/^it does not keep private .*Private.*, as this vault's privacy settings \(in config\) or this server's options do$/,
		);
	});

	it("refuses an older bridge that does not know the method, and an answer it cannot read", async () => {
		const older = {
			request: () => Promise.reject(new JsonRpcError(ErrorCode.MethodNotFound, "no such method")),
		};
		expect(await privacyRefusal(older, "vaultTools/privacy", settings, FOLDED_PATH_KEY)).toContain(
			"an older version of Claude Code Bridge",
		);
		expect(await privacyRefusal(answering("nonsense"), "vaultTools/privacy", settings, FOLDED_PATH_KEY)).toBe(
			"its answer about the privacy rules it applies cannot be read",
		);
	});
});
