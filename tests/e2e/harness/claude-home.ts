import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { makeTempDir } from "../../helpers/temp-dir";

export const FAKE_API_KEY = "sk-ant-api03-mock-harness-0123456789abcdefghij";

/**
 * The smallest ~/.claude.json with which CLI 2.1.330 starts straight at its prompt: without
 * `hasCompletedOnboarding` it runs the first-run screens (and a connectivity check of api.anthropic.com),
 * without `customApiKeyResponses` it asks whether to use ANTHROPIC_API_KEY, and without
 * `hasTrustDialogAccepted` for the folder it shows the trust dialog.
 */
export function claudeGlobalConfig(trustedFolders: string[], apiKey: string): Record<string, unknown> {
	const projects = Object.fromEntries(
		trustedFolders.map((folder) => [folder, { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true }]),
	);
	return {
		hasCompletedOnboarding: true,
		customApiKeyResponses: { approved: [apiKey.slice(-20)], rejected: [] },
		projects,
	};
}

export interface ClaudeHome {
	path: string;
	remove: () => void;
	ideLockDir: string;
}

/** A throwaway HOME whose ~/.claude.json lets the CLI start without any first-run interaction. */
export function makeClaudeHome(trustedFolders: string[], apiKey: string = FAKE_API_KEY): ClaudeHome {
	const home = makeTempDir("claude-home");
	const ideLockDir = path.join(home.path, ".claude", "ide");
	mkdirSync(ideLockDir, { recursive: true, mode: 0o700 });
	const config = claudeGlobalConfig(trustedFolders, apiKey);
	writeFileSync(path.join(home.path, ".claude.json"), JSON.stringify(config, null, 2), { mode: 0o600 });
	return { ...home, ideLockDir };
}

/**
 * The environment of a CLI the tests start without a terminal (the agent panel's stream-json sessions): `home` as
 * HOME, the mock model API, and no traffic beyond the main loop.
 */
export function headlessCliEnv(home: string, apiBaseUrl: string): Record<string, string> {
	return {
		PATH: process.env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
		HOME: home,
		LANG: "C.UTF-8",
		NO_PROXY: "127.0.0.1,localhost,::1",
		ANTHROPIC_BASE_URL: apiBaseUrl,
		ANTHROPIC_API_KEY: FAKE_API_KEY,
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
		DISABLE_AUTOUPDATER: "1",
	};
}
