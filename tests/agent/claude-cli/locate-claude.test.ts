import { locateClaude } from "../../../src/agent/claude-cli/locate-claude";
import { crlf, NPM_EXE_SHIM, NPM_NODE_SHIM } from "../../helpers/cmd-shims";
import { FakeCliMachine, type FakeFile } from "../../helpers/fake-cli-machine";

const GUI_MAC_PATH = "/usr/bin:/bin:/usr/sbin:/sbin";

function mac(
	files: Record<string, FakeFile>,
	env: Record<string, string> = { PATH: GUI_MAC_PATH, SHELL: "/bin/zsh" },
): FakeCliMachine {
	return new FakeCliMachine({ platform: "darwin", homeDir: "/Users/ann", env, files });
}

function windows(files: Record<string, FakeFile>, env: Record<string, string> = {}): FakeCliMachine {
	return new FakeCliMachine({
		platform: "win32",
		homeDir: "C:\\Users\\ann",
		env: {
			Path: "C:\\Windows\\system32;C:\\Windows",
			USERPROFILE: "C:\\Users\\ann",
			LOCALAPPDATA: "C:\\Users\\ann\\AppData\\Local",
			APPDATA: "C:\\Users\\ann\\AppData\\Roaming",
			ComSpec: "C:\\Windows\\system32\\cmd.exe",
			...env,
		},
		files,
	});
}

const noShell = (): Promise<string[] | undefined> => Promise.resolve(undefined);

describe("the explicit path setting", () => {
	test("wins over a claude on PATH when it can be run", async () => {
		const machine = mac({ "/opt/tools/claude": {}, "/usr/bin/claude": {} });
		expect(await locateClaude({ machine, explicitPath: " /opt/tools/claude ", readShellPath: noShell })).toEqual({
			kind: "found",
			path: "/opt/tools/claude",
			source: "setting",
			launch: { kind: "direct", command: "/opt/tools/claude", args: [] },
		});
	});

	test.each([
		["/opt/tools/claude", {}, "does not exist"],
		["/opt/tools", { "/opt/tools/claude": {} }, "is a folder, not the claude program"],
		["/opt/tools/claude", { "/opt/tools/claude": { kind: "not-executable" } }, "is not executable"],
		["tools/claude", { "/usr/bin/claude": {} }, "is not an absolute path"],
	] as const)(
		"%s that cannot be run is reported, and nothing else is tried",
		async (explicitPath, files, problem) => {
			const readShellPath = jest.fn(noShell);
			const machine = mac({ ...files, "/usr/bin/claude": {} });
			expect(await locateClaude({ machine, explicitPath, readShellPath })).toEqual({
				kind: "setting-unusable",
				path: explicitPath,
				problem,
			});
			expect(readShellPath).not.toHaveBeenCalled();
		},
	);

	test("a leading ~ is the home folder", async () => {
		const machine = mac({ "/Users/ann/bin/claude": {} });
		expect(await locateClaude({ machine, explicitPath: "~/bin/claude" })).toMatchObject({
			kind: "found",
			path: "/Users/ann/bin/claude",
		});
	});

	test("on Windows a claude.cmd setting is resolved through the shim like a found one", async () => {
		const shim = "C:\\Users\\ann\\AppData\\Roaming\\npm\\claude.cmd";
		const exe = "C:\\Users\\ann\\AppData\\Roaming\\npm\\node_modules\\@anthropic-ai\\claude-code\\bin\\claude.exe";
		const machine = windows({ [shim]: { text: NPM_EXE_SHIM }, [exe]: {} });
		expect(await locateClaude({ machine, explicitPath: shim })).toMatchObject({
			kind: "found",
			source: "setting",
			launch: { kind: "direct", command: exe, args: [] },
		});
	});
});

