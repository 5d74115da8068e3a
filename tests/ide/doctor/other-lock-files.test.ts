import { checkOtherLockFiles } from "../../../src/ide/doctor/other-lock-files";
import { DoctorMachine } from "./doctor-env-double";

const IDE = "/home/me/.claude/ide";

function machine(): DoctorMachine {
	const m = new DoctorMachine();
	m.folders.set(IDE, 0o700);
	return m;
}

const lock = (fields: object): { text: string; mode: number } => ({ text: JSON.stringify(fields), mode: 0o600 });

describe("checkOtherLockFiles", () => {
	it("says there are none, leaving out this bridge's own lock file and missing folders", async () => {
		const m = machine();
		m.files.set(`${IDE}/100.lock`, lock({ pid: 1, ideName: "Obsidian" }));
		expect(await checkOtherLockFiles({ directories: [IDE, "/nowhere"], ownPath: `${IDE}/100.lock` }, m.environment())).toEqual([{ level: "ok", what: "No other editors' lock files" }]);
	});

	it("names running editors and flags stale and unreadable lock files with the command that removes them", async () => {
		const m = machine();
		m.alive.add(7);
		m.files.set(`${IDE}/200.lock`, lock({ pid: 7, ideName: "VS Code", workspaceFolders: ["/work/code"] }));
		m.files.set(`${IDE}/300.lock`, lock({ pid: 8, ideName: "Cursor" }));
		m.files.set(`${IDE}/400.lock`, { text: "{broken", mode: 0o600 });
		m.files.set(`${IDE}/notes.txt`, { text: "x", mode: 0o600 });
		const lines = await checkOtherLockFiles({ directories: [IDE] }, m.environment());
		expect(lines).toEqual([
			{ level: "ok", what: "Other editors' lock files: VS Code (port 200, pid 7)" },
			{ level: "warn", what: "Stale lock file 300.lock: Cursor (port 300, pid 8) is no longer running", fix: `Claude Code deletes it the next time it starts; you may delete it now: rm "${IDE}/300.lock"` },
			{ level: "warn", what: "The lock file 400.lock is not valid JSON; Claude Code may list it as an editor that does not answer", fix: `Delete it if no editor uses port 400: rm "${IDE}/400.lock"` },
		]);
	});

	it("warns when a running editor's folder contains the vault, with the port to bind Claude Code to", async () => {
		const m = machine();
		m.alive.add(7);
		m.files.set(`${IDE}/200.lock`, lock({ pid: 7, workspaceFolders: ["/home/me"] }));
		const lines = await checkOtherLockFiles({ directories: [IDE], realVaultPath: "/home/me/Vault", ownPort: 100 }, m.environment());
		expect(lines[1]).toEqual({
			level: "warn",
			what: "an unnamed editor (port 200, pid 7) also covers this vault (its folder /home/me): with two matching editors Claude Code does not connect on its own",
			fix: "In Claude Code run /ide and pick this vault, or start it with CLAUDE_CODE_SSE_PORT=100 claude --ide to bind it to this vault.",
		});
	});

	it("reads a folder reached twice through a link once", async () => {
		const m = machine();
		m.links.set("/home/me/alias-ide", IDE);
		m.alive.add(7);
		m.files.set(`${IDE}/200.lock`, lock({ pid: 7, ideName: "VS Code" }));
		const lines = await checkOtherLockFiles({ directories: [IDE, "/home/me/alias-ide"] }, m.environment());
		expect(lines).toEqual([{ level: "ok", what: "Other editors' lock files: VS Code (port 200, pid 7)" }]);
	});
});
