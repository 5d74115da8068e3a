import { chmodSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { createServer as createNetServer } from "node:net";
import { join } from "node:path";
import { tokenFingerprint } from "../../src/server/auth";
import { HeadlessProcess } from "../helpers/headless-process";
import { connectOrThrow } from "../helpers/test-client";
import { makeTempDir } from "../helpers/temp-dir";
import { WAIT_TIMEOUT_MS } from "../helpers/fixture-timeout";
import { defaultVaultToolsPort } from "../../src/vault-tools/serve/vault-tools-port";

const posix = process.platform !== "win32";

/** Sends `doctor` and resolves with what it printed, up to and including the counts line. */
async function doctor(host: HeadlessProcess): Promise<string> {
	const before = host.stdout.length;
	host.send("doctor");
	return host.waitFor(
		() => /^[\s\S]*?\d+ ok, \d+ warnings?, \d+ failures?$/m.exec(host.stdout.slice(before))?.[0].trim(),
		"the doctor's report",
		WAIT_TIMEOUT_MS,
	);
}

describe("the headless doctor command", () => {
	const temp = makeTempDir("headless-doctor");
	const home = join(temp.path, "home");
	const vault = join(temp.path, "vault with spaces");
	let host: (HeadlessProcess & { port: number; lockFile: string }) | undefined;

	beforeAll(() => {
		mkdirSync(home);
		mkdirSync(vault);
	});
	afterEach(() => host?.kill());
	afterAll(() => temp.remove());

	it("prints the same checks as the settings tab: lock file, token accepted, the client, the quoted launch command", async () => {
		host = await HeadlessProcess.start({ vault, home });
		const lock = JSON.parse(readFileSync(host.lockFile, "utf8")) as { authToken: string };
		const client = await connectOrThrow(host.port, { token: lock.authToken });
		await client.initialize();
		client.notify("ide_connected", { pid: 777 });
		await host.waitForTrace((event) => event.method === "ide_connected", "ide_connected");

		const report = await doctor(host);
		const lines = report.split("\n");
		expect(lines[0]).toBe(`ok   The bridge listens on 127.0.0.1:${host.port}`);
		expect(lines.filter((line) => line.includes("path has spaces"))).toEqual([]);
		// Windows has no file modes: the doctor says only that the lock file exists (own-lock-file.ts).
		expect(lines).toContain(
			posix
				? `ok   The lock file ${host.lockFile} exists with mode 0600`
				: `ok   The lock file ${host.lockFile} exists`,
		);
		expect(lines).toContain(
			`ok   The lock file is this bridge's: pid ${host.child.pid}, "Obsidian · vault with spaces (headless, pid ${host.child.pid})", token fingerprint ${tokenFingerprint(lock.authToken)}`,
		);
		expect(lines).toContain(`ok   Port ${host.port} answers and accepts the token in the lock file`);
		expect(lines.find((line) => line.startsWith("ok   Connected: "))).toMatch(
			/^ok {3}Connected: test-client 1\.0\.0 \(pid 777\) since \d\d:\d\d:\d\d, less than a minute ago$/,
		);
		expect(lines).toContain(
			`ok   Start Claude Code in this vault with: cd "${vault}" && claude --ide (from another folder: CLAUDE_CODE_SSE_PORT=${host.port} claude --ide; unless the port is fixed, it changes when the bridge restarts)`,
		);
		// The vault tools: the HTTP endpoint reached as Claude Code reaches it, and the one line to add them.
		const mcpPort = defaultVaultToolsPort(realpathSync(vault));
		expect(lines).toContain(
			`ok   The vault tools answer on http://127.0.0.1:${mcpPort}/mcp and accept the key Claude Code fetches when it connects`,
		);
		expect(report).toContain(`claude mcp add-json --scope local obsidian '{"type":"http"`);
		expect(lines.filter((line) => /^(warn|FAIL) /.test(line))).toEqual([]);
		expect(lines.at(-1)).toMatch(/, 0 warnings, 0 failures$/);
		await client.close();
		expect(await host.quit()).toBe(0);
	});

	(posix ? it : it.skip)("says what is wrong and what to do when the lock file can be read by others", async () => {
		host = await HeadlessProcess.start({ vault, home });
		chmodSync(host.lockFile, 0o644);
		const lines = (await doctor(host)).split("\n");
		const index = lines.indexOf(`FAIL The lock file ${host.lockFile} is refused: it has mode 0644, not 0600`);
		expect(index).toBeGreaterThan(0);
		expect(lines[index + 1]).toBe(
			"     Fix: Restart the bridge: it writes a new lock file with mode 0600 and a new token.",
		);
		expect(lines.at(-1)).toMatch(/, 1 failure$/);
		expect(await host.quit()).toBe(0);
	});

	it("warns when the vault tools' HTTP port is taken, and says to choose another with --mcp-port", async () => {
		const blocker = createNetServer();
		const taken = await new Promise<number>((resolveListen) =>
			blocker.listen(0, "127.0.0.1", () => resolveListen((blocker.address() as { port: number }).port)),
		);
		try {
			host = await HeadlessProcess.start({ vault, home, args: ["--mcp-port", String(taken)] });
			const lines = (await doctor(host)).split("\n");
			const index = lines.indexOf(
				`warn The vault tools' HTTP endpoint is off: port ${taken} is in use by another program`,
			);
			expect(index).toBeGreaterThan(0);
			expect(lines[index + 1]).toBe("     Fix: Start the host with --mcp-port N (a free port).");

			expect(await host.quit()).toBe(0);
		} finally {
			await new Promise<void>((resolveClose) => blocker.close(() => resolveClose()));
		}
	});
});
