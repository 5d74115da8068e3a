import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
	SETTINGS_FILES,
	applyPermissionPlan,
	planPermissions,
} from "../../../src/ide/claude-permissions/permissions-file";
import { checkPermissionRules, type PermissionRulesInputs } from "../../../src/ide/doctor/claude-permissions-check";
import { makeTempDir } from "../../helpers/temp-dir";

const SECRET = ["Read(./Secret/**)", "Edit(./Secret/**)"];
const DIARY = ["Read(./Diary/**)", "Edit(./Diary/**)"];
const HOW = 'Turn on "Keep private folders out of Claude Code\'s file tools"';

let vault: string;
let removeVault: () => void;
beforeEach(() => {
	({ path: vault, remove: removeVault } = makeTempDir("doctor-permissions"));
});
afterEach(() => removeVault?.());

function inputs(wanted: string[], enabled = true, somethingPrivate = true): PermissionRulesInputs {
	return { enabled, somethingPrivate, wanted, settingsFile: SETTINGS_FILES.shared, howToWrite: HOW };
}

async function write(rules: string[]): Promise<void> {
	await applyPermissionPlan(await planPermissions(vault, rules, SETTINGS_FILES.shared));
}

describe("the doctor's check of Claude Code's deny rules", () => {
	it("in place", async () => {
		await write(SECRET);
		expect(await checkPermissionRules(vault, inputs(SECRET))).toEqual({
			level: "ok",
			what: "Claude Code's own file tools (Read, Grep, Edit) are kept out of the private folders and the config folder: 2 deny rules in place in .claude/settings.json",
		});
	});

	it("missing, with what to do", async () => {
		const line = await checkPermissionRules(vault, inputs(SECRET));
		expect(line.level).toBe("fail");
		expect(line.what).toBe(
			"The deny rules for Claude Code's own file tools (Read, Grep, Edit) are missing from .claude/settings.json, so Claude Code can read the private folders directly",
		);
		expect(line.fix).toBe(`${HOW} to write them, then restart Claude Code.`);
	});

	it("outdated when the private folders changed since they were written", async () => {
		await write(SECRET);
		const line = await checkPermissionRules(vault, inputs(DIARY));
		expect(line.level).toBe("fail");
		expect(line.what).toBe(
			"The deny rules for Claude Code's own file tools (Read, Grep, Edit) in .claude/settings.json are outdated (the private folders changed): 2 of 2 missing (Read(./Diary/**), Edit(./Diary/**))",
		);
	});

	it("a warning when only rules for folders no longer private are left", async () => {
		await write([...SECRET, ...DIARY]);
		const line = await checkPermissionRules(vault, inputs(SECRET));
		expect(line.level).toBe("warn");
		expect(line.what).toContain("no longer private: Read(./Diary/**), Edit(./Diary/**)");
	});

	it("a malformed settings file is a failure naming the file", async () => {
		mkdirSync(join(vault, ".claude"));
		writeFileSync(join(vault, SETTINGS_FILES.shared), "{");
		const line = await checkPermissionRules(vault, inputs(SECRET));
		expect(line.level).toBe("fail");
		expect(line.what).toMatch(
			/^\.claude\/settings\.json cannot be read, so the deny rules .* are not known to be in place: It is not valid JSON/,
		);
	});

	it("a settings file that is a symbolic link is a failure naming the link, and its target is not read", async () => {
		const outside = makeTempDir("doctor-permissions-outside");
		try {
			writeFileSync(join(outside.path, "settings.json"), JSON.stringify({ permissions: { deny: SECRET } }));
			mkdirSync(join(vault, ".claude"));
			symlinkSync(join(outside.path, "settings.json"), join(vault, SETTINGS_FILES.shared));
			const line = await checkPermissionRules(vault, inputs(SECRET));
			expect(line.level).toBe("fail");
			expect(line.what).toMatch(
				/^\.claude\/settings\.json cannot be read, so the deny rules .* are not known to be in place: \.claude\/settings\.json is a symbolic link \(to /,
			);
		} finally {
			outside.remove();
		}
	});

	it("the option off: a warning saying the bridge's rules do not reach Claude Code's file tools", async () => {
		const line = await checkPermissionRules(vault, inputs(SECRET, false));
		expect(line).toEqual({
			level: "warn",
			what: "Claude Code's own file tools (Read, Grep, Edit) can open notes in private folders and the config folder: the bridge's privacy rules do not reach them",
			fix: `${HOW} to write deny rules for them.`,
		});
	});

	it("the option off with no private folder or tag set: no finding, though the config folder has rules", async () => {
		const line = await checkPermissionRules(vault, inputs(["Read(./.vault-config/**)"], false, false));
		expect(line).toEqual({
			level: "ok",
			what: "No private folders or tags are set, so Claude Code's own file tools (Read, Grep, Edit) are not asked to keep out of any",
		});
	});

	it("nothing to keep out: ok", async () => {
		expect((await checkPermissionRules(vault, inputs([], false))).level).toBe("ok");
	});
});
