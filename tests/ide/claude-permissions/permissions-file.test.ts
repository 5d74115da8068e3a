import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findConfigFolders } from "../../../src/ide/claude-permissions/config-folders";
import { RECORD_FILE, SETTINGS_FILES, applyPermissionPlan, planPermissions, readPermissionState } from "../../../src/ide/claude-permissions/permissions-file";
import { MalformedSettingsError } from "../../../src/ide/claude-permissions/settings-merge";
import { makeTempDir } from "../../helpers/temp-dir";

const SECRET = ["Read(./Secret/**)", "Edit(./Secret/**)"];
const DIARY = ["Read(./Diary/**)", "Edit(./Diary/**)"];

let vault: string;
let removeVault: () => void;
beforeEach(() => {
	({ path: vault, remove: removeVault } = makeTempDir("permissions-file"));
});
afterEach(() => removeVault());

function read(relative: string): unknown {
	return JSON.parse(readFileSync(join(vault, relative), "utf8"));
}

async function write(rules: string[], file = SETTINGS_FILES.shared): Promise<void> {
	await applyPermissionPlan(await planPermissions(vault, rules, file));
}

describe("planPermissions / applyPermissionPlan", () => {
	it("previews the exact change as a unified diff and writes nothing until applied", async () => {
		const plan = await planPermissions(vault, SECRET, SETTINGS_FILES.shared);
		expect(plan.changes).toHaveLength(1);
		expect(plan.changes[0]?.patch).toContain("+++ .claude/settings.json");
		expect(plan.changes[0]?.patch).toContain('+      "Read(./Secret/**)",');
		expect(existsSync(join(vault, ".claude"))).toBe(false);
		await applyPermissionPlan(plan);
		expect(read(SETTINGS_FILES.shared)).toEqual({ permissions: { deny: SECRET } });
		expect(read(RECORD_FILE)).toEqual({ settingsFile: SETTINGS_FILES.shared, rules: SECRET });
	});

	it("keeps the user's settings and rules; a second write changes nothing", async () => {
		mkdirSync(join(vault, ".claude"));
		writeFileSync(join(vault, SETTINGS_FILES.shared), JSON.stringify({ model: "opus", permissions: { deny: ["Bash(rm *)"] } }));
		await write(SECRET);
		expect(read(SETTINGS_FILES.shared)).toEqual({ model: "opus", permissions: { deny: ["Bash(rm *)", ...SECRET] } });
		expect((await planPermissions(vault, SECRET, SETTINGS_FILES.shared)).changes).toEqual([]);
	});

	it("replaces the rules it wrote when the private folders change", async () => {
		await write(SECRET);
		await write(DIARY);
		expect(read(SETTINGS_FILES.shared)).toEqual({ permissions: { deny: DIARY } });
	});

	it("takes only its own rules out when turned off, and forgets them", async () => {
		mkdirSync(join(vault, ".claude"));
		writeFileSync(join(vault, SETTINGS_FILES.shared), JSON.stringify({ permissions: { deny: ["Bash(rm *)"] } }));
		await write(SECRET);
		await write([]);
		expect(read(SETTINGS_FILES.shared)).toEqual({ permissions: { deny: ["Bash(rm *)"] } });
		expect(existsSync(join(vault, RECORD_FILE))).toBe(false);
	});

	it("moves its rules when the user picks the other settings file", async () => {
		await write(SECRET, SETTINGS_FILES.shared);
		const plan = await planPermissions(vault, SECRET, SETTINGS_FILES.local);
		expect(plan.changes.map((change) => change.relativePath)).toEqual([SETTINGS_FILES.shared, SETTINGS_FILES.local]);
		await applyPermissionPlan(plan);
		expect(read(SETTINGS_FILES.shared)).toEqual({});
		expect(read(SETTINGS_FILES.local)).toEqual({ permissions: { deny: SECRET } });
	});

	it("refuses a malformed settings file with the file's name and never overwrites it", async () => {
		mkdirSync(join(vault, ".claude"));
		const broken = '{ "permissions": { "deny": [ }';
		writeFileSync(join(vault, SETTINGS_FILES.shared), broken);
		const planning = planPermissions(vault, SECRET, SETTINGS_FILES.shared);
		await expect(planning).rejects.toThrow(MalformedSettingsError);
		await expect(planPermissions(vault, SECRET, SETTINGS_FILES.shared)).rejects.toThrow(/^\.claude\/settings\.json: It is not valid JSON/);
		expect(readFileSync(join(vault, SETTINGS_FILES.shared), "utf8")).toBe(broken);
	});

	it("refuses to apply a preview when the file changed since, writing nothing", async () => {
		const plan = await planPermissions(vault, SECRET, SETTINGS_FILES.shared);
		mkdirSync(join(vault, ".claude"));
		writeFileSync(join(vault, SETTINGS_FILES.shared), '{"model":"opus"}');
		await expect(applyPermissionPlan(plan)).rejects.toThrow(/changed since the preview/);
		expect(readFileSync(join(vault, SETTINGS_FILES.shared), "utf8")).toBe('{"model":"opus"}');
		expect(existsSync(join(vault, RECORD_FILE))).toBe(false);
	});

	it("leaves no temp file behind", async () => {
		await write(SECRET);
		expect(readdirSync(join(vault, ".claude")).sort()).toEqual(["claude-code-bridge-permissions.json", "settings.json"]);
	});
});

describe("readPermissionState", () => {
	it("tells present, missing and stale rules apart", async () => {
		expect(await readPermissionState(vault, SECRET, SETTINGS_FILES.shared)).toMatchObject({ present: [], missing: SECRET, stale: [] });
		await write(SECRET);
		expect(await readPermissionState(vault, SECRET, SETTINGS_FILES.shared)).toMatchObject({ present: SECRET, missing: [], stale: [] });
		expect(await readPermissionState(vault, DIARY, SETTINGS_FILES.shared)).toMatchObject({ present: [], missing: DIARY, stale: SECRET });
	});
});

describe("findConfigFolders", () => {
	it("finds the dot folders that hold Obsidian's app.json or plugins, whatever their name", async () => {
		mkdirSync(join(vault, ".vault-config", "plugins"), { recursive: true });
		mkdirSync(join(vault, ".config-phone"));
		writeFileSync(join(vault, ".config-phone", "app.json"), "{}");
		mkdirSync(join(vault, ".git", "objects"), { recursive: true });
		mkdirSync(join(vault, "plain", "plugins"), { recursive: true });
		expect(await findConfigFolders(vault)).toEqual([".config-phone", ".vault-config"]);
	});
});
