import { symlinkSync } from "node:fs";
import { claimFolderHost, folderHostPath } from "../../../src/server/folder-host-file";
import {
	FOLDER_HOST_CONNECT_TIMEOUT_MS,
	FolderHostLocator,
} from "../../../src/vault-tools/relay-client/folder-host-locator";
import { makeTempDir } from "../../helpers/temp-dir";

const describeOnPosix = process.platform === "win32" ? describe.skip : describe;

const KEY = "0123456789abcdef0123456789abcdef";
const TOKEN = "7".repeat(64);

describeOnPosix("FolderHostLocator", () => {
	let temp: ReturnType<typeof makeTempDir>;
	let path: string;
	beforeEach(() => {
		temp = makeTempDir("host-locator");
		path = folderHostPath(temp.path, KEY);
	});
	afterEach(() => temp?.remove());

	it("finds another live session's index, never its own nor a gone one's, and waits longer for its handshake than for a bridge's", () => {
		claimFolderHost(path, { pid: 4242, port: 5000, authToken: TOKEN, vaultPath: "/vault" }, () => false);
		expect(
			new FolderHostLocator({ path, vaultPath: "/vault", selfPid: 1, isAlive: () => true }).find(),
		).toMatchObject({
			port: 5000,
			pid: 4242,
			authToken: TOKEN,
			lockFile: path,
			connectTimeoutMs: FOLDER_HOST_CONNECT_TIMEOUT_MS,
		});
		expect(
			new FolderHostLocator({ path, vaultPath: "/vault", selfPid: 4242, isAlive: () => true }).find(),
		).toBeUndefined();
		expect(
			new FolderHostLocator({ path, vaultPath: "/vault", selfPid: 1, isAlive: () => false }).find(),
		).toBeUndefined();
		expect(FOLDER_HOST_CONNECT_TIMEOUT_MS).toBeGreaterThan(30_000);
	});

	it("refuses a file that names another vault, and says so once", () => {
		claimFolderHost(path, { pid: 4242, port: 5000, authToken: TOKEN, vaultPath: "/other vault" }, () => false);
		const logged: string[] = [];
		const locator = new FolderHostLocator({
			path,
			vaultPath: "/vault",
			selfPid: 1,
			isAlive: () => true,
			log: (line) => logged.push(line),
		});
		expect(locator.find()).toBeUndefined();
		expect(locator.find()).toBeUndefined();
		expect(logged).toEqual([
			`Not relaying to the folder index named by ${path}: it names the vault /other vault, not /vault`,
		]);
	});

	it("never hands out the token of a host file reached through a symbolic link", () => {
		const real = folderHostPath(temp.path, "fedcba9876543210fedcba9876543210");
		claimFolderHost(real, { pid: 4242, port: 5000, authToken: TOKEN, vaultPath: "/vault" }, () => false);
		symlinkSync(real, path);
		const logged: string[] = [];
		expect(
			new FolderHostLocator({
				path,
				vaultPath: "/vault",
				selfPid: 1,
				isAlive: () => true,
				log: (line) => logged.push(line),
			}).find(),
		).toBeUndefined();
		expect(logged).toEqual([`Not relaying to the folder index named by ${path}: it is a symbolic link`]);
	});
});
