import { rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { vaultSessionGuard, type VaultSessionGuardOptions } from "../../../src/agent/engine/vault-session-guard";
import { CONFIG, GUARD_PLACES, guardVault } from "./guard-vault";

const places = GUARD_PLACES;

/** The guard as the assembly asks for it: the trash held out, Claude Code's project files kept from writes. */
const guardFor = (options: Omit<VaultSessionGuardOptions, "heldOut" | "configuring">) =>
	vaultSessionGuard({ heldOut: [".trash"], configuring: [".claude", ".mcp.json"], ...options });
const RULES = ["Read(./Secret/**)", "Edit(./Secret/**)"];

describe("vaultSessionGuard", () => {
	it("holds the private folders, the config folder and the trash out of the shell, never names a tag-private note, and keeps the shell from writing Claude Code's project configuration", async () => {
		const { root, remove } = guardVault();
		try {
			const { guard, sandboxMissing, tagPrivateReadable } = await guardFor({
				places,
				vaultRoot: root,
				sandboxSupport: () => Promise.resolve({ available: true }),
				denyRules: () => Promise.resolve(RULES),
			});
			expect(sandboxMissing).toBeUndefined();
			// Claude Code tells the model every path its sandbox denies: a tag-private note is never listed, so it is not held out.
			expect(tagPrivateReadable).toBe(true);
			expect(
				(
					await guardFor({
						places: { ...places, notes: [] },
						vaultRoot: root,
						sandboxSupport: () => Promise.resolve({ available: true }),
					})
				).tagPrivateReadable,
			).toBeUndefined();
			expect(guard.projectConfigTrusted).toBe(false);
			const expected = ["Secret", CONFIG, ".trash"].map((path) => join(root, path));
			expect(guard.sandbox?.denyRead).toEqual(expected);
			expect(guard.sandbox?.denyWrite).toEqual([...expected, join(root, ".claude"), join(root, ".mcp.json")]);
			expect(guard.denyRules).toEqual(RULES);
		} finally {
			remove();
		}
	});

	it("names the vault's real folder too when it is reached through a link", async () => {
		const { root, remove } = guardVault();
		const link = `${root}-link`;
		symlinkSync(root, link);
		try {
			const { guard } = await guardFor({
				places,
				vaultRoot: link,
				sandboxSupport: () => Promise.resolve({ available: true }),
			});
			expect(guard.sandbox?.denyRead).toEqual(
				expect.arrayContaining([join(link, "Secret"), join(root, "Secret")]),
			);
		} finally {
			rmSync(link, { force: true });
			remove();
		}
	});

	it("turns no sandbox on where it cannot run, and says why; deny rules only when the user asked for them", async () => {
		const { root, remove } = guardVault();
		try {
			const decided = await guardFor({
				places,
				vaultRoot: root,
				sandboxSupport: () => Promise.resolve({ available: false, why: "socat is not installed" }),
				projectConfigTrusted: () => Promise.resolve(true),
			});
			expect(decided).toEqual({
				guard: { projectConfigTrusted: true },
				sandboxMissing: "socat is not installed",
			});
			const asked = await guardFor({
				places,
				vaultRoot: root,
				sandboxSupport: () => Promise.resolve({ available: false, why: "socat is not installed" }),
				denyRules: () => Promise.resolve(RULES),
			});
			expect(asked.guard.denyRules).toEqual(RULES);
		} finally {
			remove();
		}
	});
});
