import { spawnSync } from "node:child_process";
import { ensureClaudeCli } from "../scripts/install-claude-cli.mjs";
import { userFacingError } from "./global-setup.mjs";

/** Read by tests/e2e/harness/cli-binary.ts in the test workers, which start after this ran. */
export const CLI_PATH_VARIABLE = "CLAUDE_CODE_BRIDGE_TEST_CLI";

/**
 * The e2e project's global setup: Jest runs it only when e2e tests were selected, once, before any worker
 * starts. Installs the pinned Claude Code CLI (under a lock, so concurrent `npm test` runs install it once).
 */
export default async function e2eGlobalSetup() {
	const python = spawnSync("python3", ["--version"], { stdio: "ignore" });
	if (python.status !== 0) {
		throw userFacingError(
			"The end-to-end tests need python3 (tests/e2e/harness/pty-bridge.py gives the Claude Code CLI a pseudo-terminal), and python3 was not found.",
		);
	}
	try {
		process.env[CLI_PATH_VARIABLE] = await ensureClaudeCli({
			onWait: (pid) =>
				process.stderr.write(`Waiting for process ${String(pid)}, which is installing the Claude Code CLI…\n`),
		});
	} catch (error) {
		throw userFacingError(error.message);
	}
}
