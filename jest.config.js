/** @type {import('jest').Config} */
const shared = {
	testEnvironment: "node",
	transform: {
		"^.+\\.ts$": ["ts-jest", { tsconfig: { module: "commonjs", isolatedModules: true, sourceMap: true } }],
	},
	moduleNameMapper: { "^obsidian$": "<rootDir>/tests/__mocks__/obsidian.ts" },
};

module.exports = {
	maxWorkers: 2,
	// Tests and hooks without a timeout of their own (Jest's default is 5 s): a shared machine under load runs
	// several times slower, and a limit only turns a hang into a failure. Fixture starts pass FIXTURE_TIMEOUT_MS
	// (tests/helpers/fixture-timeout.ts), the helpers' waits stop at WAIT_TIMEOUT_MS, below this.
	testTimeout: 30_000,
	// Builds main.js and the headless host once, so the bundle tests and e2e tests test fresh code.
	globalSetup: "<rootDir>/tests/global-setup.mjs",
	projects: [
		{
			...shared,
			displayName: "unit",
			testMatch: ["<rootDir>/tests/**/*.test.ts"],
			testPathIgnorePatterns: ["/node_modules/", "\\.e2e\\.test\\.ts$"],
		},
		// Jest runs a project's globalSetup only when that project has tests to run: the pinned Claude Code CLI
		// is installed (once, before any worker starts) only when e2e tests were selected.
		{
			...shared,
			displayName: "e2e",
			testMatch: ["<rootDir>/tests/e2e/**/*.e2e.test.ts", "<rootDir>/tests/security/**/*.e2e.test.ts"],
			globalSetup: "<rootDir>/tests/e2e-global-setup.mjs",
		},
	],
};
