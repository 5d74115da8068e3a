import { join } from "node:path";
import { panelSessionGuard } from "../../src/assembly/panel-session-guard";
import { CONFIG, GUARD_PLACES, guardVault } from "../agent/engine/guard-vault";

const places = GUARD_PLACES;

describe("panelSessionGuard", () => {
	it("holds the private folders, the config folder and the trash out of the shell, never names a tag-private note, and keeps the shell from writing Claude Code's project configuration", async () => {
		const { root, remove } = guardVault();
		try {
			const { guard, sandboxMissing, tagPrivateReadable } = await panelSessionGuard({
				bridge: { privatePlaces: () => places },
				vaultRoot: root,
				sandboxSupport: () => Promise.resolve({ available: true }),
				denyRulesWanted: () => true,
			});
			expect(sandboxMissing).toBeUndefined();
			// Claude Code tells the model every path its sandbox denies: a tag-private note is never listed, so it is not held out.
			expect(tagPrivateReadable).toBe(true);
			expect(
				(
					await panelSessionGuard({
						bridge: { privatePlaces: () => ({ ...places, notes: [] }) },
						vaultRoot: root,
						sandboxSupport: () => Promise.resolve({ available: true }),
					})
				).tagPrivateReadable,
			).toBeUndefined();
			expect(guard.projectConfigTrusted).toBe(false);
			const expected = ["Secret", CONFIG, ".trash"].map((path) => join(root, path));
			expect(guard.sandbox?.denyRead).toEqual(expected);
			expect(guard.sandbox?.denyWrite).toEqual([...expected, join(root, ".claude"), join(root, ".mcp.json")]);
			expect(guard.denyRules).toEqual(expect.arrayContaining(["Read(./Secret/**)", `Read(./${CONFIG}/**)`]));
		} finally {
			remove();
		}
	});

	it("turns no sandbox on where it cannot run, and says why; deny rules only when the user asked for them", async () => {
		const { root, remove } = guardVault();
		try {
			const decided = await panelSessionGuard({
				bridge: { privatePlaces: () => places },
				vaultRoot: root,
				sandboxSupport: () => Promise.resolve({ available: false, why: "socat is not installed" }),
				projectConfigTrusted: () => Promise.resolve(true),
			});
			expect(decided).toEqual({
				guard: { projectConfigTrusted: true },
				sandboxMissing: "socat is not installed",
			});
			const asked = await panelSessionGuard({
				bridge: { privatePlaces: () => places },
				vaultRoot: root,
				sandboxSupport: () => Promise.resolve({ available: false, why: "socat is not installed" }),
				denyRulesWanted: () => true,
			});
			expect(asked.guard.denyRules).toEqual(expect.arrayContaining(["Read(./Secret/**)", "Edit(./Secret/**)"]));
		} finally {
			remove();
		}
	});
});