describe("searching on macOS and Linux", () => {
	test("a claude on the app's own PATH is taken without running the login shell", async () => {
		const readShellPath = jest.fn(noShell);
		const machine = mac({ "/usr/local/bin/claude": {} }, { PATH: "/usr/local/bin:/usr/bin" });
		expect(await locateClaude({ machine, readShellPath })).toMatchObject({
			kind: "found",
			path: "/usr/local/bin/claude",
			source: "path",
		});
		expect(readShellPath).not.toHaveBeenCalled();
	});

	test("a GUI app finds the claude on the login shell's PATH (an nvm node), and gets that PATH to pass on", async () => {
		const nvmBin = "/Users/ann/.nvm/versions/node/v22.3.0/bin";
		const shellPath = [nvmBin, "/opt/homebrew/bin", "/usr/bin", "/bin"];
		const machine = mac({ [`${nvmBin}/claude`]: {} });
		expect(await locateClaude({ machine, readShellPath: () => Promise.resolve(shellPath) })).toEqual({
			kind: "found",
			path: `${nvmBin}/claude`,
			source: "login-shell-path",
			launch: { kind: "direct", command: `${nvmBin}/claude`, args: [] },
			loginShellPath: shellPath,
		});
	});

	test("the login shell's PATH comes before the install folders, in its own order", async () => {
		const machine = mac({ "/Users/ann/.local/bin/claude": {}, "/opt/homebrew/bin/claude": {} });
		const located = await locateClaude({
			machine,
			readShellPath: () => Promise.resolve(["/opt/homebrew/bin", "/usr/bin"]),
		});
		expect(located).toMatchObject({ kind: "found", path: "/opt/homebrew/bin/claude", source: "login-shell-path" });
	});

	test.each([
		"/Users/ann/.local/bin/claude",
		"/Users/ann/.claude/local/claude",
		"/Users/ann/.npm-global/bin/claude",
		"/usr/local/bin/claude",
		"/opt/homebrew/bin/claude",
		"/Users/ann/.volta/bin/claude",
		"/Users/ann/.bun/bin/claude",
	])("with no PATH that has it, the install folder %s is found", async (path) => {
		const machine = mac({ [path]: {} });
		expect(await locateClaude({ machine, readShellPath: noShell })).toMatchObject({
			kind: "found",
			path,
			source: "install-folder",
		});
	});

	test("among nvm's nodes the newest version's claude is taken (versions compared as numbers)", async () => {
		const versions = "/home/ann/.nvm/versions/node";
		const machine = new FakeCliMachine({
			platform: "linux",
			homeDir: "/home/ann",
			env: { PATH: "/usr/bin:/bin" },
			files: {
				[`${versions}/v9.11.2/bin/claude`]: {},
				[`${versions}/v22.3.0/bin/claude`]: {},
				[`${versions}/v20.11.1/bin/claude`]: {},
			},
		});
		expect(await locateClaude({ machine, readShellPath: noShell })).toMatchObject({
			path: `${versions}/v22.3.0/bin/claude`,
		});
	});

	test("a file named claude that is not executable is passed over", async () => {
		const machine = mac(
			{ "/usr/local/bin/claude": { kind: "not-executable" }, "/Users/ann/.bun/bin/claude": {} },
			{ PATH: "/usr/local/bin" },
		);
		expect(await locateClaude({ machine, readShellPath: noShell })).toMatchObject({
			path: "/Users/ann/.bun/bin/claude",
		});
	});

	test("when nothing is found, the answer lists every folder searched, each once", async () => {
		const machine = mac({}, { PATH: "/usr/bin:/bin:/usr/bin" });
		const located = await locateClaude({
			machine,
			readShellPath: () => Promise.resolve(["/usr/local/bin", "/usr/bin"]),
		});
		if (located.kind !== "not-found") throw new Error(`expected not-found, got ${located.kind}`);
		expect(located.searched.slice(0, 3)).toEqual(["/usr/bin", "/bin", "/usr/local/bin"]);
		expect(located.searched).toEqual(
			expect.arrayContaining(["/Users/ann/.local/bin", "/Users/ann/.volta/bin", "/opt/homebrew/bin"]),
		);
		expect(new Set(located.searched).size).toBe(located.searched.length);
	});
});

