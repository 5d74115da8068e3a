/** Set by tests/e2e-global-setup.mjs, which installs the CLI before any test worker starts. */
const CLI_PATH_VARIABLE = "CLAUDE_CODE_BRIDGE_TEST_CLI";

/** Path of the pinned Claude Code CLI, which the e2e project's global setup installed. Never installs. */
export function claudeBinaryPath(): string {
	const binary = process.env[CLI_PATH_VARIABLE];
	if (!binary) {
		throw new Error(
			`${CLI_PATH_VARIABLE} is not set: run the e2e tests through Jest (npx jest --selectProjects e2e), whose global setup installs the Claude Code CLI.`,
		);
	}
	return binary;
}
