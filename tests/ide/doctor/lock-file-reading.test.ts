import { portOfLockFile, readLockFileFields } from "../../../src/ide/doctor/lock-file-reading";

const reading = (text: string) => readLockFileFields("/home/me/.claude/ide/1234.lock", () => Promise.resolve(text));

describe("portOfLockFile", () => {
	it("takes the port from the file name, as the CLI does", () => {
		expect(portOfLockFile("/home/me/.claude/ide/51234.lock")).toBe(51234);
		expect(portOfLockFile("1.lock")).toBe(1);
	});

	it("answers undefined for names that are not a port's lock file", () => {
		for (const name of ["0.lock", "65536.lock", "abc.lock", "1234.json", "1234.lock.tmp"]) expect(portOfLockFile(`/x/${name}`)).toBeUndefined();
	});
});

describe("readLockFileFields", () => {
	it("keeps each known field only when it has the right type", async () => {
		expect(await reading(JSON.stringify({ pid: 42, workspaceFolders: ["/v", 3, "/w"], ideName: "Obsidian", transport: "ws", authToken: "t", writer: "claude-code-bridge", extra: 1 }))).toEqual({
			kind: "read",
			fields: { pid: 42, workspaceFolders: ["/v", "/w"], ideName: "Obsidian", transport: "ws", authToken: "t", writer: "claude-code-bridge" },
		});
		expect(await reading(JSON.stringify({ pid: "42", workspaceFolders: "/v", ideName: 7 }))).toEqual({ kind: "read", fields: { workspaceFolders: [] } });
	});

	it("tells a file that is not a JSON object from one that cannot be read", async () => {
		expect(await reading("{not json")).toEqual({ kind: "not-json" });
		expect(await reading("[1, 2]")).toEqual({ kind: "not-json" });
		expect(await reading("null")).toEqual({ kind: "not-json" });
		expect(await readLockFileFields("/x/1.lock", () => Promise.reject(new Error("EACCES: permission denied")))).toEqual({ kind: "unreadable", reason: "EACCES: permission denied" });
	});
});
