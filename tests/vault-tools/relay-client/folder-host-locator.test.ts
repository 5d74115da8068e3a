import { claimFolderHost, folderHostPath } from "../../../src/server/folder-host-file";
import { FOLDER_HOST_CONNECT_TIMEOUT_MS, FolderHostLocator } from "../../../src/vault-tools/relay-client/folder-host-locator";
import { makeTempDir } from "../../helpers/temp-dir";

const describeOnPosix = process.platform === "win32" ? describe.skip : describe;

describeOnPosix("FolderHostLocator", () => {
	it("finds another live session's index, never its own nor a gone one's, and waits longer for its handshake than for a bridge's", () => {
		const temp = makeTempDir("host-locator");
		try {
			const path = folderHostPath(temp.path, "key");
			claimFolderHost(path, { pid: 4242, port: 5000, authToken: "t".repeat(64), vaultPath: "/vault" }, () => false);
			expect(new FolderHostLocator({ path, selfPid: 1, isAlive: () => true }).find()).toMatchObject({ port: 5000, pid: 4242, authToken: "t".repeat(64), lockFile: path, connectTimeoutMs: FOLDER_HOST_CONNECT_TIMEOUT_MS });
			expect(new FolderHostLocator({ path, selfPid: 4242, isAlive: () => true }).find()).toBeUndefined();
			expect(new FolderHostLocator({ path, selfPid: 1, isAlive: () => false }).find()).toBeUndefined();
			expect(FOLDER_HOST_CONNECT_TIMEOUT_MS).toBeGreaterThan(30_000);
		} finally {
			temp.remove();
		}
	});
});
