import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { BridgeHost } from "../../src/ide/bridge-host";
import { ConnectionManager } from "../../src/server/connection-manager";
import type { LockFileContent } from "../../src/server/lock-file";
import { testHostOptions } from "../helpers/bridge-fixture";
import { HeadlessProcess, HEADLESS_ENTRY } from "../helpers/headless-process";
import { connect, connectOrThrow } from "../helpers/test-client";
import { makeTempDir } from "../helpers/temp-dir";

const temps: { remove: () => void }[] = [];
const blockers: Server[] = [];
const hosts: HeadlessProcess[] = [];

afterEach(async () => {
	hosts.splice(0).forEach((host) => host.kill());
	await Promise.all(blockers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
	temps.splice(0).forEach((temp) => temp.remove());
});

function tempHome(): { home: string; vault: string } {
	const temp = makeTempDir("startup");
	temps.push(temp);
	const home = join(temp.path, "home");
	const vault = join(temp.path, "vault");
	mkdirSync(home);
	mkdirSync(vault);
	return { home, vault };
}

/** Another program holding a port, on loopback or on every interface. */
function takePort(host: string): Promise<number> {
	const server = createServer();
	blockers.push(server);
	return new Promise((resolve, reject) => {
		server.once("error", reject);
		server.listen(0, host, () => {
			const address = server.address();
			if (typeof address === "object" && address) resolve(address.port);
			else reject(new Error("no port"));
		});
	});
}

function hostFor(home: string, vault: string, port?: number, logs: string[] = []): BridgeHost {
	return new BridgeHost(testHostOptions(home, vault, { port, log: (message) => logs.push(message) }));
}

const FALLBACK = (taken: number, used: number): string =>
	`Port ${taken} is in use; listening on port ${used} instead. Choose another fixed port or leave it empty for a random one.`;

describe("a fixed port that is taken", () => {
	it.each(["127.0.0.1", "0.0.0.0"])(
		"ConnectionManager falls back to a random port with a warning (port held on %s)",
		async (address) => {
			const taken = await takePort(address);
			const manager = new ConnectionManager({
				getToken: () => "t".repeat(64),
				onConnection: () => ({ onMessage: () => undefined, onClose: () => undefined }),
				port: taken,
			});
			try {
				const info = await manager.start();
				expect(info.port).not.toBe(taken);
				expect(info.warning).toBe(FALLBACK(taken, info.port));
				expect(manager.port).toBe(info.port);
			} finally {
				await manager.stop();
			}
		},
	);

	it("BridgeHost keeps listening on the fallback port, with the warning in its status and the lock file under the new port", async () => {
		const { home, vault } = tempHome();
		const taken = await takePort("127.0.0.1");
		const host = hostFor(home, vault, taken);
		const status = await host.start();
		try {
			expect(status).toMatchObject({ state: "listening", warning: FALLBACK(taken, status.port ?? -1) });
			expect(status.lockFilePath).toBe(join(home, ".claude", "ide", `${status.port}.lock`));
			const lock = JSON.parse(readFileSync(status.lockFilePath ?? "", "utf8")) as LockFileContent;
			const client = await connectOrThrow(status.port ?? 0, { token: lock.authToken });
			expect((await client.request("ping")).result).toEqual({});
			await client.close();
		} finally {
			await host.stop();
		}
	});

	it("the headless host with --port N taken warns on stderr and serves on another port", async () => {
		const { home, vault } = tempHome();
		const taken = await takePort("127.0.0.1");
		const host = await HeadlessProcess.start({ vault, home, args: ["--port", String(taken)] });
		hosts.push(host);
		expect(host.port).not.toBe(taken);
		expect(host.stderr).toContain(`Warning: ${FALLBACK(taken, host.port)}\n`);
		const lock = JSON.parse(readFileSync(host.lockFile, "utf8")) as LockFileContent;
		const client = await connectOrThrow(host.port, { token: lock.authToken });
		expect((await client.request("ping")).result).toEqual({});
		await client.close();
		expect(await host.quit()).toBe(0);
	});
});

/**
 * Makes `<home>/.claude/ide` impossible to create. Mode bits do not stop root, so as root a file takes the
 * folder's place (which stops everyone); otherwise `~/.claude` exists with mode 0500, so `ide` cannot be made
 * in it (the bridge tightens `ide` itself to 0700, so a read-only `ide` would not stop its owner).
 */
function makeLockFolderUnwritable(home: string): string {
	const claude = join(home, ".claude");
	mkdirSync(claude, { mode: 0o700 });
	if (process.getuid?.() === 0) {
		writeFileSync(join(claude, "ide"), "a file where the lock folder should be");
		return "a file in place of the folder";
	}
	chmodSync(claude, 0o500);
	temps.unshift({ remove: () => chmodSync(claude, 0o700) });
	return "~/.claude with mode 0500";
}

describe("an unwritable lock folder", () => {
	it("BridgeHost fails with a clear message, state failed, no port left open and nothing written", async () => {
		const { home, vault } = tempHome();
		const method = makeLockFolderUnwritable(home);
		const logs: string[] = [];
		const host = hostFor(home, vault, undefined, logs);
		const status = await host.start();
		expect(status.state).toBe("failed");
		expect(status.port).toBeUndefined();
		expect(status.lockFilePath).toBeUndefined();
		const match =
			/^Could not write the lock file (.*[/\\]\.claude[/\\]ide[/\\](\d+)\.lock): (ENOTDIR|EEXIST|EACCES|EPERM)\b/.exec(
				status.error ?? "",
			);
		if (!match) throw new Error(`unexpected error (${method}): ${status.error ?? "none"}`);
		expect(status.error).toMatch(
			/\. Claude Code finds the bridge through .*[/\\]\.claude[/\\]ide, which must be a folder this user can write to\.$/,
		);
		expect(logs).toContain(`Could not start the bridge: ${status.error ?? ""}`);
		// The port the server had listened on was closed again.
		const outcome = await connect(Number(match[2]), { token: "x" }).catch(
			(error: NodeJS.ErrnoException) => error.code,
		);
		expect(outcome).toBe("ECONNREFUSED");
		expect(readdirSync(join(home, ".claude"))).toEqual(method === "a file in place of the folder" ? ["ide"] : []);
		await host.stop();
	});

	it("the headless host exits 2 with that message", () => {
		const { home, vault } = tempHome();
		makeLockFolderUnwritable(home);
		const result = spawnSync(process.execPath, [HEADLESS_ENTRY, "--vault", vault], {
			env: { PATH: process.env.PATH ?? "", HOME: home },
			encoding: "utf8",
			timeout: 10_000,
		});
		expect(result.status).toBe(2);
		expect(result.stderr).toMatch(
			/^Could not start: Could not write the lock file .*[/\\]\.claude[/\\]ide[/\\]\d+\.lock: (ENOTDIR|EEXIST|EACCES|EPERM)\b.*, which must be a folder this user can write to\.\n$/,
		);
		expect(result.stdout).toBe("");
	});
});
