import {
	claudeFileNames,
	envValue,
	knownInstallFolders,
	pathFolders,
} from "../../../src/agent/claude-cli/claude-install-places";
import { FakeCliMachine } from "../../helpers/fake-cli-machine";

describe("envValue and pathFolders", () => {
	test("Windows reads variables without regard to case; other systems do not", () => {
		const windows = new FakeCliMachine({
			platform: "win32",
			homeDir: "C:\\Users\\ann",
			env: { Path: "C:\\a;C:\\b", LocalAppData: "C:\\L" },
		});
		expect([envValue(windows, "PATH"), envValue(windows, "LOCALAPPDATA")]).toEqual(["C:\\a;C:\\b", "C:\\L"]);
		const linux = new FakeCliMachine({ platform: "linux", homeDir: "/home/ann", env: { Path: "/x" } });
		expect(envValue(linux, "PATH")).toBeUndefined();
	});

	test("PATH entries split by the platform's separator; quoted, empty, relative and repeated ones handled", () => {
		const windows = new FakeCliMachine({ platform: "win32", homeDir: "C:\\Users\\ann" });
		expect(pathFolders(windows, `C:\\a;;"C:\\Program Files\\nodejs";.;C:\\a`)).toEqual([
			"C:\\a",
			"C:\\Program Files\\nodejs",
		]);
		const mac = new FakeCliMachine({ platform: "darwin", homeDir: "/Users/ann" });
		expect(pathFolders(mac, "/usr/bin::bin:/usr/bin:/opt/homebrew/bin")).toEqual(["/usr/bin", "/opt/homebrew/bin"]);
		expect(pathFolders(mac, undefined)).toEqual([]);
	});

	test("Windows looks for claude.exe, then claude.cmd, never npm's extensionless sh script", () => {
		expect(claudeFileNames("win32")).toEqual(["claude.exe", "claude.cmd"]);
		expect(claudeFileNames("linux")).toEqual(["claude"]);
	});
});

describe("knownInstallFolders", () => {
	test("macOS and Linux: installers, npm prefixes, the active nvm node, then nvm's nodes newest first, volta, bun", async () => {
		const versions = "/home/ann/.nvm/versions/node";
		const machine = new FakeCliMachine({
			platform: "linux",
			homeDir: "/home/ann",
			env: { NVM_BIN: `${versions}/v18.0.0/bin`, NPM_CONFIG_PREFIX: "/home/ann/npm" },
			files: {
				[`${versions}/v9.0.0/bin/node`]: {},
				[`${versions}/v20.11.1/bin/node`]: {},
				[`${versions}/v18.0.0/bin/node`]: {},
			},
		});
		expect(await knownInstallFolders(machine)).toEqual([
			"/home/ann/.local/bin",
			"/home/ann/.claude/local",
			"/home/ann/npm/bin",
			"/home/ann/.npm-global/bin",
			"/usr/local/bin",
			"/opt/homebrew/bin",
			`${versions}/v18.0.0/bin`,
			`${versions}/v20.11.1/bin`,
			`${versions}/v9.0.0/bin`,
			"/home/ann/.volta/bin",
			"/home/ann/.bun/bin",
			"/usr/bin",
		]);
	});

	test("NVM_DIR moves nvm's folder", async () => {
		const machine = new FakeCliMachine({
			platform: "darwin",
			homeDir: "/Users/ann",
			env: { NVM_DIR: "/opt/nvm" },
			files: { "/opt/nvm/versions/node/v22.1.0/bin/claude": {} },
		});
		expect(await knownInstallFolders(machine)).toContain("/opt/nvm/versions/node/v22.1.0/bin");
	});

	test("Windows: the native installer, winget, npm, volta, bun and the local install, from the profile variables", async () => {
		const machine = new FakeCliMachine({
			platform: "win32",
			homeDir: "C:\\Users\\ann",
			env: { USERPROFILE: "D:\\Profiles\\ann", LOCALAPPDATA: "E:\\Local", APPDATA: "F:\\Roaming" },
		});
		expect(await knownInstallFolders(machine)).toEqual([
			"D:\\Profiles\\ann\\.local\\bin",
			"E:\\Local\\Microsoft\\WinGet\\Links",
			"F:\\Roaming\\npm",
			"E:\\Local\\Volta\\bin",
			"D:\\Profiles\\ann\\.bun\\bin",
			"D:\\Profiles\\ann\\.claude\\local",
		]);
	});

	test("Windows without the profile variables falls back to the home folder's AppData", async () => {
		const machine = new FakeCliMachine({ platform: "win32", homeDir: "C:\\Users\\ann" });
		expect(await knownInstallFolders(machine)).toEqual(
			expect.arrayContaining([
				"C:\\Users\\ann\\AppData\\Roaming\\npm",
				"C:\\Users\\ann\\AppData\\Local\\Microsoft\\WinGet\\Links",
			]),
		);
	});
});
