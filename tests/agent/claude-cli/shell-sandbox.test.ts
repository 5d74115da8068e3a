import { shellSandboxSupport } from "../../../src/agent/claude-cli/shell-sandbox";
import { FakeCliMachine } from "../../helpers/fake-cli-machine";

describe("shellSandboxSupport", () => {
	it("on Linux needs bubblewrap and socat on PATH, and says which is missing", async () => {
		const both = new FakeCliMachine({
			platform: "linux",
			homeDir: "/home/u",
			env: { PATH: "/usr/local/bin:/usr/bin" },
			files: { "/usr/bin/bwrap": { kind: "executable" }, "/usr/local/bin/socat": { kind: "executable" } },
		});
		expect(await shellSandboxSupport(both)).toEqual({ available: true });
		const noBwrap = new FakeCliMachine({
			platform: "linux",
			homeDir: "/home/u",
			env: { PATH: "/usr/bin" },
			files: { "/usr/bin/socat": { kind: "executable" } },
		});
		expect(await shellSandboxSupport(noBwrap)).toEqual({
			available: false,
			why: "bubblewrap (bwrap) is not installed",
		});
		const notExecutable = new FakeCliMachine({
			platform: "linux",
			homeDir: "/home/u",
			env: { PATH: "/usr/bin" },
			files: { "/usr/bin/bwrap": { kind: "not-executable" } },
		});
		expect(await shellSandboxSupport(notExecutable)).toEqual({
			available: false,
			why: "bubblewrap (bwrap) and socat are not installed",
		});
	});

	it("looks on the PATH it is given (the login shell's), and ignores relative PATH entries (they would name the vault)", async () => {
		const machine = new FakeCliMachine({
			platform: "linux",
			homeDir: "/home/u",
			env: { PATH: "." },
			files: {
				"/opt/bin/bwrap": { kind: "executable" },
				"/opt/bin/socat": { kind: "executable" },
				bwrap: { kind: "executable" },
			},
		});
		expect(await shellSandboxSupport(machine)).toMatchObject({ available: false });
		expect(await shellSandboxSupport(machine, "/opt/bin")).toEqual({ available: true });
	});

	it("on macOS uses the system's sandbox-exec; on Windows there is none", async () => {
		expect(
			await shellSandboxSupport(
				new FakeCliMachine({
					platform: "darwin",
					homeDir: "/Users/u",
					files: { "/usr/bin/sandbox-exec": { kind: "executable" } },
				}),
			),
		).toEqual({ available: true });
		expect(await shellSandboxSupport(new FakeCliMachine({ platform: "win32", homeDir: "C:\\Users\\u" }))).toEqual({
			available: false,
			why: "Claude Code has no shell sandbox on this system",
		});
	});
});
