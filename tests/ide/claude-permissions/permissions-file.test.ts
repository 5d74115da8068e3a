import {
	existsSync,
	promises as fsPromises,
	lstatSync,
	mkdirSync,
	readFileSync,
	readdirSync,
	renameSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { findConfigFolders } from "../../../src/ide/claude-permissions/config-folders";
import {
	RECORD_FILE,
	SETTINGS_FILES,
	applyPermissionPlan,
	planPermissions,
	readPermissionState,
	type SettingsFile,
} from "../../../src/ide/claude-permissions/permissions-file";
import { MalformedSettingsError } from "../../../src/ide/claude-permissions/settings-merge";
import { makeTempDir } from "../../helpers/temp-dir";

const SECRET = ["Read(./Secret/**)", "Edit(./Secret/**)"];
const DIARY = ["Read(./Diary/**)", "Edit(./Diary/**)"];

let vault: string;
let removeVault: () => void;
beforeEach(() => {
	({ path: vault, remove: removeVault } = makeTempDir("permissions-file"));
});
afterEach(() => removeVault?.());

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
		writeFileSync(
			join(vault, SETTINGS_FILES.shared),
			JSON.stringify({ model: "opus", permissions: { deny: ["Bash(rm *)"] } }),
		);
		await write(SECRET);
		expect(read(SETTINGS_FILES.shared)).toEqual({
			model: "opus",
			permissions: { deny: ["Bash(rm *)", ...SECRET] },
		});
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
		expect(plan.changes.map((change) => change.relativePath)).toEqual([
			SETTINGS_FILES.shared,
			SETTINGS_FILES.local,
		]);
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
		await expect(planPermissions(vault, SECRET, SETTINGS_FILES.shared)).rejects.toThrow(
			/^\.claude\/settings\.json: It is not valid JSON/,
		);
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
		expect(readdirSync(join(vault, ".claude")).sort()).toEqual([
			"claude-code-bridge-permissions.json",
			"settings.json",
		]);
	});
});

