import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "../helpers/temp-dir";
import { pollUntil } from "../helpers/wait-until";
import { CLI_ENTRY } from "../vault-tools/stdio/stdio-server-process";

describe("the package's command: claude-code-bridge <serve|mcp>", () => {
	const temp = makeTempDir("cli-command");
	const home = join(temp.path, "home");
	const vault = join(temp.path, "vault");
	const env = { PATH: process.env.PATH ?? "", HOME: home };

	beforeAll(() => {
		mkdirSync(home);
		mkdirSync(vault);
		writeFileSync(join(vault, "note.md"), "# Note\n");
	});
	afterAll(() => temp.remove());

	it("serve runs the headless host with the options after it, and stops on quit", async () => {
		const child = spawn(process.execPath, [CLI_ENTRY, "serve", "--vault", vault], {
			env,
			stdio: ["pipe", "pipe", "pipe"],
		});
		let stdout = "";
		child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
		const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
		try {
			await pollUntil(
				() => (/Listening on ws:\/\/127\.0\.0\.1:\d+/.test(stdout) ? true : undefined),
				() => `the host's banner; stdout: ${stdout}`,
			);
			expect(stdout).toContain(`Claude Code Bridge (headless) serving ${vault}`);
			child.stdin.write("quit\n");
			expect(await exited).toBe(0);
			expect(stdout).toContain("Stopped; lock file removed.");
		} finally {
			child.kill("SIGKILL");
		}
	});

	it("without a command prints its usage; an unknown command is an error", () => {
		const usage = spawnSync(process.execPath, [CLI_ENTRY], { env, encoding: "utf8" });
		expect(usage.status).toBe(0);
		expect(usage.stdout).toMatch(/^Usage: claude-code-bridge <command>[\s\S]*serve[\s\S]*mcp --vault DIR/);
		const unknown = spawnSync(process.execPath, [CLI_ENTRY, "frobnicate"], { env, encoding: "utf8" });
		expect(unknown.status).toBe(2);
		expect(unknown.stderr).toMatch(/^Unknown command: frobnicate/);
	});

	it("mcp --help goes to stderr, leaving stdout to the protocol", () => {
		const help = spawnSync(process.execPath, [CLI_ENTRY, "mcp", "--help"], { env, encoding: "utf8" });
		expect({ status: help.status, stdout: help.stdout }).toEqual({ status: 0, stdout: "" });
		expect(help.stderr).toContain('claude mcp add --scope local obsidian -- claude-code-bridge mcp --vault "$PWD"');
	});

	it("--version prints the package's version, and nothing else", () => {
		const { version } = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")) as {
			version: string;
		};
		for (const flag of ["--version", "-v"]) {
			const run = spawnSync(process.execPath, [CLI_ENTRY, flag], { env, encoding: "utf8" });
			expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
				status: 0,
				stdout: `${version}\n`,
				stderr: "",
			});
		}
	});

	it("serve --help names the package's command and says --vault is required, not npm start", () => {
		const help = spawnSync(process.execPath, [CLI_ENTRY, "serve", "--help"], { env, encoding: "utf8" });
		expect(help.status).toBe(0);
		expect(help.stdout).toMatch(/^Usage: claude-code-bridge serve --vault DIR /);
		expect(help.stdout).toContain("--vault DIR           the folder to serve as a vault (required)");
		expect(help.stdout).not.toContain("Usage: npm start");
	});

	it("serve without --vault refuses to start, whatever folder it runs in", () => {
		const run = spawnSync(process.execPath, [CLI_ENTRY, "serve"], {
			cwd: join(__dirname, "..", ".."),
			env,
			encoding: "utf8",
			input: "",
			timeout: 20_000,
		});
		expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 2, stdout: "" });
		expect(run.stderr).toBe("--vault DIR is required: the folder to serve as a vault (--help lists the options)\n");
	});

	(process.platform === "win32" ? it.skip : it)(
		"serve run through a link (as npm link installs it) gives the developers' stdio add line with the real cli.cjs",
		async () => {
			const link = join(temp.path, "bin", "claude-code-bridge");
			mkdirSync(join(temp.path, "bin"), { recursive: true });
			symlinkSync(CLI_ENTRY, link);
			const child = spawn(process.execPath, [link, "serve", "--vault", vault], {
				env,
				stdio: ["pipe", "pipe", "pipe"],
			});
			let stdout = "";
			child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
			const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
			try {
				await pollUntil(
					() => (/Type "help" for commands/.test(stdout) ? true : undefined),
					() => `the host's banner; stdout: ${stdout}`,
				);
				child.stdin.write("mcp-config stdio\n");
				await pollUntil(
					() => (/claude mcp add --scope local obsidian -- /.test(stdout) ? true : undefined),
					() => `mcp-config stdio's answer; stdout: ${stdout}`,
				);
				expect(stdout).toContain(
					`claude mcp add --scope local obsidian -- ${process.execPath} ${CLI_ENTRY} mcp --vault ${vault}`,
				);
				expect(stdout).not.toContain("is missing");
				child.stdin.write("quit\n");
				expect(await exited).toBe(0);
			} finally {
				child.kill("SIGKILL");
			}
		},
	);
});
