import { chmodSync, chownSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { BridgeHost, type BridgeStatus } from "../../../src/ide/bridge-host";
import { runDoctor, type DoctorInputs } from "../../../src/ide/doctor/doctor";
import { defaultDoctorEnvironment, type DoctorEnvironment } from "../../../src/ide/doctor/doctor-environment";
import { formatDoctorReport, type DoctorLine } from "../../../src/ide/doctor/doctor-line";
import { tokenFingerprint } from "../../../src/server/auth";
import { lockDirectory, lockFilePath, writeLockFile, type LockFileContent } from "../../../src/server/lock-file";
import { startBridge, testHostOptions, type BridgeFixture } from "../../helpers/bridge-fixture";
import { makeTempDir } from "../../helpers/temp-dir";
import { FIXTURE_TIMEOUT_MS } from "../../helpers/fixture-timeout";

const posix = process.platform !== "win32";
/** Only root can give a file to another user. */
const asRoot = posix && process.getuid?.() === 0;
const NOW = new Date("2026-11-23T10:05:30Z");

/** The real machine, except the clock and which pids count as running. */
function environment(
	alive: ReadonlySet<number> = new Set([process.pid]),
	overrides: Partial<DoctorEnvironment> = {},
): DoctorEnvironment {
	return {
		...defaultDoctorEnvironment(),
		now: () => NOW,
		isProcessAlive: (pid) => alive.has(pid),
		claudeConfigDir: undefined,
		...overrides,
	};
}

function inputsFor(bridge: BridgeFixture, vaultPath: string = bridge.vault): DoctorInputs {
	return {
		vaultPath,
		status: bridge.host.status(),
		pid: process.pid,
		ideName: "Obsidian · test",
		homeDir: bridge.home,
	};
}

function find(lines: DoctorLine[], pattern: RegExp): DoctorLine {
	const line = lines.find((candidate) => pattern.test(candidate.what));
	if (!line) throw new Error(`No line matches ${String(pattern)}:\n${formatDoctorReport(lines)}`);
	return line;
}

async function rewriteLock(bridge: BridgeFixture, change: Partial<LockFileContent>): Promise<void> {
	const current = JSON.parse(readFileSync(bridge.lockFilePath, "utf8")) as LockFileContent;
	await writeLockFile(bridge.home, bridge.port, { ...current, ...change });
}

describe("the doctor", () => {
	let bridge: BridgeFixture;
	beforeEach(async () => {
		bridge = await startBridge();
	}, FIXTURE_TIMEOUT_MS);
	afterEach(() => bridge?.stop());

	it("passes every check on a healthy bridge, and says no client is connected yet", async () => {
		const lines = await runDoctor(inputsFor(bridge), environment());
		expect(lines.filter((line) => line.level !== "ok")).toEqual([
			{
				level: "warn",
				what: "No Claude Code client is connected",
				fix: 'Start Claude Code with the launch command below, or run /ide in a running session and pick "Obsidian · test".',
			},
		]);
		expect(lines.map((line) => line.what)).toEqual([
			`The bridge listens on 127.0.0.1:${bridge.port}`,
			posix
				? `The lock folder ${lockDirectory(bridge.home)} is private (0700)`
				: `The lock folder ${lockDirectory(bridge.home)} exists (on Windows, access follows your user profile)`,
			posix
				? `The lock file ${bridge.lockFilePath} exists with mode 0600`
				: `The lock file ${bridge.lockFilePath} exists`,
			`The lock file is this bridge's: pid ${process.pid}, "Obsidian · test", token fingerprint ${tokenFingerprint(bridge.token)}`,
			`The lock file lists the vault's real path ${bridge.vault}`,
			`Port ${bridge.port} answers and accepts the token in the lock file`,
			"No other editors' lock files",
			"No Claude Code client is connected",
			`Start Claude Code in this vault with: cd "${bridge.vault}" && claude --ide (from another folder: CLAUDE_CODE_SSE_PORT=${bridge.port} claude --ide; unless the port is fixed, it changes when the bridge restarts)`,
		]);
		expect(lines.at(-1)?.command).toBe(`cd "${bridge.vault}" && claude --ide`);
	});

	it("lists connected clients with their pid and since when", async () => {
		const status: BridgeStatus = {
			...bridge.host.status(),
			clients: [
				{
					id: 3,
					pid: 4242,
					clientName: "claude-code",
					clientVersion: "2.1.330",
					connectedAt: new Date("2026-11-23T10:00:00Z"),
				},
			],
		};
		const lines = await runDoctor({ ...inputsFor(bridge), status }, environment());
		const time = new Date("2026-11-23T10:00:00Z").toTimeString().slice(0, 8);
		expect(find(lines, /^Connected: /)).toEqual({
			level: "ok",
			what: `Connected: claude-code 2.1.330 (pid 4242) since ${time}, 5 min ago`,
		});
	});

	it("fails when the lock file is missing, and says to restart", async () => {
		rmSync(bridge.lockFilePath);
		const lines = await runDoctor(inputsFor(bridge), environment());
		const missing = find(lines, /is missing$/);
		expect(missing.level).toBe("fail");
		expect(missing.fix).toMatch(/^Restart the bridge/);
		// One cause, one failure: the port is not probed without a token to present.
		expect(lines.filter((line) => line.level === "fail")).toEqual([missing]);
	});

	(posix ? it : it.skip)("fails on a lock file other users can read, which it refuses", async () => {
		chmodSync(bridge.lockFilePath, 0o644);
		const lines = await runDoctor(inputsFor(bridge), environment());
		expect(find(lines, /^The lock file .* is refused/)).toEqual({
			level: "fail",
			what: `The lock file ${bridge.lockFilePath} is refused: it has mode 0644, not 0600`,
			fix: "Restart the bridge: it writes a new lock file with mode 0600 and a new token.",
		});
		// One cause, one failure: a refused lock file is not read, so its token is not probed.
		expect(lines.filter((line) => line.level === "fail")).toHaveLength(1);
	});

	(posix ? it : it.skip)("fails on a lock folder other users can open, whose lock files it refuses", async () => {
		chmodSync(lockDirectory(bridge.home), 0o755);
		const lines = await runDoctor(inputsFor(bridge), environment());
		expect(lines.filter((line) => line.level === "fail")).toEqual([
			{
				level: "fail",
				what: `The lock folder ${lockDirectory(bridge.home)} has mode 0755, not 0700, so the lock files in it are refused`,
				fix: `Run chmod 700 "${lockDirectory(bridge.home)}" (the bridge also tightens it on each start).`,
			},
		]);
	});

	it("fails on a lock file whose port field disagrees with its name", async () => {
		const current = JSON.parse(readFileSync(bridge.lockFilePath, "utf8")) as Record<string, unknown>;
		writeFileSync(bridge.lockFilePath, JSON.stringify({ ...current, port: bridge.port + 1 }), { mode: 0o600 });
		const lines = await runDoctor(inputsFor(bridge), environment());
		expect(find(lines, /^The lock file .* is refused/)).toEqual({
			level: "fail",
			what: `The lock file ${bridge.lockFilePath} is refused: its port field says ${bridge.port + 1} but its name says ${bridge.port}`,
			fix: "Restart the bridge: it writes the lock file again.",
		});
	});

	it("fails when the lock file is a symbolic link, even to the bridge's own lock file", async () => {
		const moved = join(bridge.home, "moved.lock");
		writeFileSync(moved, readFileSync(bridge.lockFilePath), { mode: 0o600 });
		rmSync(bridge.lockFilePath);
		symlinkSync(moved, bridge.lockFilePath);
		const lines = await runDoctor(inputsFor(bridge), environment());
		expect(find(lines, /^The lock file .* is refused/)).toEqual({
			level: "fail",
			what: `The lock file ${bridge.lockFilePath} is refused: it is a symbolic link`,
			fix: `Delete it, then restart the bridge: rm "${bridge.lockFilePath}"`,
		});
		expect(lines.some((line) => /accepts the token/.test(line.what))).toBe(false);
	});

	it("warns about another lock file it refuses, with the reason", async () => {
		const directory = lockDirectory(bridge.home);
		symlinkSync(bridge.lockFilePath, join(directory, "7777.lock"));
		const lines = await runDoctor(inputsFor(bridge), environment());
		expect(find(lines, /^The lock file 7777\.lock/)).toEqual({
			level: "warn",
			what: "The lock file 7777.lock is refused: it is a symbolic link",
			fix: `Delete the link: rm "${join(directory, "7777.lock")}"`,
		});
		expect(find(lines, /^No other editors' lock files/).level).toBe("ok");
	});

	(posix ? it : it.skip)("warns about a $CLAUDE_CONFIG_DIR/ide folder it refuses", async () => {
		const configDir = join(bridge.home, "config");
		mkdirSync(join(configDir, "ide"), { recursive: true, mode: 0o755 });
		chmodSync(join(configDir, "ide"), 0o755);
		writeFileSync(
			join(configDir, "ide", "5555.lock"),
			JSON.stringify({ pid: process.pid, ideName: "Neovim", workspaceFolders: ["/projects/x"] }),
			{ mode: 0o600 },
		);
		const lines = await runDoctor(inputsFor(bridge), environment(undefined, { claudeConfigDir: configDir }));
		expect(find(lines, /^The lock folder .*config/)).toEqual({
			level: "warn",
			what: `The lock folder ${join(configDir, "ide")} has mode 0755, not 0700, so the lock files in it are refused`,
			fix: `Run chmod 700 "${join(configDir, "ide")}" if its lock files are yours.`,
		});
		expect(find(lines, /^No other editors' lock files/).level).toBe("ok");
	});

	it("fails when another process's pid is in the lock file", async () => {
		await rewriteLock(bridge, { pid: 999_999 });
		const line = find(await runDoctor(inputsFor(bridge), environment()), /^The lock file is not this bridge's/);
		expect(line.level).toBe("fail");
		expect(line.what).toBe(`The lock file is not this bridge's: its pid is 999999, not this app's ${process.pid}`);
		expect(line.fix).toMatch(/^Another process wrote this port's lock file\. Restart the bridge/);
	});

	it("fails when the port refuses the token in the lock file", async () => {
		await rewriteLock(bridge, { authToken: "f".repeat(64) });
		const lines = await runDoctor(inputsFor(bridge), environment());
		expect(find(lines, /refused the token/)).toEqual({
			level: "fail",
			what: `Port ${bridge.port} refused the token in the lock file (HTTP 401)`,
			fix: "Restart the bridge, then run /ide in Claude Code. The lock file and the server must hold the same token.",
		});
		expect(find(lines, /^The lock file is not this bridge's/).what).toContain(
			`its token (fingerprint ${tokenFingerprint("f".repeat(64))}) is not the bridge's (${tokenFingerprint(bridge.token)})`,
		);
	});

	it("fails when nothing answers on the port, and when the lock file is not JSON", async () => {
		const port = await closedPort();
		const path = lockFilePath(bridge.home, port);
		await writeLockFile(bridge.home, port, {
			...(JSON.parse(readFileSync(bridge.lockFilePath, "utf8")) as LockFileContent),
		});
		const status: BridgeStatus = {
			state: "listening",
			port,
			lockFilePath: path,
			tokenFingerprint: tokenFingerprint(bridge.token),
			clients: [],
		};
		const lines = await runDoctor({ ...inputsFor(bridge), status }, environment());
		const line = find(lines, /^Nothing answers/);
		expect(line.level).toBe("fail");
		expect(line.what).toMatch(new RegExp(`^Nothing answers on 127\\.0\\.0\\.1:${port} \\(.*ECONNREFUSED`));

		writeFileSync(path, "not json", { mode: 0o600 });
		const broken = await runDoctor({ ...inputsFor(bridge), status }, environment());
		expect(find(broken, /is not valid JSON/).level).toBe("fail");
	});

	it("reports a check that throws as a failed line instead of throwing", async () => {
		const lines = await runDoctor(
			inputsFor(bridge),
			environment(undefined, { probe: () => Promise.reject(new Error("probe exploded")) }),
		);
		expect(find(lines, /^Could not check the lock file/)).toMatchObject({
			level: "fail",
			what: "Could not check the lock file: probe exploded",
		});
		expect(find(lines, /^Start Claude Code/).level).toBe("ok");
	});

	it("names other editors, flags stale lock files, unreadable ones, and editors that also cover this vault", async () => {
		const directory = lockDirectory(bridge.home);
		const other = (port: number, content: object) =>
			writeFileSync(join(directory, `${port}.lock`), JSON.stringify(content), { mode: 0o600 });
		other(1111, {
			pid: 501,
			ideName: "Visual Studio Code",
			workspaceFolders: [join(bridge.vault, "..")],
			transport: "ws",
			authToken: "x",
		});
		other(2222, { pid: 502, ideName: "IntelliJ IDEA", workspaceFolders: ["/somewhere/else"], transport: "ws" });
		other(3333, { pid: 503, ideName: "Cursor", workspaceFolders: [bridge.vault] });
		writeFileSync(join(directory, "4444.lock"), "{ torn", { mode: 0o600 });
		const lines = await runDoctor(inputsFor(bridge), environment(new Set([process.pid, 501, 502])));

		expect(find(lines, /^Other editors' lock files/)).toEqual({
			level: "ok",
			what: "Other editors' lock files: Visual Studio Code (port 1111, pid 501), IntelliJ IDEA (port 2222, pid 502)",
		});
		expect(find(lines, /also covers this vault/)).toEqual({
			level: "warn",
			what: `Visual Studio Code (port 1111, pid 501) also covers this vault (its folder ${join(bridge.vault, "..")}): with two matching editors Claude Code does not connect on its own`,
			fix: `In Claude Code run /ide and pick this vault, or start it with CLAUDE_CODE_SSE_PORT=${bridge.port} claude --ide to bind it to this vault.`,
		});
		expect(find(lines, /^Stale lock file 3333\.lock/)).toEqual({
			level: "warn",
			what: "Stale lock file 3333.lock: Cursor (port 3333, pid 503) is no longer running",
			fix: `Claude Code deletes it the next time it starts; you may delete it now: rm "${join(directory, "3333.lock")}"`,
			command: `rm "${join(directory, "3333.lock")}"`,
		});
		expect(find(lines, /^The lock file 4444\.lock is not valid JSON/).level).toBe("warn");
		expect(lines.filter((line) => /IntelliJ/.test(line.what))).toHaveLength(1);
	});

	it("also reads $CLAUDE_CONFIG_DIR/ide, and a folder reached twice only once", async () => {
		const configDir = join(bridge.home, "config");
		mkdirSync(join(configDir, "ide"), { recursive: true, mode: 0o700 });
		writeFileSync(
			join(configDir, "ide", "5555.lock"),
			JSON.stringify({ pid: 505, ideName: "Neovim", workspaceFolders: ["/projects/x"] }),
			{ mode: 0o600 },
		);
		writeFileSync(
			join(lockDirectory(bridge.home), "6666.lock"),
			JSON.stringify({ pid: 506, ideName: "Zed", workspaceFolders: ["/projects/y"] }),
			{ mode: 0o600 },
		);
		const alive = new Set([process.pid, 505, 506]);
		const withConfig = await runDoctor(inputsFor(bridge), environment(alive, { claudeConfigDir: configDir }));
		expect(find(withConfig, /^Other editors' lock files/).what).toBe(
			"Other editors' lock files: Zed (port 6666, pid 506), Neovim (port 5555, pid 505)",
		);

		const sameFolder = await runDoctor(
			inputsFor(bridge),
			environment(alive, { claudeConfigDir: join(bridge.home, ".claude") }),
		);
		expect(find(sameFolder, /^Other editors' lock files/).what).toBe(
			"Other editors' lock files: Zed (port 6666, pid 506)",
		);
	});

	it("says the bridge is off, skips the lock file checks, and still lists other editors and the launch command", async () => {
		await bridge.host.stop();
		const lines = await runDoctor(inputsFor(bridge), environment());
		expect(lines[0]).toEqual({
			level: "fail",
			what: "The bridge is off, so it writes no lock file and /ide cannot list the vault",
			fix: 'Turn on "Let Claude Code connect" in the plugin\'s settings.',
		});
		expect(lines.map((line) => line.what)).toEqual([
			lines[0]?.what,
			"No other editors' lock files",
			`Start Claude Code in this vault with: cd "${bridge.vault}" && claude --ide`,
		]);
	});

	it("fails without a vault on the local file system", async () => {
		const lines = await runDoctor({ ...inputsFor(bridge), vaultPath: undefined }, environment());
		expect(find(lines, /not on the local file system/).level).toBe("fail");
		expect(lines.some((line) => /^Start Claude Code/.test(line.what))).toBe(false);
	});
});

describe("the doctor and the vault's location", () => {
	const temp = makeTempDir("doctor-location");
	afterAll(() => temp.remove());

	it("says when the vault is reached through a symlink, and passes when the lock file lists the real path", async () => {
		const real = join(temp.path, "real-vault");
		const link = join(temp.path, "linked-vault");
		mkdirSync(real);
		symlinkSync(real, link, "dir");
		const bridge = await startBridge({ vaultPath: link });
		try {
			const lines = await runDoctor(inputsFor(bridge, link), environment());
			expect(find(lines, /through a symlink/)).toEqual({
				level: "ok",
				what: `The vault is reached through a symlink: ${link} → ${real}. Claude Code sees the real path as its working folder, so that is the path that must be in the lock file.`,
			});
			expect(find(lines, /lists the vault's real path/).level).toBe("ok");
			expect(find(lines, /^Start Claude Code/).what).toContain(`cd "${real}" && claude --ide`);

			await rewriteLock(bridge, { workspaceFolders: [link] });
			const wrong = find(
				await runDoctor(inputsFor(bridge, link), environment()),
				/does not list the vault's real path/,
			);
			expect(wrong).toMatchObject({
				level: "fail",
				what: `The lock file does not list the vault's real path ${real} (it lists ${link})`,
			});
			expect(wrong.fix).toContain("without following symlinks");
		} finally {
			await bridge.stop();
		}
	});

	it("says an iCloud vault lies in a synced folder, without a warning for the spaces its path has: the launch command quotes it", async () => {
		const vault = join(temp.path, "Library", "Mobile Documents", "iCloud~md~obsidian", "Documents", "My Notes");
		mkdirSync(vault, { recursive: true });
		const bridge = await startBridge({ vaultPath: vault });
		try {
			const lines = await runDoctor(inputsFor(bridge, vault), environment());
			expect(find(lines, /synced folder/)).toEqual({
				level: "ok",
				what: "The vault lies in a synced folder (iCloud Drive); the lock file stays on this computer",
			});
			expect(lines.filter((line) => /spaces/.test(line.what))).toEqual([]);
			expect(find(lines, /lists the vault's real path/).level).toBe("ok");
			expect(find(lines, /^Start Claude Code/).what).toContain(`cd "${vault}" && claude --ide`);
		} finally {
			await bridge.stop();
		}
	});

	it("fails on a lock folder that is a symbolic link, whose lock files it refuses", async () => {
		const home = join(temp.path, "home-with-linked-lock-folder");
		const vault = join(temp.path, "plain-vault");
		const elsewhere = join(temp.path, "lock-folder-elsewhere");
		mkdirSync(join(home, ".claude"), { recursive: true });
		mkdirSync(vault);
		mkdirSync(elsewhere, { mode: 0o700 });
		symlinkSync(elsewhere, lockDirectory(home), "dir");
		const host = new BridgeHost(testHostOptions(home, vault));
		const status = await host.start();
		try {
			const lines = await runDoctor(
				{ vaultPath: vault, status, pid: process.pid, ideName: "Obsidian · test", homeDir: home },
				environment(),
			);
			expect(lines.filter((line) => line.level === "fail")).toEqual([
				{
					level: "fail",
					what: `The lock folder ${lockDirectory(home)} is a symbolic link, so the lock files in it are refused`,
					fix: `Replace the link with a folder of your own: rm "${lockDirectory(home)}" && mkdir -m 700 "${lockDirectory(home)}", then restart the bridge.`,
				},
			]);
		} finally {
			await host.stop();
		}
	});

	(asRoot ? it : it.skip)("fails on a lock file that belongs to another user", async () => {
		const bridge = await startBridge();
		try {
			chownSync(bridge.lockFilePath, 4321, 4321);
			const lines = await runDoctor(inputsFor(bridge), environment());
			expect(find(lines, /^The lock file .* is refused/)).toEqual({
				level: "fail",
				what: `The lock file ${bridge.lockFilePath} is refused: it belongs to uid 4321, not to this user (uid 0)`,
				fix: `Delete it (it may take an administrator), then restart the bridge: rm "${bridge.lockFilePath}"`,
			});
		} finally {
			await bridge.stop();
		}
	});

	it("on Windows skips POSIX modes and gives a PowerShell command", async () => {
		const bridge = await startBridge();
		try {
			chmodSync(bridge.lockFilePath, 0o644);
			const lines = await runDoctor(inputsFor(bridge), environment(undefined, { platform: "win32" }));
			expect(lines.filter((line) => line.level === "fail")).toEqual([]);
			expect(find(lines, /^Start Claude Code/).what).toBe(
				`Start Claude Code in this vault with: cd '${bridge.vault}'; claude --ide (from another folder: $env:CLAUDE_CODE_SSE_PORT=${bridge.port}; claude --ide; unless the port is fixed, it changes when the bridge restarts)`,
			);
		} finally {
			await bridge.stop();
		}
	});
});

describe("the doctor's text report", () => {
	it("prints one line per finding, fixes indented, and the counts", () => {
		expect(
			formatDoctorReport([
				{ level: "ok", what: "A" },
				{ level: "ok", what: "B" },
			]),
		).toBe("ok   A\nok   B\n2 ok, 0 warnings, 0 failures");
		expect(
			formatDoctorReport([
				{ level: "ok", what: "Fine" },
				{ level: "warn", what: "Hmm", fix: "Do this" },
				{ level: "fail", what: "Broken", fix: "Do that" },
			]),
		).toBe(
			[
				"ok   Fine",
				"warn Hmm",
				"     Fix: Do this",
				"FAIL Broken",
				"     Fix: Do that",
				"1 ok, 1 warning, 1 failure",
			].join("\n"),
		);
	});
});

function closedPort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const address = server.address();
			const port = typeof address === "object" && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}
