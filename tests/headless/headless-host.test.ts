import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, statSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { vaultId } from "../../src/journal/journal-folder";
import { HeadlessProcess, HEADLESS_ENTRY } from "../helpers/headless-process";
import { connectOrThrow } from "../helpers/test-client";
import { makeTempDir } from "../helpers/temp-dir";
import { WAIT_TIMEOUT_MS } from "../helpers/fixture-timeout";
import { defaultVaultToolsPort } from "../../src/vault-tools/serve/vault-tools-port";
import { spawn, spawnSync } from "node:child_process";

describe("the headless host", () => {
	const temp = makeTempDir("headless");
	const home = join(temp.path, "home");
	const vault = join(temp.path, "vault with spaces");
	const hosts: HeadlessProcess[] = [];

	beforeAll(() => {
		mkdirSync(home);
		mkdirSync(vault);
	});

	afterEach(() => hosts.splice(0).forEach((host) => host.kill()));
	afterAll(() => temp.remove());

	it("prints the port, the lock file under HOME and how to connect, answers status, and quits cleanly", async () => {
		const host = await HeadlessProcess.start({ vault, home });
		hosts.push(host);
		expect(host.lockFile).toBe(join(home, ".claude", "ide", `${host.port}.lock`));
		expect(statSync(host.lockFile).mode & 0o777).toBe(0o600);
		expect(host.stdout).toContain(`Connect: cd "${vault}" && claude --ide`);
		expect(host.stdout).toContain(
			`Activity journal: ${join(home, ".local", "share", "claude-code-bridge", "journal", vaultId(vault))}\n`,
		);
		const lock = JSON.parse(readFileSync(host.lockFile, "utf8")) as {
			ideName: string;
			authToken: string;
			pid: number;
		};
		expect(lock.ideName).toBe(`Obsidian · vault with spaces (headless, pid ${String(host.child.pid)})`);
		expect(lock.pid).toBe(host.child.pid);

		const client = await connectOrThrow(host.port, { token: lock.authToken });
		await client.initialize();
		client.notify("ide_connected", { pid: 777 });
		await host.waitForTrace((event) => event.method === "ide_connected", "ide_connected");
		const status = await host.status();
		expect(status).toMatchObject({
			state: "listening",
			port: host.port,
			lockFile: host.lockFile,
			clients: [{ id: 1, pid: 777, client: "test-client" }],
		});

		expect(await host.quit()).toBe(0);
		expect(existsSync(host.lockFile)).toBe(false);
		expect((await client.closed).code).toBe(1001);
	});

	it("a second host on the same vault warns at start with the first's pid; /ide names tell them apart; the HTTP port names its holder", async () => {
		const first = await HeadlessProcess.start({ vault, home });
		hosts.push(first);
		const second = await HeadlessProcess.start({ vault, home });
		hosts.push(second);
		const [firstName, secondName] = [first, second].map(
			(host) => (JSON.parse(readFileSync(host.lockFile, "utf8")) as { ideName: string }).ideName,
		);
		expect([firstName, secondName]).toEqual([
			`Obsidian · vault with spaces (headless, pid ${String(first.child.pid)})`,
			`Obsidian · vault with spaces (headless, pid ${String(second.child.pid)})`,
		]);
		const warning = await second.waitForOutput(
			/^(Warning: this vault is already served by .*)$/m,
			WAIT_TIMEOUT_MS,
			"stderr",
		);
		expect(warning).toBe(
			`Warning: this vault is already served by "${firstName ?? ""}" (pid ${String(first.child.pid)}, port ${first.port}). /ide will list both; this one is "${secondName ?? ""}". Stop the other (kill ${String(first.child.pid)}) unless you want two.`,
		);
		expect(first.stderr).not.toContain("already served");
		// Both default to the vault's own HTTP port: the second says who holds it and how to choose another.
		const mcpPort = defaultVaultToolsPort(realpathSync(vault));
		expect(second.stdout).toContain(
			`MCP (vault tools) is off: port ${mcpPort} is in use by another Claude Code Bridge (pid ${String(first.child.pid)}, the vault tools of ${realpathSync(vault)}). Start with --mcp-port N (a free port) to serve HTTP too.`,
		);
	});

	it("stops on SIGINT and removes its lock file", async () => {
		const host = await HeadlessProcess.start({ vault, home });
		hosts.push(host);
		host.child.kill("SIGINT");
		expect(await host.exited).toBe(0);
		expect(existsSync(host.lockFile)).toBe(false);
	});

	it("keeps running after a bad command and says what went wrong", async () => {
		const host = await HeadlessProcess.start({ vault, home });
		hosts.push(host);
		host.send("frobnicate now");
		await host.waitForOutput(/(Unknown command: frobnicate\. Type "help" for the list\.)/, 5000, "stderr");
		expect((await host.status()).state).toBe("listening");
		host.send("help");
		await host.waitForOutput(/(Commands:)/);
		expect(await host.quit()).toBe(0);
	});

	it("exits with a clear message when the vault folder is missing", () => {
		const result = spawnSync(process.execPath, [HEADLESS_ENTRY, "--vault", join(temp.path, "nope")], {
			env: { HOME: home },
			encoding: "utf8",
		});
		expect(result.status).toBe(2);
		expect(result.stderr).toBe(`Vault folder not found: ${join(temp.path, "nope")}\n`);
	});

	it("exits with one line pointing to --help for unknown arguments", () => {
		const result = spawnSync(process.execPath, [HEADLESS_ENTRY, "--bogus"], {
			env: { HOME: home },
			encoding: "utf8",
		});
		expect(result.status).toBe(2);
		expect(result.stderr).toBe("Unknown argument: --bogus (--help lists the options)\n");
	});
});

