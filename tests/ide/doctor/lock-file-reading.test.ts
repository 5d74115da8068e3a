import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readLockFileFields } from "../../../src/ide/doctor/lock-file-reading";
import { makeTempDir } from "../../helpers/temp-dir";

describe("readLockFileFields", () => {
	const temp = makeTempDir("lock-file-reading");
	const folder = join(temp.path, "ide");

	beforeAll(() => {
		mkdirSync(folder, { recursive: true, mode: 0o700 });
		chmodSync(folder, 0o700);
	});
	afterAll(() => temp.remove());

	function lockFile(name: string, content: string): string {
		const path = join(folder, name);
		writeFileSync(path, content, { mode: 0o600 });
		chmodSync(path, 0o600);
		return path;
	}

	it("keeps only the fields the CLI reads, each only with the right type", async () => {
		const path = lockFile(
			"4001.lock",
			JSON.stringify({
				port: 4001,
				pid: "12",
				workspaceFolders: ["/v", 3],
				ideName: "Obsidian",
				transport: "ws",
				authToken: 7,
				writer: "claude-code-bridge",
			}),
		);
		expect(await readLockFileFields(path, "linux")).toEqual({
			kind: "read",
			port: 4001,
			fields: { workspaceFolders: ["/v"], ideName: "Obsidian", transport: "ws", writer: "claude-code-bridge" },
		});
	});

	it("tells a file that is not JSON and a missing file apart", async () => {
		expect(await readLockFileFields(lockFile("4002.lock", "not json"), "linux")).toEqual({ kind: "not-json" });
		expect((await readLockFileFields(join(folder, "4003.lock"), "linux")).kind).toBe("missing");
	});

	it("refuses a symbolic link, as the shared untrusted-input reader does", async () => {
		const target = lockFile("4004.lock", JSON.stringify({ port: 4004, workspaceFolders: [] }));
		symlinkSync(target, join(folder, "4005.lock"));
		expect((await readLockFileFields(join(folder, "4005.lock"), "linux")).kind).toBe("refused");
	});
});
