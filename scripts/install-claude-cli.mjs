#!/usr/bin/env node
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const CLAUDE_CLI_VERSION = "2.1.330";
const PACKAGE_NAME = "@anthropic-ai/claude-code";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const claudeCliPrefix = path.join(repoRoot, ".cache", "claude-cli");

function binaryCandidates(prefix) {
	const modules = path.join(prefix, "node_modules");
	return [
		path.join(modules, ".bin", "claude"),
		path.join(modules, "@anthropic-ai", `claude-code-${process.platform}-${process.arch}`, "claude"),
	];
}

function reportsPinnedVersion(binary) {
	if (!existsSync(binary)) return false;
	try {
		const output = execFileSync(binary, ["--version"], {
			encoding: "utf8",
			timeout: 20_000,
			stdio: ["ignore", "pipe", "ignore"],
		});
		return output.trim().startsWith(`${CLAUDE_CLI_VERSION} `) || output.trim() === CLAUDE_CLI_VERSION;
	} catch {
		return false;
	}
}

function findWorkingBinary(prefix) {
	return binaryCandidates(prefix).find(reportsPinnedVersion);
}

function npmInstall(prefix) {
	mkdirSync(prefix, { recursive: true });
	const npm = process.platform === "win32" ? "npm.cmd" : "npm";
	execFileSync(
		npm,
		["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", `${PACKAGE_NAME}@${CLAUDE_CLI_VERSION}`],
		{ stdio: ["ignore", process.stderr, process.stderr], timeout: 600_000 },
	);
}

/** Installs the pinned Claude Code CLI into .cache/claude-cli if needed; returns the binary's path. */
export function ensureClaudeCli(prefix = claudeCliPrefix) {
	const existing = findWorkingBinary(prefix);
	if (existing) return existing;
	npmInstall(prefix);
	const installed = findWorkingBinary(prefix);
	if (!installed) {
		throw new Error(`${PACKAGE_NAME}@${CLAUDE_CLI_VERSION} installed in ${prefix}, but no binary reports that version`);
	}
	return installed;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	try {
		process.stdout.write(`${ensureClaudeCli()}\n`);
	} catch (error) {
		process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
		process.exit(1);
	}
}