describe("searching on Windows", () => {
	const npmFolder = "C:\\Users\\ann\\AppData\\Roaming\\npm";
	const npmExe = `${npmFolder}\\node_modules\\@anthropic-ai\\claude-code\\bin\\claude.exe`;

	test("the native installer's claude.exe is found without PATH (and PATH is read as Path)", async () => {
		const machine = windows({ "C:\\Users\\ann\\.local\\bin\\claude.exe": {} });
		expect(await locateClaude({ machine })).toMatchObject({
			kind: "found",
			source: "install-folder",
			launch: { kind: "direct", command: "C:\\Users\\ann\\.local\\bin\\claude.exe" },
		});
		expect(machine.runs).toEqual([]);
	});

	test("winget's link is found", async () => {
		const link = "C:\\Users\\ann\\AppData\\Local\\Microsoft\\WinGet\\Links\\claude.exe";
		expect(await locateClaude({ machine: windows({ [link]: {} }) })).toMatchObject({ path: link });
	});

	test("npm's claude.cmd on PATH starts the claude.exe it points to, never cmd.exe", async () => {
		const machine = windows(
			{
				[`${npmFolder}\\claude.cmd`]: { text: NPM_EXE_SHIM },
				[`${npmFolder}\\claude`]: { text: "#!/bin/sh" },
				[npmExe]: {},
			},
			{ Path: `C:\\Windows;${npmFolder}` },
		);
		expect(await locateClaude({ machine })).toEqual({
			kind: "found",
			path: `${npmFolder}\\claude.cmd`,
			source: "path",
			launch: { kind: "direct", command: npmExe, args: [] },
		});
	});

	test("claude.exe comes before claude.cmd in the same folder", async () => {
		const machine = windows(
			{ [`${npmFolder}\\claude.cmd`]: { text: NPM_EXE_SHIM }, [`${npmFolder}\\claude.exe`]: {} },
			{ Path: npmFolder },
		);
		expect(await locateClaude({ machine })).toMatchObject({ path: `${npmFolder}\\claude.exe` });
	});

	test("a shim of a JavaScript CLI starts node with the script: node.exe beside the shim first, then on PATH", async () => {
		const script = `${npmFolder}\\node_modules\\@anthropic-ai\\claude-code\\cli.js`;
		const files = {
			[`${npmFolder}\\claude.cmd`]: { text: NPM_NODE_SHIM },
			[script]: { kind: "not-executable" as const },
			"C:\\Program Files\\nodejs\\node.exe": {},
		};
		const onPath = windows(files, { Path: `C:\\Program Files\\nodejs;${npmFolder}` });
		expect(await locateClaude({ machine: onPath })).toMatchObject({
			launch: { kind: "direct", command: "C:\\Program Files\\nodejs\\node.exe", args: [script] },
		});
		const beside = windows(
			{ ...files, [`${npmFolder}\\node.exe`]: {} },
			{ Path: `C:\\Program Files\\nodejs;${npmFolder}` },
		);
		expect(await locateClaude({ machine: beside })).toMatchObject({
			launch: { kind: "direct", command: `${npmFolder}\\node.exe`, args: [script] },
		});
	});

	test("a shim whose node or program is missing is reported as unrunnable when nothing better is found", async () => {
		const script = `${npmFolder}\\node_modules\\@anthropic-ai\\claude-code\\cli.js`;
		const noNode = windows({
			[`${npmFolder}\\claude.cmd`]: { text: NPM_NODE_SHIM },
			[script]: { kind: "not-executable" },
		});
		expect(await locateClaude({ machine: noNode })).toEqual({
			kind: "unrunnable",
			path: `${npmFolder}\\claude.cmd`,
			problem: `${npmFolder}\\claude.cmd needs Node.js, which is not on the PATH (install Node.js, or the native claude.exe)`,
		});
		const noExe = windows({ [`${npmFolder}\\claude.cmd`]: { text: NPM_EXE_SHIM } });
		const missingExe = await locateClaude({ machine: noExe });
		expect(missingExe.kind === "unrunnable" && missingExe.problem).toContain(`starts ${npmExe}, which is missing`);
		const withNative = windows({
			[`${npmFolder}\\claude.cmd`]: { text: NPM_EXE_SHIM },
			"C:\\Users\\ann\\.bun\\bin\\claude.exe": {},
		});
		expect(await locateClaude({ machine: withNative })).toMatchObject({
			kind: "found",
			path: "C:\\Users\\ann\\.bun\\bin\\claude.exe",
		});
	});

	test("a shim of a format we cannot read is run through the ComSpec cmd.exe", async () => {
		const machine = windows(
			{ [`${npmFolder}\\claude.cmd`]: { text: crlf(["@echo off", "C:\\claude\\claude.exe %*"]) } },
			{ Path: npmFolder },
		);
		expect(await locateClaude({ machine })).toMatchObject({
			launch: { kind: "cmd-shim", comSpec: "C:\\Windows\\system32\\cmd.exe", shim: `${npmFolder}\\claude.cmd` },
		});
	});

	test("Windows never runs the login shell (WSL's claude is not looked for)", async () => {
		const machine = windows({});
		expect(await locateClaude({ machine })).toMatchObject({ kind: "not-found" });
		expect(machine.runs).toEqual([]);
	});
});