describe("readPermissionState", () => {
	it("tells present, missing and stale rules apart", async () => {
		expect(await readPermissionState(vault, SECRET, SETTINGS_FILES.shared)).toMatchObject({
			present: [],
			missing: SECRET,
			stale: [],
		});
		await write(SECRET);
		expect(await readPermissionState(vault, SECRET, SETTINGS_FILES.shared)).toMatchObject({
			present: SECRET,
			missing: [],
			stale: [],
		});
		expect(await readPermissionState(vault, DIARY, SETTINGS_FILES.shared)).toMatchObject({
			present: [],
			missing: DIARY,
			stale: SECRET,
		});
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

describe("confined to <vault>/.claude/settings.json and settings.local.json (issue 15, finding 7)", () => {
	/** The user's own Claude Code settings outside the vault, with protections a vault must never strip. */
	const USER_SETTINGS = `${JSON.stringify({ permissions: { deny: ["Read(~/.ssh/**)", "Bash(curl:*)"] } }, null, 2)}\n`;
	let root: string;
	let removeRoot: () => void;
	let inside: string;
	let outside: string;
	beforeEach(() => {
		({ path: root, remove: removeRoot } = makeTempDir("permissions-confined"));
		inside = join(root, "vault");
		outside = join(root, "home", ".claude");
		mkdirSync(join(inside, ".claude"), { recursive: true });
		mkdirSync(outside, { recursive: true });
		writeFileSync(join(outside, "settings.json"), USER_SETTINGS);
	});
	afterEach(() => {
		jest.restoreAllMocks();
		removeRoot?.();
	});
	const outsideText = () => readFileSync(join(outside, "settings.json"), "utf8");
	const writeInside = async (rules: string[], file: SettingsFile = SETTINGS_FILES.shared) =>
		applyPermissionPlan(await planPermissions(inside, rules, file));

	it("a record naming a file outside the vault is ignored, and said so: writing and removing leave that file byte-identical", async () => {
		writeFileSync(
			join(inside, RECORD_FILE),
			JSON.stringify({
				settingsFile: "../home/.claude/settings.json",
				rules: ["Read(~/.ssh/**)", "Bash(curl:*)"],
			}),
		);
		const plan = await planPermissions(inside, SECRET, SETTINGS_FILES.shared);
		expect(plan.changes.map((change) => change.relativePath)).toEqual([SETTINGS_FILES.shared]);
		expect(plan.notes).toEqual([
			'.claude/claude-code-bridge-permissions.json names "../home/.claude/settings.json", which is not one of the vault\'s Claude Code settings files (.claude/settings.json, .claude/settings.local.json): it was ignored.',
		]);
		await applyPermissionPlan(plan);
		expect(outsideText()).toBe(USER_SETTINGS);
		expect(read(SETTINGS_FILES.shared)).toEqual({ permissions: { deny: SECRET } });

		writeFileSync(
			join(inside, RECORD_FILE),
			JSON.stringify({
				settingsFile: join(outside, "settings.json"),
				rules: ["Read(~/.ssh/**)", "Bash(curl:*)"],
			}),
		);
		await writeInside([]);
		expect(outsideText()).toBe(USER_SETTINGS);
		expect(JSON.parse(readFileSync(join(inside, SETTINGS_FILES.shared), "utf8"))).toEqual({
			permissions: { deny: SECRET },
		});
	});

	it("a settings.json that is a symlink to a file outside is refused in one line, and its target is untouched", async () => {
		symlinkSync(join(outside, "settings.json"), join(inside, SETTINGS_FILES.shared));
		const refusal =
			/^\.claude\/settings\.json is a symbolic link \(to .*home\/\.claude\/settings\.json\): the bridge writes Claude Code's rules only into a real file inside the vault, so nothing was written\. Replace the link with a file of its own to use it\.$/;
		await expect(writeInside(SECRET)).rejects.toThrow(refusal);
		await expect(writeInside([])).rejects.toThrow(refusal);
		await expect(readPermissionState(inside, SECRET, SETTINGS_FILES.shared)).rejects.toThrow(refusal);
		expect(outsideText()).toBe(USER_SETTINGS);
		expect(lstatSync(join(inside, SETTINGS_FILES.shared)).isSymbolicLink()).toBe(true);
		expect(existsSync(join(inside, RECORD_FILE))).toBe(false);
	});

	it("a .claude folder that is a symlink to a folder outside is refused, and nothing is written through it", async () => {
		rmSync(join(inside, ".claude"), { recursive: true });
		symlinkSync(outside, join(inside, ".claude"), "dir");
		await expect(writeInside(SECRET)).rejects.toThrow(
			/^\.claude is a symbolic link \(to .*home\/\.claude\): the bridge writes Claude Code's rules only into a real \.claude folder inside the vault, so nothing was written\./,
		);
		await expect(writeInside(SECRET, SETTINGS_FILES.local)).rejects.toThrow(/^\.claude is a symbolic link/);
		expect(readdirSync(outside)).toEqual(["settings.json"]);
		expect(outsideText()).toBe(USER_SETTINGS);
	});

	it("a .claude folder swapped for a symlink after the preview is refused when writing", async () => {
		const plan = await planPermissions(inside, SECRET, SETTINGS_FILES.shared);
		rmSync(join(inside, ".claude"), { recursive: true });
		symlinkSync(outside, join(inside, ".claude"), "dir");
		rmSync(join(outside, "settings.json"));
		await expect(applyPermissionPlan(plan)).rejects.toThrow(/^\.claude is a symbolic link/);
		expect(readdirSync(outside)).toEqual([]);
	});

	it("a .claude folder swapped for a symlink while the new text is being written is caught right before the rename", async () => {
		const plan = await planPermissions(inside, SECRET, SETTINGS_FILES.shared);
		const realWriteFile = fsPromises.writeFile.bind(fsPromises);
		let swapped = false;
		// The swap lands between the checks before the write and the temp file's creation: the temp file goes through the link.
		jest.spyOn(fsPromises, "writeFile").mockImplementation(
			async (...args: Parameters<typeof fsPromises.writeFile>) => {
				if (!swapped) {
					swapped = true;
					renameSync(join(inside, ".claude"), join(inside, ".claude-moved"));
					symlinkSync(outside, join(inside, ".claude"), "dir");
				}
				return realWriteFile(...args);
			},
		);
		await expect(applyPermissionPlan(plan)).rejects.toThrow(/^\.claude is a symbolic link/);
		expect(swapped).toBe(true);
		expect(readdirSync(outside)).toEqual(["settings.json"]);
		expect(outsideText()).toBe(USER_SETTINGS);
	});

	it("never takes out a rule the record lists that is not of the shape the bridge writes", async () => {
		writeFileSync(
			join(inside, SETTINGS_FILES.shared),
			JSON.stringify({ permissions: { deny: ["Bash(rm *)", "Read(~/.aws/**)"] } }),
		);
		writeFileSync(
			join(inside, RECORD_FILE),
			JSON.stringify({ settingsFile: SETTINGS_FILES.shared, rules: ["Bash(rm *)", "Read(~/.aws/**)"] }),
		);
		await writeInside(SECRET);
		expect(read(SETTINGS_FILES.shared)).toEqual({
			permissions: { deny: ["Bash(rm *)", "Read(~/.aws/**)", ...SECRET] },
		});
		await writeInside([]);
		expect(read(SETTINGS_FILES.shared)).toEqual({ permissions: { deny: ["Bash(rm *)", "Read(~/.aws/**)"] } });
	});

	it("a rule the user had already written is not claimed as the bridge's, so turning the rules off keeps it", async () => {
		writeFileSync(
			join(inside, SETTINGS_FILES.shared),
			JSON.stringify({ permissions: { deny: ["Read(./Secret/**)"] } }),
		);
		await writeInside(SECRET);
		expect(read(SETTINGS_FILES.shared)).toEqual({ permissions: { deny: SECRET } });
		await writeInside([]);
		expect(read(SETTINGS_FILES.shared)).toEqual({ permissions: { deny: ["Read(./Secret/**)"] } });
	});

	function read(relative: string): unknown {
		return JSON.parse(readFileSync(join(inside, relative), "utf8"));
	}
});
