import {
	promises as fsPromises,
	existsSync,
	lstatSync,
	mkdirSync,
	readdirSync,
	statSync,
	symlinkSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { BridgeHost } from "../../src/ide/bridge-host";
import {
	LOCK_FILE_WRITER,
	STALE_LOCK_TEMP_MS,
	lockDirectory,
	removeStaleLockFiles,
	writeLockFile,
} from "../../src/server/lock-file";
import { testHostOptions } from "../helpers/bridge-fixture";
import { makeTempDir } from "../helpers/temp-dir";

/**
 * Issue 11 finding 9: a crash between writing the lock file's temp file and renaming it leaves
 * `.<port>.lock.<hex>.tmp` holding a token that looks live. The bridge removes such files of its own when it
 * starts (a dead writer, or older than STALE_LOCK_TEMP_MS), and never another IDE's. All in a temp HOME.
 */
const DEAD_PID = 999_999_999;
/** Our temp file's content: the lock file's, port included (it agrees with the temp file's name, as readers check). */
const ours = (pid: number, port: number): string =>
	JSON.stringify({
		pid,
		workspaceFolders: ["/v"],
		ideName: "Obsidian",
		transport: "ws",
		runningInWindows: false,
		authToken: "a".repeat(64),
		writer: LOCK_FILE_WRITER,
		port,
	});
const theirs = JSON.stringify({
	pid: DEAD_PID,
	workspaceFolders: ["/v"],
	ideName: "Visual Studio Code",
	transport: "ws",
	authToken: "b".repeat(64),
});

function ageOf(path: string, ms: number): void {
	const then = new Date(Date.now() - ms);
	utimesSync(path, then, then);
}

describe("the lock file's temp files left by a crash", () => {
	let temp: { path: string; remove: () => void };
	let directory: string;

	beforeEach(() => {
		temp = makeTempDir("lock-temp");
		directory = lockDirectory(temp.path);
		mkdirSync(directory, { recursive: true, mode: 0o700 });
	});
	afterEach(() => temp?.remove());

	it("removes ours from a dead process, ours older than the limit, and ours cut short; keeps the rest", async () => {
		const files: Record<string, { text: string; ageMs?: number }> = {
			".4101.lock.0123456789ab.tmp": { text: ours(DEAD_PID, 4101) },
			".4102.lock.0123456789ab.tmp": { text: ours(process.pid, 4102), ageMs: STALE_LOCK_TEMP_MS * 2 },
			".4103.lock.0123456789ab.tmp": { text: '{"pid":123,"workspaceFol', ageMs: STALE_LOCK_TEMP_MS * 2 },
			".4104.lock.0123456789ab.tmp": { text: "", ageMs: STALE_LOCK_TEMP_MS * 2 },
			// Kept: a live writer's fresh temp file (it is about to be renamed).
			".4105.lock.0123456789ab.tmp": { text: ours(process.pid, 4105) },
			// Kept: fresh and cut short (its writer may still be writing).
			".4106.lock.0123456789ab.tmp": { text: '{"pid":1' },
			// Kept: another IDE's, even old and with a dead pid, named like ours or not.
			".4107.lock.0123456789ab.tmp": { text: theirs, ageMs: STALE_LOCK_TEMP_MS * 2 },
			".4108.lock.tmp": { text: ours(DEAD_PID, 4108), ageMs: STALE_LOCK_TEMP_MS * 2 },
			"4109.lock.tmp": { text: ours(DEAD_PID, 4109), ageMs: STALE_LOCK_TEMP_MS * 2 },
			".4110.lock.0123456789ab.tmp": { text: "not json at all", ageMs: STALE_LOCK_TEMP_MS * 2 },
		};
		for (const [name, file] of Object.entries(files)) {
			writeFileSync(join(directory, name), file.text, { mode: 0o600 });
			if (file.ageMs !== undefined) ageOf(join(directory, name), file.ageMs);
		}
		const removed = await removeStaleLockFiles(temp.path);
		expect(removed.map((path) => path.slice(directory.length + 1)).sort()).toEqual([
			".4101.lock.0123456789ab.tmp",
			".4102.lock.0123456789ab.tmp",
			".4103.lock.0123456789ab.tmp",
			".4104.lock.0123456789ab.tmp",
		]);
		expect(readdirSync(directory).sort()).toEqual(
			[
				".4105.lock.0123456789ab.tmp",
				".4106.lock.0123456789ab.tmp",
				".4107.lock.0123456789ab.tmp",
				".4108.lock.tmp",
				"4109.lock.tmp",
				".4110.lock.0123456789ab.tmp",
			].sort(),
		);
	});

	it("a folder or a symbolic link named like our temp file is left alone", async () => {
		mkdirSync(join(directory, ".4111.lock.0123456789ab.tmp"));
		ageOf(join(directory, ".4111.lock.0123456789ab.tmp"), STALE_LOCK_TEMP_MS * 2);
		// A link to a file that would count as ours (dead writer): the link is not ours to judge.
		writeFileSync(join(temp.path, "elsewhere.json"), ours(DEAD_PID, 4112), { mode: 0o600 });
		symlinkSync(join(temp.path, "elsewhere.json"), join(directory, ".4112.lock.0123456789ab.tmp"));
		expect(await removeStaleLockFiles(temp.path)).toEqual([]);
		expect(statSync(join(directory, ".4111.lock.0123456789ab.tmp")).isDirectory()).toBe(true);
		expect(lstatSync(join(directory, ".4112.lock.0123456789ab.tmp")).isSymbolicLink()).toBe(true);
	});

	it("the bridge removes a crashed run's temp file when it starts, and leaves only its own lock file", async () => {
		const crashed = join(directory, ".4120.lock.abcdefabcdef.tmp");
		writeFileSync(crashed, ours(DEAD_PID, 4120), { mode: 0o600 });
		const vault = join(temp.path, "vault");
		mkdirSync(vault);
		const host = new BridgeHost(testHostOptions(temp.path, vault, { port: 0 }));
		const status = await host.start();
		try {
			expect(existsSync(crashed)).toBe(false);
			expect(readdirSync(directory)).toEqual([`${status.port}.lock`]);
		} finally {
			await host.stop();
		}
	});

	it("the temp file is created exclusively with mode 0600 from the start, not widened then narrowed", async () => {
		const open = jest.spyOn(fsPromises, "open");
		try {
			await writeLockFile(
				temp.path,
				4130,
				JSON.parse(ours(process.pid, 4130)) as Parameters<typeof writeLockFile>[2],
			);
			const tempOpens = open.mock.calls.filter(([path]) => /\.4130\.lock\.[0-9a-f]{12}\.tmp$/.test(String(path)));
			expect(tempOpens.map(([, flags, mode]) => [flags, mode])).toEqual([["wx", 0o600]]);
		} finally {
			open.mockRestore();
		}
	});
});
