import { join } from "node:path";
import { panelSessionGuard } from "../../src/assembly/panel-session-guard";
import { CONFIG, GUARD_PLACES, guardVault } from "../agent/engine/guard-vault";

// The guard's own rules are tested in tests/agent/engine/vault-session-guard.test.ts; here, what the wiring adds.
describe("panelSessionGuard", () => {
	it("holds the bridge's private places and the trash out of the shell, and keeps Claude Code's project files from its writes", async () => {
		const { root, remove } = guardVault();
		try {
			const { guard } = await panelSessionGuard({
				bridge: { privatePlaces: () => GUARD_PLACES },
				vaultRoot: root,
				sandboxSupport: () => Promise.resolve({ available: true }),
			});
			const held = ["Secret", CONFIG, ".trash"].map((path) => join(root, path));
			expect(guard.sandbox?.denyRead).toEqual(held);
			expect(guard.sandbox?.denyWrite).toEqual([...held, join(root, ".claude"), join(root, ".mcp.json")]);
			expect(guard.denyRules).toBeUndefined();
		} finally {
			remove();
		}
	});

	it("hands over Claude Code's deny rules for the private folders and the config folder when the user asked for them", async () => {
		const { root, remove } = guardVault();
		try {
			const asked = await panelSessionGuard({
				bridge: { privatePlaces: () => GUARD_PLACES },
				vaultRoot: root,
				sandboxSupport: () => Promise.resolve({ available: false, why: "socat is not installed" }),
				denyRulesWanted: () => true,
			});
			expect(asked.guard.denyRules).toEqual(
				expect.arrayContaining(["Read(./Secret/**)", "Edit(./Secret/**)", `Read(./${CONFIG}/**)`]),
			);
		} finally {
			remove();
		}
	});
});
