#!/usr/bin/env node
// Installs the pinned Claude Code CLI for the end-to-end tests into .cache/claude-cli and prints the
// binary's path. Jest's global setup calls ensureClaudeCli() before any test worker starts.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { installOnce } from "./install-once.mjs";

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
		}).trim();
		return output === CLAUDE_CLI_VERSION || output.startsWith(`${CLAUDE_CLI_VERSION} `);
	} catch {
		return false;
	}
}

/** The path of a binary in `prefix` that reports the pinned version, if there is one. Never installs. */
export function findClaudeCli(prefix = claudeCliPrefix) {
	return binaryCandidates(prefix).find(reportsPinnedVersion);
}

function npmInstall(prefix) {
	const npm = process.platform === "win32" ? "npm.cmd" : "npm";
	process.stderr.write(
		`Installing ${PACKAGE_NAME}@${CLAUDE_CLI_VERSION} for the end-to-end tests (once, into ${claudeCliPrefix})…\n`,
	);
	execFileSync(
		npm,
		[
			"install",
			"--prefix",
			prefix,
			"--no-save",
			"--no-audit",
			"--no-fund",
			`${PACKAGE_NAME}@${CLAUDE_CLI_VERSION}`,
		],
		{ stdio: ["ignore", process.stderr, process.stderr], timeout: 600_000 },
	);
}

/**
 * Installs the pinned CLI into `prefix` unless it is there already (once, however many processes ask at
 * the same time) and returns the binary's path. Throws one error saying what failed and what to do.
 */
export async function ensureClaudeCli({ prefix = claudeCliPrefix, runInstaller = npmInstall, onWait } = {}) {
	try {
		return await installOnce({ target: prefix, install: runInstaller, locate: findClaudeCli, onWait });
	} catch (error) {
		const reason = typeof error?.message === "string" ? error.message.split("\n")[0] : String(error);
		throw new Error(
			`Could not install ${PACKAGE_NAME}@${CLAUDE_CLI_VERSION} (the CLI the end-to-end tests drive) into ${prefix}: ${reason}. ` +
				`It needs the npm registry once; run \`node scripts/install-claude-cli.mjs\` to retry and see npm's output.`,
		);
	}
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	try {
		process.stdout.write(`${await ensureClaudeCli()}\n`);
	} catch (error) {
		process.stderr.write(`${error.message}\n`);
		process.exit(1);
	}
}
