import { win32 } from "node:path";

/** What a package manager's `.cmd` shim starts. */
export type CmdShimTarget =
	/** A program started as is (npm's shim for `@anthropic-ai/claude-code` 2.x points at `bin\claude.exe`). */
	| { kind: "executable"; path: string }
	/** A JavaScript file the shim hands to `node` (older CLI releases: `cli.js`). */
	| { kind: "node-script"; script: string };

/** A path the shim gives relative to its own folder: `"%dp0%\…"` (npm) or `"%~dp0\…"` (older npm, pnpm). */
const SHIM_RELATIVE_PATH = /"%~?dp0%?\\([^"%]+)"/g;
const PROGRAM_EXTENSIONS = new Set([".exe", ".com"]);
const SCRIPT_EXTENSIONS = new Set([".js", ".cjs", ".mjs"]);
/** The shim starts its target with node (a bin without an extension but with a `node` shebang). */
const STARTS_NODE = /\bnode(\.exe)?"/i;

/**
 * The program an npm-, pnpm- or yarn-style `.cmd` shim starts, from its text: the last quoted path relative to
 * the shim's folder that is not `node.exe` itself. Undefined when the shim has no such path (another format).
 */
export function readCmdShimTarget(shimText: string, shimPath: string): CmdShimTarget | undefined {
	const folder = win32.dirname(shimPath);
	const targets = [...shimText.matchAll(SHIM_RELATIVE_PATH)]
		.map((match) => match[1] ?? "")
		.filter((relative) => relative !== "" && win32.basename(relative).toLowerCase() !== "node.exe");
	const relative = targets.at(-1);
	if (relative === undefined) return undefined;
	const path = win32.resolve(folder, relative);
	const extension = win32.extname(path).toLowerCase();
	if (PROGRAM_EXTENSIONS.has(extension)) return { kind: "executable", path };
	if (SCRIPT_EXTENSIONS.has(extension) || STARTS_NODE.test(shimText)) return { kind: "node-script", script: path };
	return { kind: "executable", path };
}