/**
 * A fresh clone of this working tree: every file git would commit (tracked, or new and not ignored), and
 * `node_modules` as `npm ci` leaves it (linked, not reinstalled). Nothing built, no `.cache`: `npm start`
 * must work from that alone. A copy also keeps its build away from the main.js other tests are reading.
 */
function freshClone(into: string): void {
	const root = join(__dirname, "..", "..");
	const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
		cwd: root,
		encoding: "utf8",
	});
	if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
	for (const file of listed.stdout.split("\0").filter((name) => name !== "" && existsSync(join(root, name)))) {
		mkdirSync(dirname(join(into, file)), { recursive: true });
		copyFileSync(join(root, file), join(into, file));
	}
	symlinkSync(join(root, "node_modules"), join(into, "node_modules"), "junction");
}

describe("npm start", () => {
	it("on a fresh clone builds and serves the example vault, and `npm start -- --vault DIR` serves another folder", async () => {
		const temp = makeTempDir("npm-start");
		const home = join(temp.path, "home");
		const vault = join(temp.path, "other vault");
		const clone = join(temp.path, "clone");
		mkdirSync(home);
		mkdirSync(vault);
		freshClone(clone);
		expect(
			existsSync(join(clone, "main.js")) || existsSync(join(clone, "dist")) || existsSync(join(clone, ".cache")),
		).toBe(false);
		const run = (args: string[]) =>
			new Promise<string>((resolve, reject) => {
				const child = spawn("npm", ["start", "--silent", ...args], {
					cwd: clone,
					env: { ...process.env, HOME: home },
					stdio: ["pipe", "pipe", "pipe"],
				});
				let output = "";
				child.stdout.on("data", (chunk: Buffer) => {
					output += chunk.toString();
					if (output.includes("Connect: ")) child.stdin.write("quit\n");
				});
				child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
				child.on("error", reject);
				child.on("exit", (code) =>
					code === 0 ? resolve(output) : reject(new Error(`npm start exited ${String(code)}: ${output}`)),
				);
			});
		try {
			expect(await run([])).toContain(`serving ${join(clone, "examples", "vault")}`);
			expect(await run(["--", "--vault", vault])).toContain(`serving ${vault}`);
		} finally {
			temp.remove();
		}
	}, 60_000);
});
