import type { RunOutcome } from "../../../src/agent/claude-cli/cli-machine";
import { CLAUDE_PATH_SETTING, checkClaude } from "../../../src/agent/claude-cli/claude-check";
import { FakeCliMachine, type FakeFile } from "../../helpers/fake-cli-machine";

const CLAUDE = "/home/ann/.local/bin/claude";
const noShell = (): Promise<undefined> => Promise.resolve(undefined);

function linuxWith(
	answer: Partial<RunOutcome> | undefined,
	files: Record<string, FakeFile> = { [CLAUDE]: {} },
): FakeCliMachine {
	return new FakeCliMachine({
		platform: "linux",
		homeDir: "/home/ann",
		env: { PATH: "/usr/bin" },
		files,
		...(answer ? { answer: () => answer } : {}),
	});
}

describe("checkClaude", () => {
	test("a supported version is ok, asked with --version under a time limit", async () => {
		const machine = linuxWith({ stdout: "2.1.330 (Claude Code)\n" });
		const check = await checkClaude({ machine, readShellPath: noShell, versionTimeoutMs: 4321 });
		expect(check).toMatchObject({
			status: "ok",
			version: "2.1.330",
			message: `Claude Code 2.1.330 at ${CLAUDE}.`,
			location: { path: CLAUDE },
		});
		expect(machine.runs).toEqual([
			{ command: CLAUDE, args: ["--version"], options: { timeoutMs: 4321, verbatimArguments: false } },
		]);
	});

	test("too old: says which version is needed and how to update", async () => {
		const check = await checkClaude({
			machine: linuxWith({ stdout: "2.1.200 (Claude Code)" }),
			readShellPath: noShell,
		});
		expect(check).toMatchObject({ status: "too-old", version: "2.1.200" });
		expect(check.message).toBe(
			`Claude Code 2.1.200 at ${CLAUDE} is too old for the panel (it needs 2.1.330 or newer).`,
		);
		expect("fix" in check && check.fix).toContain("claude update");
	});

	test("a newer line than the tested one: a warning the panel shows while it still runs", async () => {
		const check = await checkClaude({
			machine: linuxWith({ stdout: "2.2.3 (Claude Code)" }),
			readShellPath: noShell,
		});
		expect(check).toMatchObject({
			status: "untested-newer",
			version: "2.2.3",
			location: { launch: { kind: "direct", command: CLAUDE } },
		});
		expect(check.message).toContain("newer than the versions this plugin was tested with (2.1.x)");
	});

	test("not found: the install command and the setting's name (and on Windows, what WSL means)", async () => {
		const linux = await checkClaude({ machine: linuxWith(undefined, {}), readShellPath: noShell });
		expect(linux).toEqual({
			status: "not-found",
			message: "Claude Code was not found on this computer.",
			fix: `Install it with \`curl -fsSL https://claude.ai/install.sh | bash\` (or \`npm install -g @anthropic-ai/claude-code\`), or give its full path in the "${CLAUDE_PATH_SETTING}" setting.`,
		});
		const windows = await checkClaude({
			machine: new FakeCliMachine({ platform: "win32", homeDir: "C:\\Users\\ann" }),
		});
		expect(windows.status).toBe("not-found");
		expect("fix" in windows && windows.fix).toContain("irm https://claude.ai/install.ps1 | iex");
		expect("fix" in windows && windows.fix).toContain("installed only inside WSL");
	});

	test("an unusable setting names the setting, the path and the problem", async () => {
		const check = await checkClaude({
			machine: linuxWith(undefined),
			explicitPath: "/opt/claude",
			readShellPath: noShell,
		});
		expect(check).toMatchObject({
			status: "not-runnable",
			path: "/opt/claude",
			message: `The "${CLAUDE_PATH_SETTING}" setting, /opt/claude, does not exist.`,
		});
	});

	test.each([
		[
			{ startError: "EACCES: permission denied" },
			`Claude Code at ${CLAUDE} could not be started (EACCES: permission denied).`,
		],
		[{ timedOut: true, exitCode: null }, `Claude Code at ${CLAUDE} did not answer \`--version\` within 15 s.`],
		[
			{ exitCode: 127, stderr: "\nerror while loading shared libraries: libc.so\n" },
			`Claude Code at ${CLAUDE} exited with code 127 on \`--version\`: error while loading shared libraries: libc.so.`,
		],
		[
			{ stdout: "Usage: claude [options]" },
			`Claude Code at ${CLAUDE} answered \`--version\` with "Usage: claude [options]", which is not a version.`,
		],
		[{ stdout: "" }, `Claude Code at ${CLAUDE} answered \`--version\` with "nothing", which is not a version.`],
	])("not runnable: %j", async (answer, message) => {
		const check = await checkClaude({ machine: linuxWith(answer), readShellPath: noShell });
		expect(check).toMatchObject({ status: "not-runnable", path: CLAUDE, message });
		expect("fix" in check && check.fix).toContain(CLAUDE_PATH_SETTING);
	});

	test("a shim run through cmd.exe gets a verbatim, quoted --version", async () => {
		const shim = "C:\\tools\\claude.cmd";
		const machine = new FakeCliMachine({
			platform: "win32",
			homeDir: "C:\\Users\\ann",
			env: { ComSpec: "C:\\Windows\\system32\\cmd.exe" },
			files: { [shim]: { text: "@echo off\r\nC:\\elsewhere\\claude.exe %*\r\n" } },
			answer: () => ({ stdout: "2.1.330 (Claude Code)" }),
		});
		expect(await checkClaude({ machine, explicitPath: shim })).toMatchObject({ status: "ok" });
		expect(machine.runs).toEqual([
			{
				command: "C:\\Windows\\system32\\cmd.exe",
				args: ["/d", "/s", "/v:off", "/c", `""${shim}" "--version""`],
				options: { timeoutMs: 15_000, verbatimArguments: true },
			},
		]);
	});
});

