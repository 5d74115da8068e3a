import { spawnCli, type CliExit } from "../../../src/agent/claude-cli/cli-process";
import type { JsonRecord } from "../../../src/agent/claude-cli/json-lines";
import { makeTempDir } from "../../helpers/temp-dir";
import { pollUntil } from "../../helpers/wait-until";

// A stand-in CLI: `node -e <script>`, echoing each stdin line back with `echo: true`.
const ECHO = `
process.stdin.setEncoding("utf8");
let buffer = "";
process.stdin.on("data", (chunk) => {
	buffer += chunk;
	let i;
	while ((i = buffer.indexOf("\\n")) >= 0) {
		const line = buffer.slice(0, i); buffer = buffer.slice(i + 1);
		process.stdout.write(JSON.stringify({ ...JSON.parse(line), echo: true }) + "\\nnot json\\n");
	}
});
process.stdin.on("end", () => process.exit(0));`;

function run(
	binary: string,
	args: string[],
): { messages: JsonRecord[]; skipped: string[]; exit: Promise<CliExit>; process: ReturnType<typeof spawnCli> } {
	const messages: JsonRecord[] = [];
	const skipped: string[] = [];
	let done: (exit: CliExit) => void = () => undefined;
	const exit = new Promise<CliExit>((resolve) => (done = resolve));
	const cwd = makeTempDir("cli-process");
	const child = spawnCli(
		{ binary, args, cwd: cwd.path, env: process.env },
		{
			message: (record) => messages.push(record),
			skipped: (reason) => skipped.push(reason),
			exit: (report) => {
				cwd.remove();
				done(report);
			},
		},
	);
	return { messages, skipped, exit, process: child };
}

describe("spawnCli", () => {
	it("writes JSON lines, reads them back, skips a bad one, and reports a clean exit when input ends", async () => {
		const cli = run(process.execPath, ["-e", ECHO]);
		cli.process.write({ type: "user", n: 1 });
		await pollUntil(() => cli.messages[0], "the echoed line");
		cli.process.endInput();
		await expect(cli.exit).resolves.toEqual({ failure: undefined });
		expect(cli.messages).toEqual([{ type: "user", n: 1, echo: true }]);
		expect(cli.skipped).toEqual(["a line that is not JSON: not json"]);
		cli.process.write({ after: "exit" });
	});

	it("names the path and the setting when the binary does not exist", async () => {
		const cli = run("/nowhere/claude-missing", []);
		cli.process.write({ dropped: true });
		const exit = await cli.exit;
		const { failure } = exit;
		expect(exit.neverStarted).toBe(true);
		expect(failure).toBe(
			'Claude Code was not found at /nowhere/claude-missing. Install Claude Code, or set "Claude Code executable" in this plugin\'s settings.',
		);
	});

	it("reports a failing exit with the last line the CLI wrote to stderr", async () => {
		const cli = run(process.execPath, [
			"-e",
			'console.error("warming up\\nError: Invalid API key"); process.exit(3)',
		]);
		await expect(cli.exit).resolves.toEqual({ failure: "Claude Code exited with code 3: Error: Invalid API key" });
	});

	it("reports a kill by signal", async () => {
		const cli = run(process.execPath, ["-e", "setInterval(() => undefined, 1000)"]);
		cli.process.kill("SIGTERM");
		await expect(cli.exit).resolves.toEqual({ failure: "Claude Code was stopped by SIGTERM." });
	});
});
