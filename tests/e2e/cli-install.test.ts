import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { makeTempDir } from "../helpers/temp-dir";

// The install that Jest's e2e global setup runs before any worker starts (scripts/install-claude-cli.mjs),
// driven with a fake installer in separate processes, as two concurrent `npm test` runs would drive it.

const scripts = path.resolve(__dirname, "..", "..", "scripts");
const installOnceUrl = pathToFileURL(path.join(scripts, "install-once.mjs")).href;
const installCliUrl = pathToFileURL(path.join(scripts, "install-claude-cli.mjs")).href;

/** A process that installs a fake tool into argv[1]; the installer waits until another process waited for the lock. */
const FAKE_INSTALL = `
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { installOnce } from ${JSON.stringify(installOnceUrl)};
const [target, log, waitingMarker, mustMeetWaiter] = process.argv.slice(1);
const locate = (folder) => (existsSync(path.join(folder, "bin", "tool")) ? path.join(folder, "bin", "tool") : undefined);
const install = async (folder) => {
	appendFileSync(log, "install by " + process.pid + "\\n");
	for (let i = 0; mustMeetWaiter === "yes" && !existsSync(waitingMarker); i++) {
		if (i > 1000) throw new Error("no other process waited for the lock");
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	mkdirSync(path.join(folder, "bin"));
	writeFileSync(path.join(folder, "bin", "tool"), "a tool");
};
const found = await installOnce({ target, install, locate, onWait: () => writeFileSync(waitingMarker, String(process.pid)) });
process.stdout.write(found);
`;

/** A process that runs the real ensureClaudeCli with an installer that fails the way npm does. */
const FAILING_INSTALL = `
import { ensureClaudeCli } from ${JSON.stringify(installCliUrl)};
try {
	await ensureClaudeCli({ prefix: process.argv[1], runInstaller: () => { throw new Error("Command failed: npm install\\nnpm error code ENOTFOUND\\nnpm error network"); } });
	process.stdout.write("installed");
} catch (error) {
	process.stderr.write(error.message + "\\n");
	process.exit(1);
}
`;

interface Exit {
	code: number | null;
	stdout: string;
	stderr: string;
}

function runModule(source: string, args: string[]): Promise<Exit> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ["--input-type=module", "-e", source, ...args], {
			stdio: ["ignore", "pipe", "pipe"],
		});
		let stdout = "";
		let stderr = "";
		child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
		child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
		child.on("error", reject);
		child.on("exit", (code) => resolve({ code, stdout, stderr }));
	});
}

describe("installing the Claude Code CLI for the e2e tests", () => {
	let temp: ReturnType<typeof makeTempDir>;
	let target: string;
	let log: string;
	let waitingMarker: string;

	beforeEach(() => {
		temp = makeTempDir("cli-install");
		target = path.join(temp.path, "cache", "claude-cli");
		log = path.join(temp.path, "install.log");
		waitingMarker = path.join(temp.path, "waited");
	});
	afterEach(() => temp?.remove());

	it("installs once when two processes ask at the same time, and both get the installed path", async () => {
		const [first, second] = await Promise.all([
			runModule(FAKE_INSTALL, [target, log, waitingMarker, "yes"]),
			runModule(FAKE_INSTALL, [target, log, waitingMarker, "yes"]),
		]);

		expect([first.stderr, second.stderr]).toEqual(["", ""]);
		expect([first.code, second.code]).toEqual([0, 0]);
		const tool = path.join(target, "bin", "tool");
		expect([first.stdout, second.stdout]).toEqual([tool, tool]);
		expect(readFileSync(log, "utf8").trim().split("\n")).toHaveLength(1);
		// No lock, staging folder or private lock file left behind.
		expect(readdirSync(path.dirname(target))).toEqual(["claude-cli"]);
	});

	it("takes over a lock left by a process that died", async () => {
		const dead = spawnSync(process.execPath, ["-e", ""]);
		expect(dead.status).toBe(0);
		mkdirSync(path.dirname(target), { recursive: true });
		writeFileSync(`${target}.lock`, String(dead.pid));

		const run = await runModule(FAKE_INSTALL, [target, log, waitingMarker, "no"]);

		expect(run.stderr).toBe("");
		expect(run.stdout).toBe(path.join(target, "bin", "tool"));
		expect(existsSync(`${target}.lock`)).toBe(false);
		expect(existsSync(waitingMarker)).toBe(false);
	});

	it("fails with one clear message, leaves nothing half-installed and releases the lock", async () => {
		const run = await runModule(FAILING_INSTALL, [target]);

		expect(run.code).toBe(1);
		expect(run.stdout).toBe("");
		const lines = run.stderr.trimEnd().split("\n");
		expect(lines).toHaveLength(1);
		expect(lines[0]).toMatch(
			/^Could not install @anthropic-ai\/claude-code@\d+\.\d+\.\d+ \(the CLI the end-to-end tests drive\) into /,
		);
		expect(lines[0]).toContain(target);
		expect(lines[0]).toContain("Command failed: npm install");
		expect(lines[0]).toContain("node scripts/install-claude-cli.mjs");
		expect(readdirSync(path.dirname(target))).toEqual([]);
	});
});