describe("checkClaude with a claude inside the vault", () => {
	test("the setting: refused with a clear message, and not even --version runs", async () => {
		const machine = linuxWith(
			{ stdout: "2.1.330 (Claude Code)\n" },
			{ "/home/ann/Vault/claude": {}, [CLAUDE]: {} },
		);
		const check = await checkClaude({
			machine,
			explicitPath: "/home/ann/Vault/claude",
			vaultRoot: "/home/ann/Vault",
			readShellPath: noShell,
		});
		expect(check).toMatchObject({ status: "not-runnable", path: "/home/ann/Vault/claude" });
		expect(check.message).toBe(
			`The "${CLAUDE_PATH_SETTING}" setting, /home/ann/Vault/claude, is inside this vault. The panel never runs a program from the vault: anyone who can change the vault's files could have put it there.`,
		);
		expect("fix" in check && check.fix).toContain("installed outside the vault");
		expect(machine.runs).toEqual([]);
	});

	test("found by the search only in the vault: refused, and the message says where its link leads", async () => {
		const machine = new FakeCliMachine({
			platform: "linux",
			homeDir: "/home/ann",
			env: { PATH: "/home/ann/bin:/usr/bin" },
			files: { "/home/ann/Vault/.tools/claude": {} },
			links: { "/home/ann/bin/claude": "/home/ann/Vault/.tools/claude" },
			answer: () => ({ stdout: "2.1.330 (Claude Code)\n" }),
		});
		const check = await checkClaude({ machine, vaultRoot: "/home/ann/Vault", readShellPath: noShell });
		expect(check.message).toBe(
			"The only Claude Code found, /home/ann/bin/claude, is inside this vault (it leads to /home/ann/Vault/.tools/claude). The panel never runs a program from the vault: anyone who can change the vault's files could have put it there.",
		);
		expect(machine.runs).toEqual([]);
	});
});
