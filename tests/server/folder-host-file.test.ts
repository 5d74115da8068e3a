import { chmodSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claimFolderHost, folderHostDirectory, folderHostPath, readFolderHost, releaseFolderHost } from "../../src/server/folder-host-file";
import { LOCK_FILE_WRITER } from "../../src/server/lock-file";
import { makeTempDir } from "../helpers/temp-dir";

/** File modes and owners mean nothing on Windows: these tests are skipped there, visibly. */
const describeOnPosix = process.platform === "win32" ? describe.skip : describe;

describeOnPosix("the folder host file (one vault index for every mcp --vault session)", () => {
	let temp: ReturnType<typeof makeTempDir>;
	let path: string;
	const record = { pid: process.pid, port: 4321, authToken: "a".repeat(64), vaultPath: "/vault" };
	const alive = (): boolean => true;
	const dead = (): boolean => false;

	beforeEach(() => {
		temp = makeTempDir("folder-host");
		path = folderHostPath(temp.path, "key");
	});
	afterEach(() => temp.remove());

	it("is claimed as a 0600 file in a 0700 folder under the home folder, and read back", () => {
		expect(claimFolderHost(path, record, alive)).toBe("claimed");
		expect(statSync(path).mode & 0o777).toBe(0o600);
		expect(statSync(folderHostDirectory(temp.path)).mode & 0o777).toBe(0o700);
		expect(readFolderHost(path)).toEqual({ writer: LOCK_FILE_WRITER, kind: "folder-host", ...record });
		// Nothing else is left in the folder (the temporary file is gone).
		expect(readdirSync(folderHostDirectory(temp.path))).toEqual(["key.json"]);
	});

	it("is taken while its process lives, and replaced once it is gone", () => {
		expect(claimFolderHost(path, record, alive)).toBe("claimed");
		expect(claimFolderHost(path, { ...record, pid: record.pid + 1, port: 5555 }, alive)).toBe("taken");
		expect(readFolderHost(path)?.port).toBe(4321);
		expect(claimFolderHost(path, { ...record, pid: record.pid + 1, port: 5555 }, dead)).toBe("claimed");
		expect(readFolderHost(path)?.port).toBe(5555);
	});

	it("is removed on release only by the process it names", () => {
		claimFolderHost(path, record, alive);
		releaseFolderHost(path, record.pid + 1);
		expect(readFolderHost(path)).toBeDefined();
		releaseFolderHost(path, record.pid);
		expect(readFolderHost(path)).toBeUndefined();
	});

	it("is not read through a symbolic link, nor when others may read it, nor when another program wrote it", () => {
		claimFolderHost(path, record, alive);
		const elsewhere = join(temp.path, "elsewhere.json");
		writeFileSync(elsewhere, readFileSync(path), { mode: 0o600 });
		const link = folderHostPath(temp.path, "linked");
		symlinkSync(elsewhere, link);
		expect(readFolderHost(link)).toBeUndefined();

		chmodSync(path, 0o644);
		expect(readFolderHost(path)).toBeUndefined();

		const foreign = folderHostPath(temp.path, "foreign");
		writeFileSync(foreign, JSON.stringify({ ...record, writer: "someone-else", kind: "folder-host" }), { mode: 0o600 });
		expect(readFolderHost(foreign)).toBeUndefined();
	});

	it("is never written into a folder that is a link or open to other users", () => {
		const real = join(temp.path, "real");
		mkdirSync(real, { mode: 0o700 });
		mkdirSync(join(temp.path, ".claude-code-bridge"), { mode: 0o700 });
		symlinkSync(real, folderHostDirectory(temp.path));
		expect(() => claimFolderHost(path, record, alive)).toThrow(/not a folder/);
		expect(readdirSync(real)).toEqual([]);

		const other = makeTempDir("folder-host-open");
		try {
			mkdirSync(folderHostDirectory(other.path), { recursive: true });
			chmodSync(folderHostDirectory(other.path), 0o755);
			expect(() => claimFolderHost(folderHostPath(other.path, "key"), record, alive)).toThrow(/open to other users/);
		} finally {
			other.remove();
		}
	});
});
