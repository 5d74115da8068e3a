import { describeLaunch, launchCommand, type ClaudeLaunch } from "../../../src/agent/claude-cli/launch-command";

const shimLaunch: ClaudeLaunch = {
	kind: "cmd-shim",
	comSpec: "C:\\Windows\\system32\\cmd.exe",
	shim: "C:\\Users\\A & B\\AppData\\Roaming\\npm\\claude.cmd",
};

describe("launchCommand", () => {
	test("a direct launch puts Claude's arguments after its own (node's script first)", () => {
		const launch: ClaudeLaunch = { kind: "direct", command: "C:\\nodejs\\node.exe", args: ["C:\\npm\\cli.js"] };
		expect(launchCommand(launch, ["--version"])).toEqual({
			command: "C:\\nodejs\\node.exe",
			args: ["C:\\npm\\cli.js", "--version"],
			verbatimArguments: false,
		});
	});

	test("a shim goes through cmd.exe without AutoRun or ! expansion, every part quoted, in one outer pair of quotes", () => {
		expect(launchCommand(shimLaunch, ["--output-format", "stream-json", "--model", "claude sonnet"])).toEqual({
			command: "C:\\Windows\\system32\\cmd.exe",
			args: [
				"/d",
				"/s",
				"/v:off",
				"/c",
				`""C:\\Users\\A & B\\AppData\\Roaming\\npm\\claude.cmd" "--output-format" "stream-json" "--model" "claude sonnet""`,
			],
			verbatimArguments: true,
		});
	});

	test.each(['say "hi"', "100%PATH%", "wow!", "a^b", "line\nbreak", "C:\\folder\\"])(
		"an argument cmd.exe would act on, %j, is refused, not run",
		(argument) => {
			const command = launchCommand(shimLaunch, ["-p", argument]);
			expect("refused" in command && command.refused).toContain(JSON.stringify(argument));
		},
	);

	test("a shim path with a percent sign is refused too", () => {
		const launch: ClaudeLaunch = { ...shimLaunch, shim: "C:\\100%\\claude.cmd" };
		const command = launchCommand(launch, ["--version"]);
		expect("refused" in command && command.refused).toContain("set the path of claude.exe in the settings instead");
	});

	test("describeLaunch names the program, or the shim and cmd.exe", () => {
		expect(describeLaunch({ kind: "direct", command: "/usr/bin/claude", args: [] })).toBe("/usr/bin/claude");
		expect(describeLaunch(shimLaunch)).toBe(
			"C:\\Users\\A & B\\AppData\\Roaming\\npm\\claude.cmd (through cmd.exe)",
		);
	});
});
