import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { panelSessionGuard } from "../../src/assembly/panel-session-guard";
import { makeTempDir } from "../helpers/temp-dir";

const CONFIG = ".vault-config";

function vault(): { root: string; remove: () => void } {
	const temp = makeTempDir("guard-vault");
	for (const folder of ["Secret", "Notes", CONFIG, ".trash"]) mkdirSync(join(temp.path, folder));
	writeFileSync(join(temp.path, "Notes", "Diary.md"), "#private\n");
	writeFileSync(join(temp.path, "Secret", "Plan.md"), "plan\n");
	return { root: temp.path, remove: temp.remove };
}

const places = { folders: ["Secret/", "Missing"], tags: ["private"], notes: ["Notes/Diary.md"], configFolder: CONFIG };

describe("panelSessionGuard", () => {
	it("holds the private folders, the tag-private notes, the config folder and the trash out of the shell, and keeps it from writing Claude Code's project configuration", async () => {
		const { root, remove } = vault();
		try {
			const { guard, sandboxMissing, privateNamesVisible } = await panelSessionGuard({ bridge: { privatePlaces: () => places }, vaultRoot: root, sandboxSupport: () => Promise.resolve({ available: true }) });
			expect(sandboxMissing).toBeUndefined();
			// A denied file still shows its name in a listing: the panel then allows shell commands once only.
			expect(privateNamesVisible).toBe(true);
			expect((await panelSessionGuard({ bridge: { privatePlaces: () => ({ ...places, notes: [] }) }, vaultRoot: root, sandboxSupport: () => Promise.resolve({ available: true }) })).privateNamesVisible).toBeUndefined();
			expect(guard.projectConfigTrusted).toBe(false);
			const expected = ["Secret", "Notes/Diary.md", CONFIG, ".trash"].map((path) => join(root, path));
			expect(guard.sandbox?.denyRead).toEqual(expected);
			expect(guard.sandbox?.denyWrite).toEqual([...expected, join(root, ".claude"), join(root, ".mcp.json")]);
			expect(guard.denyRules).toEqual(expect.arrayContaining(["Read(./Secret/**)", `Read(./${CONFIG}/**)`]));
		} finally {
			remove();
		}
	});

	it("names the vault's real folder too when it is reached through a link", async () => {
		const { root, remove } = vault();
		const link = `${root}-link`;
		symlinkSync(root, link);
		try {
			const { guard } = await panelSessionGuard({ bridge: { privatePlaces: () => places }, vaultRoot: link, sandboxSupport: () => Promise.resolve({ available: true }) });
			expect(guard.sandbox?.denyRead).toEqual(expect.arrayContaining([join(link, "Secret"), join(root, "Secret")]));
		} finally {
			rmSync(link, { force: true });
			remove();
		}
	});

	it("turns no sandbox on where it cannot run, and says why; the deny rules are handed over all the same", async () => {
		const { root, remove } = vault();
		try {
			const decided = await panelSessionGuard({ bridge: { privatePlaces: () => places }, vaultRoot: root, sandboxSupport: () => Promise.resolve({ available: false, why: "socat is not installed" }), projectConfigTrusted: () => Promise.resolve(true) });
			expect(decided).toEqual({ guard: { projectConfigTrusted: true, denyRules: expect.arrayContaining(["Read(./Secret/**)"]) as unknown }, sandboxMissing: "socat is not installed" });
		} finally {
			remove();
		}
	});
});
