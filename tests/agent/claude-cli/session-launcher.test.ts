import { claudeLauncher } from "../../../src/agent/claude-cli/session-launcher";
import { FakeCliMachine } from "../../helpers/fake-cli-machine";

const version = (text: string) => () => ({
	exitCode: 0,
	stdout: `${text} (Claude Code)\n`,
	stderr: "",
	timedOut: false,
});

describe("claudeLauncher", () => {
	it("starts the Claude Code the setting names, with the session's arguments after it", async () => {
		const machine = new FakeCliMachine({
			platform: "linux",
			homeDir: "/home/u",
			files: { "/opt/claude/bin/claude": { kind: "executable" } },
			answer: version("2.1.330"),
		});
		const plan = await claudeLauncher(machine, () => "/opt/claude/bin/claude")(["-p", "--verbose"]);
		expect(plan).toEqual({
			command: { command: "/opt/claude/bin/claude", args: ["-p", "--verbose"], verbatimArguments: false },
		});
	});

	it("hands the session the login shell's PATH when it had to read it to find the CLI", async () => {
		const machine = new FakeCliMachine({
			platform: "darwin",
			homeDir: "/Users/u",
			env: { PATH: "/usr/bin:/bin", SHELL: "/bin/zsh" },
			files: { "/Users/u/.volta/bin/claude": { kind: "executable" }, "/bin/zsh": { kind: "executable" } },
			answer: (command, args) => {
				if (command === "/bin/zsh") {
					const [start, end] = /echo (\S+); printenv PATH; echo (\S+)/.exec(args.join(" "))?.slice(1) ?? [];
					return {
						exitCode: 0,
						stdout: `Welcome back\n${start}\n/Users/u/.volta/bin:/usr/bin:/bin\n${end}\n`,
						stderr: "",
						timedOut: false,
					};
				}
				return version("2.1.331")();
			},
		});
		const plan = await claudeLauncher(machine, () => "")(["-p"]);
		if ("failure" in plan) throw new Error(plan.failure);
		expect(plan.command.command).toBe("/Users/u/.volta/bin/claude");
		expect(plan.path).toBe("/Users/u/.volta/bin:/usr/bin:/bin");
	});

	it("refuses a CLI that is missing or too old, with the message and the fix in one line", async () => {
		const missing = await claudeLauncher(
			new FakeCliMachine({ platform: "linux", homeDir: "/home/u", env: { PATH: "/usr/bin" } }),
			() => "",
		)(["-p"]);
		expect(missing).toEqual({
			failure: expect.stringMatching(
				/^Claude Code was not found on this computer\. Install it with .*"Claude Code executable" setting\./,
			) as unknown,
		});
		const old = new FakeCliMachine({
			platform: "linux",
			homeDir: "/home/u",
			files: { "/opt/claude": { kind: "executable" } },
			answer: version("2.0.10"),
		});
		const tooOld = await claudeLauncher(old, () => "/opt/claude")(["-p"]);
		expect(tooOld).toEqual({
			failure: expect.stringContaining(
				"is too old for the panel (it needs 2.1.330 or newer). Update it with `claude update`",
			) as unknown,
		});
	});

	it("runs a newer, untested CLI with a warning", async () => {
		const machine = new FakeCliMachine({
			platform: "linux",
			homeDir: "/home/u",
			files: { "/opt/claude": { kind: "executable" } },
			answer: version("2.2.0"),
		});
		const plan = await claudeLauncher(machine, () => "/opt/claude")(["-p"]);
		expect(plan).toMatchObject({
			command: { command: "/opt/claude" },
			warning: expect.stringContaining("newer than the versions this plugin was tested with") as unknown,
		});
	});
});
