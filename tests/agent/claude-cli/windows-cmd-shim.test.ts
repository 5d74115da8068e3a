import { readCmdShimTarget } from "../../../src/agent/claude-cli/windows-cmd-shim";
import { crlf, NPM_EXE_SHIM, NPM_NODE_SHIM, PNPM_SHIM } from "../../helpers/cmd-shims";

describe("readCmdShimTarget", () => {
	const shim = "C:\\Users\\ann\\AppData\\Roaming\\npm\\claude.cmd";

	test("npm's shim of the native CLI starts claude.exe beside it, with no node", () => {
		expect(readCmdShimTarget(NPM_EXE_SHIM, shim)).toEqual({
			kind: "executable",
			path: "C:\\Users\\ann\\AppData\\Roaming\\npm\\node_modules\\@anthropic-ai\\claude-code\\bin\\claude.exe",
		});
	});

	test("npm's shim of a JavaScript CLI hands cli.js to node (node.exe itself is not the target)", () => {
		expect(readCmdShimTarget(NPM_NODE_SHIM, shim)).toEqual({
			kind: "node-script",
			script: "C:\\Users\\ann\\AppData\\Roaming\\npm\\node_modules\\@anthropic-ai\\claude-code\\cli.js",
		});
	});

	test("pnpm's %~dp0 form with a path that climbs out of the shim's folder", () => {
		const pnpmShim = "D:\\pnpm\\global\\5\\node_modules\\.bin\\claude.cmd";
		expect(readCmdShimTarget(PNPM_SHIM, pnpmShim)).toEqual({
			kind: "node-script",
			script: "D:\\pnpm\\global\\5\\node_modules\\@anthropic-ai\\claude-code\\cli.js",
		});
	});

	test("a bin without an extension that the shim gives to node is a script", () => {
		const text = NPM_NODE_SHIM.replace("cli.js", "claude");
		expect(readCmdShimTarget(text, shim)).toEqual({
			kind: "node-script",
			script: "C:\\Users\\ann\\AppData\\Roaming\\npm\\node_modules\\@anthropic-ai\\claude-code\\claude",
		});
	});

	test("a batch file that names no path relative to itself is not a shim we can read", () => {
		expect(readCmdShimTarget(crlf(["@echo off", "C:\\tools\\claude\\claude.exe %*"]), shim)).toBeUndefined();
		expect(readCmdShimTarget("", shim)).toBeUndefined();
	});
});
