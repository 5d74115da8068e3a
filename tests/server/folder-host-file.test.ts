import {
	chmodSync,
	copyFileSync,
	mkdirSync,
	readFileSync,
	readdirSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import {
	claimFolderHost,
	folderHostDirectory,
	folderHostPath,
	readFolderHost,
	releaseFolderHost,
	type FolderHostReading,
} from "../../src/server/folder-host-file";
import { LOCK_FILE_WRITER } from "../../src/server/lock-file";
import { makeTempDir } from "../helpers/temp-dir";

/** File modes and owners mean nothing on Windows: these tests are skipped there, visibly. */
const describeOnPosix = process.platform === "win32" ? describe.skip : describe;

const KEY = "0123456789abcdef0123456789abcdef";
const OTHER_KEY = "fedcba9876543210fedcba9876543210";

function reason(reading: FolderHostReading): string {
	return reading.kind === "refused" ? reading.reason : reading.kind;
}

describeOnPosix("the folder host file (one vault index for every mcp --vault session)", () => {
	let temp: ReturnType<typeof makeTempDir>;
	let path: string;
	const record = { pid: process.pid, port: 4321, authToken: "a".repeat(64), vaultPath: "/vault" };
	const alive = (): boolean => true;
	const dead = (): boolean => false;

	beforeEach(() => {
		temp = makeTempDir("folder-host");
		path = folderHostPath(temp.path, KEY);
	});
	afterEach(() => temp?.remove());

	it("is claimed as a 0600 file in a 0700 folder under the home folder, and read back", () => {
		expect(claimFolderHost(path, record, alive)).toBe("claimed");
		expect(statSync(path).mode & 0o777).toBe(0o600);
		expect(statSync(folderHostDirectory(temp.path)).mode & 0o777).toBe(0o700);
		expect(readFolderHost(path)).toEqual({
			kind: "read",
			record: { writer: LOCK_FILE_WRITER, kind: "folder-host", key: KEY, ...record },
		});
		// Nothing else is left in the folder (the temporary file is gone).
		expect(readdirSync(folderHostDirectory(temp.path))).toEqual([`${KEY}.json`]);
	});

	it("is taken while its process lives, and replaced once it is gone", () => {
		expect(claimFolderHost(path, record, alive)).toBe("claimed");
		expect(claimFolderHost(path, { ...record, pid: record.pid + 1, port: 5555 }, alive)).toBe("taken");
		expect(readFolderHost(path)).toMatchObject({ record: { port: 4321 } });
		expect(claimFolderHost(path, { ...record, pid: record.pid + 1, port: 5555 }, dead)).toBe("claimed");
		expect(readFolderHost(path)).toMatchObject({ record: { port: 5555 } });
	});

	it("is removed on release only by the process it names", () => {
		claimFolderHost(path, record, alive);
		releaseFolderHost(path, record.pid + 1);
		expect(readFolderHost(path).kind).toBe("read");
		releaseFolderHost(path, record.pid);
		expect(readFolderHost(path).kind).toBe("missing");
	});

	it("is refused through a symbolic link, with another mode, and when another program wrote it", () => {
		claimFolderHost(path, record, alive);
		const elsewhere = join(temp.path, "elsewhere.json");
		writeFileSync(elsewhere, readFileSync(path), { mode: 0o600 });
		const link = folderHostPath(temp.path, OTHER_KEY);
		symlinkSync(elsewhere, link);
		expect(reason(readFolderHost(link))).toBe("it is a symbolic link");

		chmodSync(path, 0o644);
		expect(reason(readFolderHost(path))).toMatch(/^it has the wrong mode \(mode 0644, not 0600\)/);
		chmodSync(path, 0o400);
		expect(reason(readFolderHost(path))).toMatch(/mode 0400, not 0600/);

		const foreign = folderHostPath(temp.path, "11111111111111111111111111111111");
		writeFileSync(
			foreign,
			JSON.stringify({
				...record,
				writer: "someone-else",
				kind: "folder-host",
				key: "11111111111111111111111111111111",
			}),
			{ mode: 0o600 },
		);
		expect(reason(readFolderHost(foreign))).toBe("it is not a folder host record of Claude Code Bridge");
	});

	it("is refused when its content does not hold: a key other than its name, a port out of range, a token the host never makes", () => {
		claimFolderHost(path, record, alive);
		// A copy under another vault's name (as a planted file would be) names the wrong key.
		const copied = folderHostPath(temp.path, OTHER_KEY);
		copyFileSync(path, copied);
		chmodSync(copied, 0o600);
		expect(reason(readFolderHost(copied))).toBe(`its key "${KEY}" is not its name ${OTHER_KEY}.json`);

		const write = (fields: Record<string, unknown>): FolderHostReading => {
			writeFileSync(
				path,
				JSON.stringify({ writer: LOCK_FILE_WRITER, kind: "folder-host", key: KEY, ...record, ...fields }),
				{ mode: 0o600 },
			);
			return readFolderHost(path);
		};
		expect(reason(write({ port: 70000 }))).toBe("its port is not a TCP port");
		expect(reason(write({ port: "4321" }))).toBe("its port is not a TCP port");
		expect(reason(write({ authToken: "short" }))).toBe("its token is not one the host makes");
		expect(reason(write({ pid: -1 }))).toBe("its pid is not a process id");
		expect(reason(write({ vaultPath: "" }))).toBe("it names no vault");
		writeFileSync(path, "not json", { mode: 0o600 });
		expect(reason(readFolderHost(path))).toBe("it is not JSON");
		expect(write({}).kind).toBe("read");
	});

	it("is refused in a folder others may open, or one that is a symbolic link", () => {
		claimFolderHost(path, record, alive);
		chmodSync(folderHostDirectory(temp.path), 0o755);
		expect(reason(readFolderHost(path))).toMatch(/^its folder .* is open to other users \(mode 0755, not 0700\)$/);
		chmodSync(folderHostDirectory(temp.path), 0o700);

		const other = makeTempDir("folder-host-linked");
		try {
			mkdirSync(join(other.path, ".claude-code-bridge"), { mode: 0o700 });
			symlinkSync(folderHostDirectory(temp.path), folderHostDirectory(other.path));
			expect(reason(readFolderHost(folderHostPath(other.path, KEY)))).toMatch(
				/^its folder .* is a symbolic link, not a folder$/,
			);
		} finally {
			other.remove();
		}
	});

	it("is never written into a folder that is a link or open to other users", () => {
		const real = join(temp.path, "real");
		mkdirSync(real, { mode: 0o700 });
		mkdirSync(join(temp.path, ".claude-code-bridge"), { mode: 0o700 });
		symlinkSync(real, folderHostDirectory(temp.path));
		expect(() => claimFolderHost(path, record, alive)).toThrow(/is a symbolic link, not a folder/);
		expect(readdirSync(real)).toEqual([]);

		const other = makeTempDir("folder-host-open");
		try {
			mkdirSync(folderHostDirectory(other.path), { recursive: true });
			chmodSync(folderHostDirectory(other.path), 0o755);
			expect(() => claimFolderHost(folderHostPath(other.path, KEY), record, alive)).toThrow(
				/open to other users/,
			);
		} finally {
			other.remove();
		}
	});

	it("has a name only of the key's form", () => {
		expect(() => folderHostPath(temp.path, "../escape")).toThrow(/not a folder host key/);
	});
});
