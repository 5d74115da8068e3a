import { ClaudeConfigTrustStore } from "../../../src/obsidian/agent/claude-config-trust-store";
import { App } from "../../__mocks__/obsidian";

const FINGERPRINT = "a".repeat(64);

describe("ClaudeConfigTrustStore (Obsidian's local storage for this vault)", () => {
	it("keeps the trusted fingerprint with the vault's folder, and forgets it on revoke", () => {
		const app = new App("/vault", "Vault");
		const store = new ClaudeConfigTrustStore(app, "/Users/ann/Vault");
		expect(store.trustedFingerprint()).toBeUndefined();
		store.trust(FINGERPRINT);
		expect(new ClaudeConfigTrustStore(app, "/Users/ann/Vault").trustedFingerprint()).toBe(FINGERPRINT);
		store.revoke();
		expect(store.trustedFingerprint()).toBeUndefined();
		expect([...app.localStorage.keys()]).toEqual([]);
	});

	it("a vault folder moved or copied elsewhere, or a malformed entry, is not trusted", () => {
		const app = new App("/vault", "Vault");
		new ClaudeConfigTrustStore(app, "/Users/ann/Vault").trust(FINGERPRINT);
		expect(new ClaudeConfigTrustStore(app, "/Users/ann/Copy of Vault").trustedFingerprint()).toBeUndefined();
		app.saveLocalStorage("claude-code-bridge-trusted-claude-config", {
			vault: "/Users/ann/Vault",
			fingerprint: "yes",
		});
		expect(new ClaudeConfigTrustStore(app, "/Users/ann/Vault").trustedFingerprint()).toBeUndefined();
		app.saveLocalStorage("claude-code-bridge-trusted-claude-config", "trusted");
		expect(new ClaudeConfigTrustStore(app, "/Users/ann/Vault").trustedFingerprint()).toBeUndefined();
	});
});
