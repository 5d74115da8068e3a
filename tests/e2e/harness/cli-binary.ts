import { execFileSync } from "node:child_process";
import path from "node:path";

export const REPO_ROOT = path.resolve(__dirname, "..", "..", "..");

let cachedBinary: string | undefined;

/** Path of the pinned Claude Code CLI, installed into .cache/claude-cli on first use. */
export function claudeBinaryPath(): string {
	if (cachedBinary !== undefined) return cachedBinary;
	const script = path.join(REPO_ROOT, "scripts", "install-claude-cli.mjs");
	const output = execFileSync(process.execPath, [script], {
		encoding: "utf8",
		timeout: 600_000,
		stdio: ["ignore", "pipe", "inherit"],
	});
	const lines = output.trim().split("\n");
	const binary = lines[lines.length - 1];
	if (!binary) throw new Error("install-claude-cli.mjs printed no binary path");
	cachedBinary = binary;
	return binary;
}
