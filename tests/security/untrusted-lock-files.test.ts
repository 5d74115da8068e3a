import {
	chmodSync,
	chownSync,
	existsSync,
	lstatSync,
	mkdirSync,
	readFileSync,
	readdirSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { LOCK_FILE_WRITER, lockDirectory, removeStaleLockFiles } from "../../src/server/lock-file";
import { makeTempDir } from "../helpers/temp-dir";

/**
 * Issue 15 finding 4: lock files are untrusted input, for the stale-lock cleanup too. It deletes only regular
 * files of this plugin (content, owner, mode 0600, port field agreeing with the name) in a private folder, and
 * never through a symbolic link. All in a temp HOME.
 */
const DEAD_PID = 999_999_999;
const posix = process.platform !== "win32";
/** Only root can give a file to another user. */
const asRoot = posix && process.getuid?.() === 0;

const stale = (port: number, fields: Record<string, unknown> = {}): string =>
	JSON.stringify({
		pid: DEAD_PID,
		workspaceFolders: ["/v"],
		ideName: "Obsidian",
		transport: "ws",
		runningInWindows: false,
		authToken: "a".repeat(64),
		writer: LOCK_FILE_WRITER,
		port,
		...fields,
	});

describe("the stale-lock cleanup reads lock files as untrusted input", () => {
	let temp: { path: string; remove: () => void };
	let directory: string;

	beforeEach(() => {
		temp = makeTempDir("untrusted-locks");
		directory = lockDirectory(temp.path);
		mkdirSync(directory, { recursive: true, mode: 0o700 });
	});
	afterEach(() => temp?.remove());

	function write(path: string, text: string): string {
		writeFileSync(path, text, { mode: 0o600 });
		return path;
	}

	it("removes a stale lock file of its own that passes every rule", async () => {
		const path = write(join(directory, "7000.lock"), stale(7000));
		expect(await removeStaleLockFiles(temp.path)).toEqual([path]);
		expect(existsSync(path)).toBe(false);
	});

	it("leaves a symbolic link named like a stale lock file, and its target, untouched", async () => {
		mkdirSync(join(temp.path, "elsewhere"));
		const target = write(join(temp.path, "elsewhere", "7001.lock"), stale(7001));
		const link = join(directory, "7002.lock");
		symlinkSync(target, link);
		const tempLink = join(directory, ".7003.lock.0123456789ab.tmp");
		symlinkSync(target, tempLink);
		expect(await removeStaleLockFiles(temp.path)).toEqual([]);
		expect(lstatSync(link).isSymbolicLink()).toBe(true);
		expect(lstatSync(tempLink).isSymbolicLink()).toBe(true);
		expect(readFileSync(target, "utf8")).toBe(stale(7001));
	});

	it("removes nothing from a lock folder that is a symbolic link", async () => {
		const elsewhere = join(temp.path, "elsewhere");
		mkdirSync(elsewhere, { mode: 0o700 });
		const target = write(join(elsewhere, "7011.lock"), stale(7011));
		rmSync(directory, { recursive: true });
		symlinkSync(elsewhere, directory, "dir");
		expect(await removeStaleLockFiles(temp.path)).toEqual([]);
		expect(readFileSync(target, "utf8")).toBe(stale(7011));
	});

	(posix ? it : it.skip)(
		"removes nothing from a lock folder other users can open, nor a lock file with another mode",
		async () => {
			const inOpenFolder = write(join(directory, "7021.lock"), stale(7021));
			chmodSync(directory, 0o755);
			expect(await removeStaleLockFiles(temp.path)).toEqual([]);
			chmodSync(directory, 0o700);
			chmodSync(write(join(directory, "7022.lock"), stale(7022)), 0o644);
			expect(await removeStaleLockFiles(temp.path)).toEqual([inOpenFolder]);
			expect(readdirSync(directory)).toEqual(["7022.lock"]);
		},
	);

	it("leaves a lock file whose port field disagrees with its name, or that has none", async () => {
		write(join(directory, "7031.lock"), stale(7032));
		write(join(directory, "7033.lock"), stale(7033, { port: undefined }));
		expect(await removeStaleLockFiles(temp.path)).toEqual([]);
		expect(readdirSync(directory).sort()).toEqual(["7031.lock", "7033.lock"]);
	});

	(asRoot ? it : it.skip)("leaves a stale lock file of this plugin that belongs to another user", async () => {
		chownSync(write(join(directory, "7041.lock"), stale(7041)), 4321, 4321);
		expect(await removeStaleLockFiles(temp.path)).toEqual([]);
		expect(readdirSync(directory)).toEqual(["7041.lock"]);
	});
});
