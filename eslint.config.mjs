import { defineConfig, globalIgnores } from "eslint/config";
import obsidianmd from "eslint-plugin-obsidianmd";
import tseslint from "typescript-eslint";

// Every rule turned off below is listed, with its reason, in README.md ("Lint rules turned off").

// Code that also runs outside Obsidian (headless host, tests, benchmarks, build scripts): Node APIs and
// Node timers are the right tools there, and `window` does not exist.
const nodeSide = [
	"src/server/**",
	"src/protocol/**",
	"src/ide/**",
	"src/vault/**",
	"src/assembly/**",
	"src/headless/**",
	"tests/**",
	"bench/**",
	"scripts/**",
	"*.mjs",
];

export default defineConfig([
	globalIgnores(["node_modules/", "main.js", "dist/", ".cache/", "coverage/", "examples/"]),
	...obsidianmd.configs.recommended,
	{
		languageOptions: {
			parserOptions: {
				projectService: {
					allowDefaultProject: [
						"eslint.config.mjs",
						"esbuild.config.mjs",
						"version-bump.mjs",
						"jest.config.js",
						"scripts/*.mjs",
						"build/*.mjs",
						"tests/*.mjs",
					],
					// Those globs match 12 small scripts; typescript-eslint refuses more than 8 unless told (a speed guard).
					maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 16,
				},
			},
		},
		rules: {
			"obsidianmd/ui/sentence-case": [
				"warn",
				{
					brands: ["Claude Code Bridge", "Claude Code", "Claude", "Obsidian"],
					ignoreRegex: ["(^|\\s)/ide\\b"],
				},
			],
			// The declarative settings API (getSettingDefinitions) arrives in Obsidian 1.13 and is not in the pinned typings
			// (obsidian 1.8.7); this plugin supports 1.7.2 and later (manifest minAppVersion), so the tab builds its rows.
			"obsidianmd/settings-tab/prefer-setting-definitions": "off",
		},
	},
	{
		// Views initialised on first use (issue 31: plugin load): Obsidian's view creators, CodeMirror's view plugins and
		// a settings tab's display answer at once, so their modules are reached by a synchronous require, which esbuild
		// keeps wrapped in main.js until that first call; an import() would make them wait.
		files: [
			"src/obsidian/agent/register-agent-view.ts",
			"src/obsidian/activity/register-activity-view.ts",
			"src/obsidian/review/register-diff-review.ts",
			"src/obsidian/editor/inline-edit-extension.ts",
			"src/obsidian/settings/lazy-settings-tab.ts",
		],
		rules: { "@typescript-eslint/no-require-imports": "off" },
	},
	{
		// Default hotkeys the user asked for, each one Obsidian's own commands leave free; users can change both:
		// Mod+Alt+K for "Tag for Claude Code", and Mod+J for "Edit with Claude" (issue 30: inline edits "press a hotkey").
		files: ["src/obsidian/editor/tag-commands.ts", "src/obsidian/editor/inline-edit-commands.ts"],
		rules: { "obsidianmd/commands/no-default-hotkeys": "off" },
	},
	{
		// The community review checks manifest.json's shape; the recommended config lints code only, so it is named here.
		// TypeScript's parser reads a .json file as one object expression, which is what the rule expects.
		files: ["manifest.json"],
		plugins: { obsidianmd },
		languageOptions: { parser: tseslint.parser, parserOptions: { projectService: false, project: null } },
		rules: { "obsidianmd/validate-manifest": "error" },
	},
	{
		// TypeScript already reports undefined names, and knows Jest's globals from @types/jest.
		files: ["**/*.ts"],
		rules: { "no-undef": "off" },
	},
	{
		files: nodeSide,
		rules: {
			"obsidianmd/no-nodejs-modules": "off",
			"obsidianmd/prefer-window-timers": "off",
			"obsidianmd/no-global-this": "off",
		},
	},
]);
