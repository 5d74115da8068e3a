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
	// Builds main.js and the headless host once, so the bundle tests and e2e tests test fresh code.
	globalSetup: "<rootDir>/tests/global-setup.mjs",
	projects: [
		{ ...shared, displayName: "unit", testMatch: ["<rootDir>/tests/**/*.test.ts"], testPathIgnorePatterns: ["/node_modules/", "\\.e2e\\.test\\.ts$"] },
		{ ...shared, displayName: "e2e", testMatch: ["<rootDir>/tests/e2e/**/*.e2e.test.ts"] },
	],
};
