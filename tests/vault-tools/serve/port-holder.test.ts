import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { writeLockFile } from "../../../src/server/lock-file";
import { writeHttpTokenRecord } from "../../../src/vault-tools/serve/http-token-record";
import { ourPortHolder } from "../../../src/vault-tools/serve/port-holder";
import { makeTempDir } from "../../helpers/temp-dir";
import { FIXTURE_TIMEOUT_MS } from "../../helpers/fixture-timeout";

describe("ourPortHolder: who holds a port, when it is one of ours", () => {
	const temp = makeTempDir("port-holder");
	const home = join(temp.path, "home");
	const vault = join(temp.path, "vault");
	const alive = (): boolean => true;
	const dead = (): boolean => false;

	beforeAll(async () => {
		mkdirSync(home);
		mkdirSync(vault);
		writeHttpTokenRecord(home, { pid: 4242, port: 24001, vault: realpathSync(vault), token: "f".repeat(64) });
		await writeLockFile(home, 41001, {
			pid: 5151,
			workspaceFolders: [vault],
			ideName: "Obsidian · vault (headless, pid 5151)",
			transport: "ws",
			runningInWindows: false,
			authToken: "a".repeat(64),
			writer: "claude-code-bridge",
		});
		await writeLockFile(home, 41002, {
			pid: 6161,
			workspaceFolders: [vault],
			ideName: "Visual Studio Code",
			transport: "ws",
			runningInWindows: false,
			authToken: "a".repeat(64),
		} as unknown as Parameters<typeof writeLockFile>[2]);
	}, FIXTURE_TIMEOUT_MS);
	afterAll(() => temp.remove());

	it("names another bridge's vault-tools endpoint by its token record: pid and vault, never the token", async () => {
		const holder = await ourPortHolder(home, 24001, alive);
		expect(holder).toBe(`another Claude Code Bridge (pid 4242, the vault tools of ${realpathSync(vault)})`);
		expect(holder).not.toContain("ffff");
	});

	it("names a bridge's IDE server by its lock file: pid and /ide name", async () => {
		expect(await ourPortHolder(home, 41001, alive)).toBe(
			`Claude Code Bridge's IDE server (pid 5151, "Obsidian · vault (headless, pid 5151)")`,
		);
	});

	it("says nothing for another editor's lock file, a dead process, or a port with no file of ours", async () => {
		expect(await ourPortHolder(home, 41002, alive)).toBeUndefined();
		expect(await ourPortHolder(home, 24001, dead)).toBeUndefined();
		expect(await ourPortHolder(home, 41001, dead)).toBeUndefined();
		expect(await ourPortHolder(home, 24999, alive)).toBeUndefined();
	});
});
