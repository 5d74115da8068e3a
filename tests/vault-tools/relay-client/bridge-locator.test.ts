import { chmodSync, chownSync, mkdirSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LOCK_FILE_WRITER } from "../../../src/server/lock-file";
import { BridgeLocator } from "../../../src/vault-tools/relay-client/bridge-locator";
import { makeTempDir } from "../../helpers/temp-dir";

const ALIVE = 1000;
const posix = process.platform !== "win32";
/** Only root can give a file to another user. */
const asRoot = posix && process.getuid?.() === 0;

describe("BridgeLocator: the vault's running bridge from the IDE lock files", () => {
	const temp = makeTempDir("bridge-locator");
	const vault = join(temp.path, "My vault");
	const home = join(temp.path, "home");
	const lockDir = join(home, ".claude", "ide");
	let seconds = 1_700_000_000;

	let logs: string[] = [];

	beforeEach(() => {
		logs = [];
		mkdirSync(vault, { recursive: true });
		mkdirSync(lockDir, { recursive: true, mode: 0o700 });
	});
	afterEach(() => rmSync(temp.path, { recursive: true, force: true }));
	afterAll(() => temp.remove());

	/** A lock file as the bridge writes it (mode 0600 in a 0700 folder, its port inside), with `fields` changed. */
	function lock(directory: string, port: number, fields: Record<string, unknown>): string {
		mkdirSync(directory, { recursive: true, mode: 0o700 });
		const file = join(directory, `${port}.lock`);
		const content = {
			pid: ALIVE,
			workspaceFolders: [vault],
			ideName: "Obsidian",
			transport: "ws",
			runningInWindows: false,
			authToken: `token-${port}`,
			writer: LOCK_FILE_WRITER,
			port,
			...fields,
		};
		writeFileSync(file, JSON.stringify(content), { mode: 0o600 });
		seconds += 10;
		utimesSync(file, seconds, seconds);
		return file;
	}

	const locator = (options: { vaultPath?: string; claudeConfigDir?: string } = {}) =>
		new BridgeLocator({
			vaultPath: options.vaultPath ?? vault,
			homeDir: home,
			claudeConfigDir: options.claudeConfigDir,
			isAlive: (pid) => pid === ALIVE,
			log: (message) => logs.push(message),
		});

	it("finds none when there is no lock folder or no lock file", async () => {
		expect(await locator().find()).toBeUndefined();
		rmSync(join(home, ".claude"), { recursive: true });
		expect(await locator().find()).toBeUndefined();
	});

	it("takes only this project's lock files whose pid is alive and whose folders hold the vault itself", async () => {
		lock(lockDir, 1001, { writer: undefined });
		lock(lockDir, 1002, { pid: 4242 });
		lock(lockDir, 1003, { workspaceFolders: [temp.path] });
		lock(lockDir, 1004, { workspaceFolders: [join(vault, "Sub")] });
		lock(lockDir, 1005, { transport: "sse" });
		lock(lockDir, 1006, { authToken: "" });
		writeFileSync(join(lockDir, "1007.lock"), "not json");
		expect(await locator().find()).toBeUndefined();
		lock(lockDir, 1010, {});
		expect(await locator().find()).toMatchObject({
			port: 1010,
			authToken: "token-1010",
			pid: ALIVE,
			ideName: "Obsidian",
			lockFile: join(lockDir, "1010.lock"),
		});
	});

	it("prefers the newest of two bridges for the vault", async () => {
		lock(lockDir, 2001, {});
		lock(lockDir, 2002, {});
		expect((await locator().find())?.port).toBe(2002);
	});

	it("matches a vault given through a symbolic link, and a lock file that lists the link", async () => {
		const link = join(temp.path, "link to vault");
		symlinkSync(vault, link);
		lock(lockDir, 3001, { workspaceFolders: [vault] });
		expect((await locator({ vaultPath: link }).find())?.port).toBe(3001);
		lock(lockDir, 3002, { workspaceFolders: [link] });
		expect((await locator().find())?.port).toBe(3002);
	});

	it("also reads $CLAUDE_CONFIG_DIR/ide, as the CLI does", async () => {
		const configDir = join(temp.path, "claude-config");
		lock(join(configDir, "ide"), 4001, {});
		expect(await locator().find()).toBeUndefined();
		expect((await locator({ claudeConfigDir: configDir }).find())?.port).toBe(4001);
	});

	describe("lock files read as untrusted input (issue 15 finding 4)", () => {
		it("refuses a symbolic link to a bridge's lock file, and names it once", async () => {
			const real = lock(lockDir, 5001, {});
			symlinkSync(real, join(lockDir, "5002.lock"));
			const found = locator();
			expect((await found.findAll()).map((endpoint) => endpoint.port)).toEqual([5001]);
			await found.findAll();
			expect(logs).toEqual([`Ignored the lock file ${join(lockDir, "5002.lock")}: it is a symbolic link`]);
		});

		it("refuses a hard link or copy whose port field disagrees with its name, and one of ours without a port field", async () => {
			lock(lockDir, 5011, { port: 5012 });
			lock(lockDir, 5013, { port: "5013" });
			lock(lockDir, 5014, { port: undefined });
			expect(await locator().findAll()).toEqual([]);
			expect(logs.sort()).toEqual([
				`Ignored the lock file ${join(lockDir, "5011.lock")}: its port field says 5012 but its name says 5011`,
				`Ignored the lock file ${join(lockDir, "5013.lock")}: its port field says "5013" but its name says 5013`,
				`Ignored the lock file ${join(lockDir, "5014.lock")}: it has no port field to confirm the port in its name (an older version of the bridge wrote it; restart that bridge)`,
			]);
		});

		(posix ? it : it.skip)("refuses a lock file that other users can read or write", async () => {
			chmodSync(lock(lockDir, 5021, {}), 0o644);
			chmodSync(lock(lockDir, 5022, {}), 0o620);
			expect(await locator().findAll()).toEqual([]);
			expect(logs.sort()).toEqual([
				`Ignored the lock file ${join(lockDir, "5021.lock")}: it has mode 0644, not 0600`,
				`Ignored the lock file ${join(lockDir, "5022.lock")}: it has mode 0620, not 0600`,
			]);
		});

		(posix ? it : it.skip)("refuses every lock file in a folder other users can open", async () => {
			lock(lockDir, 5031, {});
			chmodSync(lockDir, 0o755);
			expect(await locator().findAll()).toEqual([]);
			expect(logs).toEqual([
				`Ignored the lock file ${join(lockDir, "5031.lock")}: its folder ${lockDir} has mode 0755, not 0700`,
			]);
			chmodSync(lockDir, 0o700);
			expect((await locator().find())?.port).toBe(5031);
		});

		it("refuses the lock files of a lock folder that is a symbolic link", async () => {
			const elsewhere = join(temp.path, "elsewhere");
			lock(elsewhere, 5041, {});
			rmSync(lockDir, { recursive: true });
			symlinkSync(elsewhere, lockDir, "dir");
			const configDir = join(temp.path, "config");
			mkdirSync(configDir);
			const another = join(temp.path, "another");
			lock(another, 5041, {});
			symlinkSync(another, join(configDir, "ide"), "dir");
			expect(await locator({ claudeConfigDir: configDir }).findAll()).toEqual([]);
			expect(logs.sort()).toEqual([
				`Ignored the lock file ${join(configDir, "ide", "5041.lock")}: its folder ${join(configDir, "ide")} is a symbolic link`,
				`Ignored the lock file ${join(lockDir, "5041.lock")}: its folder ${lockDir} is a symbolic link`,
			]);
		});

		(asRoot ? it : it.skip)("refuses a lock file, or a lock folder, that belongs to another user", async () => {
			chownSync(lock(lockDir, 5051, {}), 4321, 4321);
			expect(await locator().findAll()).toEqual([]);
			expect(logs).toEqual([
				`Ignored the lock file ${join(lockDir, "5051.lock")}: it belongs to uid 4321, not to this user (uid 0)`,
			]);
			const theirs = join(temp.path, "their-ide");
			lock(theirs, 5052, {});
			chownSync(theirs, 4321, 4321);
			rmSync(lockDir, { recursive: true });
			renameSync(theirs, lockDir);
			expect(await locator().findAll()).toEqual([]);
			expect(logs[1]).toBe(
				`Ignored the lock file ${join(lockDir, "5052.lock")}: its folder ${lockDir} belongs to uid 4321, not to this user (uid 0)`,
			);
		});
	});
});
