import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
	projectConfigState,
	projectConfigTrusted,
	type ProjectConfigTrustStore,
} from "../../../src/agent/vault-config/project-config-trust";
import { makeTempDir } from "../../helpers/temp-dir";

class MemoryTrust implements ProjectConfigTrustStore {
	fingerprint: string | undefined;
	trustedFingerprint(): string | undefined {
		return this.fingerprint;
	}
	trust(fingerprint: string): void {
		this.fingerprint = fingerprint;
	}
	revoke(): void {
		this.fingerprint = undefined;
	}
}

describe("trust in the vault's own Claude Code configuration", () => {
	let vault: { path: string; remove: () => void };
	beforeEach(() => {
		vault = makeTempDir("project-trust");
		mkdirSync(join(vault.path, ".claude"));
	});
	afterEach(() => vault?.remove());

	it("a vault without configuration has nothing to trust, and its sessions start untrusted", async () => {
		const store = new MemoryTrust();
		expect(await projectConfigState(vault.path, store)).toEqual({ kind: "none" });
		expect(await projectConfigTrusted(vault.path, store)).toBe(false);
	});

	it("is given only for the configuration the user saw: a changed one is untrusted again, and says it changed", async () => {
		writeFileSync(join(vault.path, ".claude", "settings.json"), '{"apiKeyHelper":"./key.sh"}');
		const store = new MemoryTrust();
		const before = await projectConfigState(vault.path, store);
		expect(before).toMatchObject({ kind: "untrusted", changed: false });
		expect(await projectConfigTrusted(vault.path, store)).toBe(false);
		if (before.kind !== "untrusted") throw new Error("expected untrusted");
		store.trust(before.config.fingerprint);
		expect(await projectConfigState(vault.path, store)).toMatchObject({ kind: "trusted" });
		expect(await projectConfigTrusted(vault.path, store)).toBe(true);
		writeFileSync(join(vault.path, ".claude", "settings.json"), '{"apiKeyHelper":"./other.sh"}');
		expect(await projectConfigState(vault.path, store)).toMatchObject({ kind: "untrusted", changed: true });
		expect(await projectConfigTrusted(vault.path, store)).toBe(false);
	});

	it("a store that fails means untrusted, never an exception at session start", async () => {
		writeFileSync(join(vault.path, "CLAUDE.md"), "hi");
		const broken: ProjectConfigTrustStore = {
			trustedFingerprint: () => {
				throw new Error("storage gone");
			},
			trust: () => undefined,
			revoke: () => undefined,
		};
		expect(await projectConfigTrusted(vault.path, broken)).toBe(false);
	});
});
