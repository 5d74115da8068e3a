import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeLockFile, type LockFileContent } from "../../src/server/lock-file";
import { lockFolders, otherBridgesForVault } from "../../src/headless/other-hosts";
import { makeTempDir } from "../helpers/temp-dir";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

describe("otherBridgesForVault: bridges of ours already serving the vault", () => {
	const temp = makeTempDir("other-hosts");
	const home = join(temp.path, "home");
	const vault = join(temp.path, "vault");
	const lock = (pid: number, folder: string, ideName: string): LockFileContent => ({
		pid,
		workspaceFolders: [folder],
		ideName,
		transport: "ws",
		runningInWindows: false,
		authToken: "a".repeat(64),
		writer: "claude-code-bridge",
	});

	beforeAll(async () => {
		mkdirSync(home);
		mkdirSync(join(vault, "Sub"), { recursive: true });
		await writeLockFile(home, 41001, lock(101, vault, "Obsidian · vault"));
		await writeLockFile(home, 41002, lock(102, temp.path, "Obsidian · parent (headless, pid 102)"));
		await writeLockFile(home, 41003, lock(103, join(vault, "Sub"), "Obsidian · Sub"));
		await writeLockFile(home, 41004, lock(104, vault, "dead bridge"));
		await writeLockFile(home, 41005, {
			...lock(105, vault, "Visual Studio Code"),
			writer: undefined,
		} as unknown as LockFileContent);
		await writeLockFile(home, 41006, lock(process.pid, vault, "this very host"));
	}, FIXTURE_TIMEOUT_MS);
	afterAll(() => temp.remove());

	it("lists live bridges whose folder holds the vault; not a subfolder's, a dead one's, another editor's, or its own", async () => {
		const found = await otherBridgesForVault(
			vault,
			lockFolders(home, undefined),
			process.pid,
			(pid) => pid !== 104,
		);
		expect(found).toEqual([
			{ pid: 101, port: 41001, ideName: "Obsidian · vault" },
			{ pid: 102, port: 41002, ideName: "Obsidian · parent (headless, pid 102)" },
		]);
	});

	it("reads both lock folders Claude Code scans, and a missing folder counts as none", async () => {
		expect(lockFolders(home, join(temp.path, "config"))).toEqual([
			join(home, ".claude", "ide"),
			join(temp.path, "config", "ide"),
		]);
		expect(await otherBridgesForVault(vault, [join(temp.path, "missing")], process.pid, () => true)).toEqual([]);
	});
});
