import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HEADLESS_ENTRY } from "../helpers/headless-process";
import { makeTempDir } from "../helpers/temp-dir";
import { CLI_ENTRY } from "../vault-tools/stdio/stdio-server-process";

/**
 * Issue 15 finding 8: every bad argument or environment value of the built commands (dist/headless.cjs, and
 * dist/cli.cjs's serve, mcp and mcp-headers) is answered with one line on stderr and exit code 2: no stack trace,
 * no usage block, nothing on stdout, and the command does not start.
 */
interface BadInput {
	what: string;
	args: (paths: Paths) => string[];
	env?: (paths: Paths) => Record<string, string>;
	message: RegExp;
}

interface Paths {
	vault: string;
	missing: string;
	file: string;
}

const SHORT_TOKEN = { CLAUDE_CODE_BRIDGE_MCP_TOKEN: "short" };
const SPACED_TOKEN = { CLAUDE_CODE_BRIDGE_MCP_TOKEN: "0123456789 0123456789 0123456789 0123456789" };

/** The headless host's options, the same whether it runs as dist/headless.cjs or `claude-code-bridge serve`. */
const HOST_CASES: BadInput[] = [
	{
		what: "no --vault",
		args: () => [],
		message: /^--vault DIR is required: the folder to serve as a vault \(--help lists the options\)$/,
	},
	{
		what: "an unknown option",
		args: () => ["--bogus"],
		message: /^Unknown argument: --bogus \(--help lists the options\)$/,
	},
	{ what: "an option without its value", args: () => ["--port"], message: /^--port needs a value/ },
	{
		what: "a port that is not a number",
		args: () => ["--port", "abc"],
		message: /^--port must be a whole number from 1 to 65535, not "abc"/,
	},
	{
		what: "an MCP port out of range",
		args: () => ["--mcp-port", "70000"],
		message: /^--mcp-port must be a whole number from 1 to 65535, not "70000"/,
	},
	{ what: "an empty vault", args: () => ["--vault", ""], message: /^--vault needs a value/ },
	{
		what: "an empty private folder",
		args: (p) => ["--vault", p.vault, "--private-folder", ""],
		message: /^--private-folder needs a value/,
	},
	{ what: "a missing vault folder", args: (p) => ["--vault", p.missing], message: /^Vault folder not found: / },
	{ what: "a vault that is a file", args: (p) => ["--vault", p.file], message: /^Not a folder: / },
	{
		what: "a token shorter than 32 characters",
		args: (p) => ["--vault", p.vault],
		env: () => SHORT_TOKEN,
		message: /^CLAUDE_CODE_BRIDGE_MCP_TOKEN must be at least 32 characters without spaces/,
	},
	{
		what: "a token with spaces",
		args: (p) => ["--vault", p.vault],
		env: () => SPACED_TOKEN,
		message: /^CLAUDE_CODE_BRIDGE_MCP_TOKEN must be at least 32 characters without spaces/,
	},
	{
		what: "a HOME that is a file",
		args: (p) => ["--vault", p.vault],
		env: (p) => ({ HOME: p.file }),
		message: /^Could not start: Could not write the lock file /,
	},
];

const CLI_CASES: BadInput[] = [
	{
		what: "an unknown command",
		args: () => ["frobnicate"],
		message: /^Unknown command: frobnicate \(claude-code-bridge --help lists the commands\)$/,
	},
	{ what: "mcp without --vault", args: () => ["mcp"], message: /^--vault DIR is required/ },
	{ what: "mcp --vault without a value", args: () => ["mcp", "--vault"], message: /^--vault needs a value/ },
	{ what: "mcp --vault with an empty value", args: () => ["mcp", "--vault", ""], message: /^--vault needs a value/ },
	{
		what: "mcp with an unknown option",
		args: (p) => ["mcp", "--vault", p.vault, "--bogus"],
		message: /^Unknown argument: --bogus/,
	},
	{
		what: "mcp with an empty private tag",
		args: (p) => ["mcp", "--vault", p.vault, "--private-tag", ""],
		message: /^--private-tag needs a value/,
	},
	{
		what: "mcp with a missing vault",
		args: (p) => ["mcp", "--vault", p.missing],
		message: /^claude-code-bridge mcp: vault folder not found: /,
	},
	{
		what: "mcp with a vault that is a file",
		args: (p) => ["mcp", "--vault", p.file],
		message: /^claude-code-bridge mcp: not a folder: /,
	},
	{
		what: "mcp-headers without --port",
		args: (p) => ["mcp-headers", "--vault", p.vault],
		message: /^--port N is required/,
	},
	{
		what: "mcp-headers without --vault",
		args: () => ["mcp-headers", "--port", "4100"],
		message: /^--vault DIR is required/,
	},
	{
		what: "mcp-headers with a bad port",
		args: (p) => ["mcp-headers", "--vault", p.vault, "--port", "0"],
		message: /^--port must be a whole number from 1 to 65535, not "0"/,
	},
	{
		what: "mcp-headers with a missing vault",
		args: (p) => ["mcp-headers", "--vault", p.missing, "--port", "4100"],
		message: /^claude-code-bridge mcp-headers: vault folder not found: /,
	},
	{
		what: "mcp-headers with a short token",
		args: (p) => ["mcp-headers", "--vault", p.vault, "--port", "4100"],
		env: () => SHORT_TOKEN,
		message: /^CLAUDE_CODE_BRIDGE_MCP_TOKEN must be at least 32 characters without spaces/,
	},
];

describe("bad arguments and environment values: one line on stderr, exit code 2", () => {
	// Each case starts a Node process; a hang guard sized for a loaded machine.
	jest.setTimeout(60_000);
	const temp = makeTempDir("bad-input");
	const home = join(temp.path, "home");
	const paths: Paths = {
		vault: join(temp.path, "vault"),
		missing: join(temp.path, "nope"),
		file: join(temp.path, "file.txt"),
	};

	beforeAll(() => {
		mkdirSync(home);
		mkdirSync(paths.vault);
		writeFileSync(paths.file, "not a folder\n");
	});
	afterAll(() => temp.remove());

	function run(argv: string[], input: BadInput): { status: number | null; stdout: string; stderr: string } {
		const env = { PATH: process.env.PATH ?? "", HOME: home, ...input.env?.(paths) };
		// In the temp folder, so that a command wrongly taking "" for the current folder serves nothing of ours.
		return spawnSync(process.execPath, argv, { cwd: temp.path, env, encoding: "utf8", input: "", timeout: 20_000 });
	}

	function expectOneLine(result: { status: number | null; stdout: string; stderr: string }, message: RegExp): void {
		expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 2, stdout: "" });
		expect(result.stderr).toMatch(/^[^\n]+\n$/);
		expect(result.stderr).not.toMatch(/^\s+at /m);
		expect(result.stderr.trimEnd()).toMatch(message);
	}

	it.each(HOST_CASES.map((input) => [input.what, input] as const))("dist/headless.cjs: %s", (_what, input) => {
		expectOneLine(run([HEADLESS_ENTRY, ...input.args(paths)], input), input.message);
	});

	it.each(HOST_CASES.map((input) => [input.what, input] as const))("claude-code-bridge serve: %s", (_what, input) => {
		expectOneLine(run([CLI_ENTRY, "serve", ...input.args(paths)], input), input.message);
	});

	it.each(CLI_CASES.map((input) => [input.what, input] as const))("claude-code-bridge: %s", (_what, input) => {
		expectOneLine(run([CLI_ENTRY, ...input.args(paths)], input), input.message);
	});
});
