import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathBetweenMarkers, readLoginShellPath } from "../../../src/agent/claude-cli/login-shell-path";
import { nodeCliMachine } from "../../../src/agent/claude-cli/node-cli-machine";
import { FakeCliMachine } from "../../helpers/fake-cli-machine";
import { makeTempDir } from "../../helpers/temp-dir";

const MARKER = "CCB_PATH_test";

function shellMachine(
	platform: "darwin" | "linux" | "win32",
	env: Record<string, string>,
	stdout: string,
	extra: { timedOut?: boolean } = {},
): FakeCliMachine {
	return new FakeCliMachine({ platform, homeDir: "/home/ann", env, answer: () => ({ stdout, ...extra }) });
}

describe("readLoginShellPath", () => {
	test("runs the user's shell as an interactive login shell once, and reads PATH between the markers", async () => {
		const noise = "Last login: Thu\nnvm: using node v22\n";
		const machine = shellMachine(
			"linux",
			{ SHELL: "/usr/bin/fish" },
			`${noise}${MARKER}_START\n/home/ann/.nvm/versions/node/v22.3.0/bin:/usr/local/bin:/usr/bin:relative:/usr/bin\n${MARKER}_END\nbye\n`,
		);
		expect(await readLoginShellPath(machine, 5000, MARKER)).toEqual([
			"/home/ann/.nvm/versions/node/v22.3.0/bin",
			"/usr/local/bin",
			"/usr/bin",
		]);
		expect(machine.runs).toEqual([
			{
				command: "/usr/bin/fish",
				args: ["-i", "-l", "-c", `echo ${MARKER}_START; printenv PATH; echo ${MARKER}_END`],
				options: { timeoutMs: 5000 },
			},
		]);
	});

	test("without SHELL, macOS uses zsh and Linux sh", async () => {
		const answer = `${MARKER}_START\n/usr/bin\n${MARKER}_END\n`;
		const mac = shellMachine("darwin", {}, answer);
		const linux = shellMachine("linux", {}, answer);
		await readLoginShellPath(mac, 5000, MARKER);
		await readLoginShellPath(linux, 5000, MARKER);
		expect([mac.runs[0]?.command, linux.runs[0]?.command]).toEqual(["/bin/zsh", "/bin/sh"]);
	});

	test.each([
		["the shell took too long", `${MARKER}_START\n/usr/bin\n${MARKER}_END\n`, { timedOut: true }],
		["no markers were printed", "/usr/bin:/bin\n", {}],
		["only the first marker was printed", `${MARKER}_START\n/usr/bin\n`, {}],
	])("nothing is read when %s", async (_case, stdout, extra) => {
		expect(
			await readLoginShellPath(shellMachine("darwin", { SHELL: "/bin/zsh" }, stdout, extra), 5000, MARKER),
		).toBeUndefined();
	});

	test("nothing is read when the shell cannot be started", async () => {
		const machine = new FakeCliMachine({ platform: "linux", homeDir: "/home/ann", env: { SHELL: "/no/shell" } });
		expect(await readLoginShellPath(machine, 5000, MARKER)).toBeUndefined();
	});

	test("Windows runs no shell", async () => {
		const machine = shellMachine("win32", { SHELL: "C:\\msys\\bash.exe" }, "");
		expect(await readLoginShellPath(machine)).toBeUndefined();
		expect(machine.runs).toEqual([]);
	});

	test("a real bash login shell: a profile that prints noise and adds a folder to PATH", async () => {
		const home = makeTempDir("login-shell");
		try {
			const extraBin = path.join(home.path, "tools", "bin");
			mkdirSync(extraBin, { recursive: true });
			writeFileSync(
				path.join(home.path, ".bash_profile"),
				`echo "Welcome, the profile says hello"\nexport PATH="${extraBin}:$PATH"\necho "done" >&2\n`,
			);
			const machine = nodeCliMachine({ HOME: home.path, SHELL: "/bin/bash", PATH: "/usr/bin:/bin" });
			const shellPath = await readLoginShellPath(machine, 20_000);
			expect(shellPath?.[0]).toBe(extraBin);
			expect(shellPath).toContain("/usr/bin");
		} finally {
			home.remove();
		}
	});
});

describe("pathBetweenMarkers", () => {
	test("a marker must be a whole line (a profile echoing the command does not count)", () => {
		const stdout = `+ echo A_START; printenv PATH; echo A_END\n/profile/noise\nA_START\n/bin\nA_END\n`;
		expect(pathBetweenMarkers(stdout, "A_START", "A_END")).toEqual(["/bin"]);
	});
});
