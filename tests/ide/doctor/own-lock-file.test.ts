import { checkOwnLockFile } from "../../../src/ide/doctor/own-lock-file";
import { tokenFingerprint } from "../../../src/server/auth";
import { LOCK_FILE_WRITER } from "../../../src/server/lock-file";
import { DoctorMachine } from "./doctor-env-double";

const IDE = "/home/me/.claude/ide";
const PATH = `${IDE}/100.lock`;
const TOKEN = "a".repeat(64);
const GOOD = { pid: 42, ideName: "Obsidian", transport: "ws", authToken: TOKEN, writer: LOCK_FILE_WRITER, workspaceFolders: ["/v/Vault"] };
const expected = { path: PATH, pid: 42, ideName: "Obsidian", tokenFingerprint: tokenFingerprint(TOKEN), realVaultPath: "/v/Vault" };

function machine(fields: object | string = GOOD, fileMode = 0o600, folderMode = 0o700): DoctorMachine {
	const m = new DoctorMachine();
	m.folders.set(IDE, folderMode);
	m.files.set(PATH, { text: typeof fields === "string" ? fields : JSON.stringify(fields), mode: fileMode });
	return m;
}

describe("checkOwnLockFile", () => {
	it("passes a private folder and file that this bridge wrote for this vault, and returns its fields", async () => {
		const result = await checkOwnLockFile(expected, machine().environment());
		expect(result.lines.map((line) => line.level)).toEqual(["ok", "ok", "ok", "ok"]);
		expect(result.lines[2]?.what).toBe(`The lock file is this bridge's: pid 42, "Obsidian", token fingerprint ${tokenFingerprint(TOKEN)}`);
		expect(result.fields).toMatchObject({ pid: 42, workspaceFolders: ["/v/Vault"] });
	});

	it("warns about an open folder and fails an open file, each with the fix", async () => {
		const result = await checkOwnLockFile(expected, machine(GOOD, 0o644, 0o755).environment());
		expect(result.lines[0]).toEqual({ level: "warn", what: `The lock folder ${IDE} has mode 0755, not 0700: other users can list it`, fix: `Run chmod 700 "${IDE}" (the bridge also tightens it on each start).` });
		expect(result.lines[1]).toMatchObject({ level: "fail", what: `The lock file ${PATH} has mode 0644, not 0600: other users could read the token` });
	});

	it("names every way the lock file is not this bridge's, never the token itself", async () => {
		const other = { ...GOOD, pid: 9, ideName: "VS Code", transport: "sse", authToken: "b".repeat(64), writer: undefined };
		const result = await checkOwnLockFile(expected, machine(other).environment());
		const ownership = result.lines[2];
		expect(ownership?.level).toBe("fail");
		expect(ownership?.what).toBe(
			`The lock file is not this bridge's: its pid is 9, not this app's 42; its name is "VS Code", not "Obsidian"; this plugin did not write it; its transport is sse, not ws; its token (fingerprint ${tokenFingerprint("b".repeat(64))}) is not the bridge's (${tokenFingerprint(TOKEN)})`,
		);
		expect(JSON.stringify(result.lines)).not.toContain("b".repeat(64));
	});

	it("fails a lock file that lists another path than the vault's real one", async () => {
		const result = await checkOwnLockFile(expected, machine({ ...GOOD, workspaceFolders: ["/v/link"] }).environment());
		expect(result.lines[3]).toMatchObject({ level: "fail", what: "The lock file does not list the vault's real path /v/Vault (it lists /v/link)" });
	});

	it("fails a missing, non-JSON or linked lock file, and a missing folder, and stops there", async () => {
		const missing = new DoctorMachine();
		missing.folders.set(IDE, 0o700);
		expect((await checkOwnLockFile(expected, missing.environment())).lines.map((line) => line.what)).toEqual([`The lock folder ${IDE} is private (0700)`, `The lock file ${PATH} is missing`]);
		const notJson = await checkOwnLockFile(expected, machine("{oops").environment());
		expect(notJson.lines[2]?.what).toBe("The lock file is not valid JSON; Claude Code would take it for an old format without a token");
		expect(notJson.fields).toBeUndefined();
		const linked = machine();
		linked.links.set(PATH, "/elsewhere/100.lock");
		linked.files.set("/elsewhere/100.lock", { text: JSON.stringify(GOOD), mode: 0o600 });
		expect((await checkOwnLockFile(expected, linked.environment())).lines[1]).toMatchObject({ level: "fail", what: `The lock file ${PATH} is not a regular file` });
		expect((await checkOwnLockFile(expected, new DoctorMachine().environment())).lines[0]).toMatchObject({ level: "fail", what: `The lock folder ${IDE} does not exist` });
	});

	it("does not judge modes on Windows", async () => {
		const m = machine(GOOD, 0o666, 0o777);
		m.platform = "win32";
		const result = await checkOwnLockFile(expected, m.environment());
		expect(result.lines.slice(0, 2)).toEqual([
			{ level: "ok", what: `The lock folder ${IDE} exists (on Windows, access follows your user profile)` },
			{ level: "ok", what: `The lock file ${PATH} exists` },
		]);
	});
});
