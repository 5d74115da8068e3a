import { mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LOCK_FILE_WRITER } from "../../../src/server/lock-file";
import { BridgeLocator } from "../../../src/vault-tools/relay-client/bridge-locator";
import { makeTempDir } from "../../helpers/temp-dir";

const ALIVE = 1000;

describe("BridgeLocator: the vault's running bridge from the IDE lock files", () => {
	const temp = makeTempDir("bridge-locator");
	const vault = join(temp.path, "My vault");
	const home = join(temp.path, "home");
	const lockDir = join(home, ".claude", "ide");
	let seconds = 1_700_000_000;

	beforeEach(() => {
		mkdirSync(vault, { recursive: true });
		mkdirSync(lockDir, { recursive: true });
	});
	afterEach(() => rmSync(temp.path, { recursive: true, force: true }));
	afterAll(() => temp.remove());

	function lock(directory: string, port: number, fields: Record<string, unknown>): void {
		mkdirSync(directory, { recursive: true });
		const file = join(directory, `${port}.lock`);
		writeFileSync(file, JSON.stringify({ pid: ALIVE, workspaceFolders: [vault], ideName: "Obsidian", transport: "ws", runningInWindows: false, authToken: `token-${port}`, writer: LOCK_FILE_WRITER, ...fields }));
		seconds += 10;
		utimesSync(file, seconds, seconds);
	}

	const locator = (options: { vaultPath?: string; claudeConfigDir?: string } = {}) =>
		new BridgeLocator({ vaultPath: options.vaultPath ?? vault, homeDir: home, claudeConfigDir: options.claudeConfigDir, isAlive: (pid) => pid === ALIVE });

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
		expect(await locator().find()).toMatchObject({ port: 1010, authToken: "token-1010", pid: ALIVE, ideName: "Obsidian", lockFile: join(lockDir, "1010.lock") });
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
});
