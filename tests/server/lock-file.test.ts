import {
	chmodSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { BridgeHost } from "../../src/ide/bridge-host";
import { LOCK_FILE_WRITER, lockDirectory, removeStaleLockFiles } from "../../src/server/lock-file";
import { startBridge, testHostOptions } from "../helpers/bridge-fixture";
import { makeTempDir } from "../helpers/temp-dir";

/** File modes mean nothing on Windows: these tests are skipped there, visibly (the one allowed kind of skip). */
const itOnPosix = process.platform === "win32" ? it.skip : it;

describe("the lock file", () => {
	it("holds the fields the CLI reads, with the real vault path, and its port for readers to check against its name", async () => {
		const bridge = await startBridge();
		try {
			expect(bridge.lockFilePath).toBe(join(bridge.home, ".claude", "ide", `${bridge.port}.lock`));
			expect(bridge.lock).toEqual({
				pid: process.pid,
				workspaceFolders: [bridge.vault],
				ideName: "Obsidian · test",
				transport: "ws",
				runningInWindows: process.platform === "win32",
				authToken: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
				writer: LOCK_FILE_WRITER,
				port: bridge.port,
			});
			expect(readdirSync(lockDirectory(bridge.home))).toEqual([`${bridge.port}.lock`]);
		} finally {
			await bridge.stop();
		}
	});

	itOnPosix("is mode 0600 in a 0700 folder", async () => {
		const bridge = await startBridge();
		try {
			expect(statSync(bridge.lockFilePath).mode & 0o777).toBe(0o600);
			expect(statSync(lockDirectory(bridge.home)).mode & 0o777).toBe(0o700);
		} finally {
			await bridge.stop();
		}
	});

	it("is removed on stop, and a new start gets a new token", async () => {
		const bridge = await startBridge();
		await bridge.host.stop();
		expect(existsSync(bridge.lockFilePath)).toBe(false);
		const status = await bridge.host.start();
		const lock = JSON.parse(readFileSync(status.lockFilePath ?? "", "utf8")) as { authToken: string };
		expect(lock.authToken).not.toBe(bridge.token);
		await bridge.stop();
	});

	itOnPosix("tightens an existing lock folder to 0700", async () => {
		const temp = makeTempDir("mode");
		mkdirSync(lockDirectory(temp.path), { recursive: true, mode: 0o755 });
		chmodSync(lockDirectory(temp.path), 0o755);
		const host = hostFor(temp.path, temp.path);
		await host.start();
		expect(statSync(lockDirectory(temp.path)).mode & 0o777).toBe(0o700);
		await host.stop();
		temp.remove();
	});

	it("lists the real path of a vault reached through a symlink first", async () => {
		const temp = makeTempDir("symlink");
		const real = join(temp.path, "real vault");
		mkdirSync(real);
		const link = join(temp.path, "linked vault");
		symlinkSync(real, link);
		const host = hostFor(temp.path, link);
		const status = await host.start();
		const lock = JSON.parse(readFileSync(status.lockFilePath ?? "", "utf8")) as { workspaceFolders: string[] };
		expect(lock.workspaceFolders).toEqual([real, link]);
		await host.stop();
		temp.remove();
	});

	it("gives a clear error when the lock folder cannot be written, and leaves no port open", async () => {
		const temp = makeTempDir("readonly");
		writeFileSync(join(temp.path, ".claude"), "a file where the folder should be");
		const host = hostFor(temp.path, temp.path);
		const status = await host.start();
		expect(status.state).toBe("failed");
		expect(status.error).toMatch(
			/^Could not write the lock file .*\.claude[/\\]ide[/\\]\d+\.lock: (ENOTDIR|EEXIST)/,
		);
		expect(status.port).toBeUndefined();
		temp.remove();
	});
});

describe("stale lock files at start", () => {
	it("removes only this plugin's files whose pid is dead, and spares everything else", async () => {
		const temp = makeTempDir("stale");
		const directory = lockDirectory(temp.path);
		mkdirSync(directory, { recursive: true, mode: 0o700 });
		const deadPid = 999_999_999;
		const files: Record<string, unknown> = {
			"1001.lock": {
				pid: deadPid,
				workspaceFolders: ["/x"],
				ideName: "Obsidian · old",
				transport: "ws",
				authToken: "t",
				writer: LOCK_FILE_WRITER,
				port: 1001,
			},
			"1002.lock": {
				pid: process.pid,
				workspaceFolders: ["/y"],
				ideName: "Obsidian · live",
				transport: "ws",
				authToken: "t",
				writer: LOCK_FILE_WRITER,
				port: 1002,
			},
			"1003.lock": {
				pid: deadPid,
				workspaceFolders: ["/z"],
				ideName: "Visual Studio Code",
				transport: "ws",
				authToken: "t",
			},
			"1004.lock": {
				pid: deadPid,
				workspaceFolders: ["/z"],
				ideName: "Obsidian",
				transport: "ws",
				authToken: "t",
			},
		};
		for (const [name, content] of Object.entries(files))
			writeFileSync(join(directory, name), JSON.stringify(content), { mode: 0o600 });
		writeFileSync(join(directory, "1005.lock"), "/legacy/format/folder\n", { mode: 0o600 });
		writeFileSync(join(directory, "notes.txt"), "not a lock file");

		const removed = await removeStaleLockFiles(temp.path);
		expect(removed).toEqual([join(directory, "1001.lock")]);
		expect(readdirSync(directory).sort()).toEqual([
			"1002.lock",
			"1003.lock",
			"1004.lock",
			"1005.lock",
			"notes.txt",
		]);
		temp.remove();
	});

	it("runs when the bridge starts", async () => {
		const temp = makeTempDir("stale-start");
		const directory = lockDirectory(temp.path);
		mkdirSync(directory, { recursive: true, mode: 0o700 });
		const stale = join(directory, "1001.lock");
		writeFileSync(stale, JSON.stringify({ pid: 999_999_999, writer: LOCK_FILE_WRITER, port: 1001 }), {
			mode: 0o600,
		});
		const host = hostFor(temp.path, temp.path);
		await host.start();
		expect(existsSync(stale)).toBe(false);
		await host.stop();
		temp.remove();
	});

	it("does nothing when the folder does not exist", async () => {
		const temp = makeTempDir("none");
		expect(await removeStaleLockFiles(temp.path)).toEqual([]);
		temp.remove();
	});
});

function hostFor(home: string, vault: string): BridgeHost {
	return new BridgeHost(testHostOptions(home, vault));
}