describe("a claude inside the vault (anyone who can write to the vault could have put it there)", () => {
	const vaultRoot = "/Users/ann/Vault";

	test("named by the setting is refused before anything runs it or reads it", async () => {
		const machine = mac({ "/Users/ann/Vault/tools/claude": {}, "/usr/bin/claude": {} });
		expect(
			await locateClaude({
				machine,
				explicitPath: "/Users/ann/Vault/tools/claude",
				vaultRoot,
				readShellPath: noShell,
			}),
		).toEqual({
			kind: "inside-vault",
			path: "/Users/ann/Vault/tools/claude",
			realPath: "/Users/ann/Vault/tools/claude",
			source: "setting",
		});
		expect(machine.runs).toEqual([]);
	});

	test("is judged by where its links lead: a link out of the vault to a real install runs, a link into the vault does not", async () => {
		const outward = new FakeCliMachine({
			platform: "darwin",
			homeDir: "/Users/ann",
			env: {},
			files: { "/opt/claude/bin/claude": {} },
			links: { "/Users/ann/Vault/claude": "/opt/claude/bin/claude" },
		});
		expect(
			await locateClaude({
				machine: outward,
				explicitPath: "/Users/ann/Vault/claude",
				vaultRoot,
				readShellPath: noShell,
			}),
		).toMatchObject({ kind: "found" });
		const inward = new FakeCliMachine({
			platform: "darwin",
			homeDir: "/Users/ann",
			env: {},
			files: { "/Users/ann/Vault/.bin/claude": {} },
			links: { "/opt/tools/claude": "/Users/ann/Vault/.bin/claude" },
		});
		expect(
			await locateClaude({
				machine: inward,
				explicitPath: "/opt/tools/claude",
				vaultRoot,
				readShellPath: noShell,
			}),
		).toEqual({
			kind: "inside-vault",
			path: "/opt/tools/claude",
			realPath: "/Users/ann/Vault/.bin/claude",
			source: "setting",
		});
		expect(inward.runs).toEqual([]);
	});

	test("a vault reached through a link is the same vault", async () => {
		const machine = new FakeCliMachine({
			platform: "darwin",
			homeDir: "/Users/ann",
			env: {},
			files: { "/Volumes/Data/Vault/claude": {} },
			links: { "/Users/ann/Vault": "/Volumes/Data/Vault" },
		});
		expect(
			await locateClaude({
				machine,
				explicitPath: "/Volumes/Data/Vault/claude",
				vaultRoot,
				readShellPath: noShell,
			}),
		).toMatchObject({ kind: "inside-vault" });
	});

	test("found on PATH is skipped for one outside; when it is the only one, it is reported as refused", async () => {
		const env = { PATH: `/Users/ann/Vault/bin:${GUI_MAC_PATH}` };
		const both = mac({ "/Users/ann/Vault/bin/claude": {}, "/usr/bin/claude": {} }, env);
		expect(await locateClaude({ machine: both, vaultRoot, readShellPath: noShell })).toMatchObject({
			kind: "found",
			path: "/usr/bin/claude",
		});
		const only = mac({ "/Users/ann/Vault/bin/claude": {} }, env);
		expect(await locateClaude({ machine: only, vaultRoot, readShellPath: noShell })).toEqual({
			kind: "inside-vault",
			path: "/Users/ann/Vault/bin/claude",
			realPath: "/Users/ann/Vault/bin/claude",
			source: "path",
		});
	});

	test("a Windows shim outside the vault that starts a program inside it is refused too, whatever the case of the path", async () => {
		const machine = windows({
			"C:\\Users\\ann\\AppData\\Roaming\\npm\\claude.cmd": { text: NPM_EXE_SHIM },
			"C:\\Users\\ann\\AppData\\Roaming\\npm\\node_modules\\@anthropic-ai\\claude-code\\bin\\claude.exe": {},
		});
		const vault = "c:\\users\\ann\\appdata\\roaming\\npm\\node_modules";
		expect(
			await locateClaude({
				machine,
				explicitPath: "C:\\Users\\ann\\AppData\\Roaming\\npm\\claude.cmd",
				vaultRoot: vault,
				readShellPath: noShell,
			}),
		).toMatchObject({
			kind: "inside-vault",
			realPath:
				"C:\\Users\\ann\\AppData\\Roaming\\npm\\node_modules\\@anthropic-ai\\claude-code\\bin\\claude.exe",
		});
		expect(machine.runs).toEqual([]);
	});

	test("a folder beside the vault whose name starts the same is not the vault", async () => {
		const machine = mac({ "/Users/ann/Vault-tools/claude": {} });
		expect(
			await locateClaude({
				machine,
				explicitPath: "/Users/ann/Vault-tools/claude",
				vaultRoot,
				readShellPath: noShell,
			}),
		).toMatchObject({ kind: "found" });
	});
});
