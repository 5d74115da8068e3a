import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { importsOf, readProjectClaudeConfig } from "../../../src/agent/vault-config/project-claude-config";
import { makeTempDir } from "../../helpers/temp-dir";

describe("readProjectClaudeConfig (the vault's own Claude Code configuration, described)", () => {
	let root: { path: string; remove: () => void };
	let vault: string;
	const write = (path: string, text: string): void => {
		mkdirSync(join(vault, path, ".."), { recursive: true });
		writeFileSync(join(vault, path), text);
	};
	beforeEach(() => {
		root = makeTempDir("project-config");
		vault = join(root.path, "Vault");
		mkdirSync(vault);
	});
	afterEach(() => root?.remove());

	it("finds nothing in a vault without Claude Code files (and an empty settings file changes nothing)", async () => {
		write("Notes/a.md", "# A\n");
		expect((await readProjectClaudeConfig(vault)).items).toEqual([]);
		write(".claude/settings.json", "{}");
		expect((await readProjectClaudeConfig(vault)).items).toEqual([]);
	});

	it("describes what a shared vault's settings, tool servers and CLAUDE.md files (and the files they bring in) would do, file by file", async () => {
		write(
			".claude/settings.json",
			JSON.stringify({
				hooks: { SessionStart: [{ hooks: [{ type: "command", command: "touch marker" }] }] },
				apiKeyHelper: "./key.sh",
				env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:9" },
			}),
		);
		write(".claude/settings.local.json", JSON.stringify({ permissions: { allow: ["Bash(bash:*)"] } }));
		write(".mcp.json", JSON.stringify({ mcpServers: { notes: { command: "node", args: ["srv.js"] } } }));
		write("CLAUDE.md", "Be brief.\n@Private/diary.md\n`@not/an/import.md`\n");
		write("Private/diary.md", "Dear diary. @../CLAUDE.local.md\n");
		write("CLAUDE.local.md", "local\n");
		write(".claude/skills/tidy/SKILL.md", "---\nname: tidy\n---\n");
		write(".claude/commands/deploy.md", "deploy\n");
		const { items } = await readProjectClaudeConfig(vault);
		expect(items.map((item) => `${item.kind} ${item.file}: ${item.text}`)).toEqual([
			'runs .claude/settings.json: Runs "touch marker" when a session starts, before you type anything.',
			'runs .claude/settings.json: Runs "./key.sh" to get the API key it sends with your messages.',
			'sends .claude/settings.json: Sets ANTHROPIC_BASE_URL to "http://127.0.0.1:9": what Claude Code sends there (your messages, notes, API key) goes to that address.',
			'allows .claude/settings.local.json: Lets Claude use "Bash(bash:*)" without asking.',
			'runs .mcp.json: Starts "node srv.js" (the tool server "notes").',
			"instructions CLAUDE.md: Adds the text of CLAUDE.md to every conversation.",
			'instructions CLAUDE.md: CLAUDE.md brings in "Private/diary.md" too.',
			'instructions CLAUDE.md: CLAUDE.md brings in "CLAUDE.local.md" too.',
			"instructions CLAUDE.local.md: Adds the text of CLAUDE.local.md to every conversation.",
			'changes .claude/commands: Adds these commands: "deploy".',
			'runs .claude/skills: Adds these skills, which may come with programs for Claude to run: "tidy".',
		]);
	});

	it("names an import that reaches outside the vault without reading it", async () => {
		write("secret.md", "");
		writeFileSync(join(root.path, "outside.md"), "outside text");
		write("CLAUDE.md", `@${join(root.path, "outside.md")}\n@missing.md\n`);
		const texts = (await readProjectClaudeConfig(vault)).items.map((item) => item.text);
		expect(texts).toEqual([
			"Adds the text of CLAUDE.md to every conversation.",
			`CLAUDE.md brings in "${join(root.path, "outside.md")}" too, from outside the vault.`,
		]);
	});

	it("describes a tampered file as unreadable instead of failing: bad JSON, a huge file, a link out of the vault", async () => {
		write(".claude/settings.json", "{ not json");
		write(".mcp.json", "[1, 2]");
		write(".claude/settings.local.json", " ".repeat(300 * 1024));
		writeFileSync(join(root.path, "elsewhere.md"), "x");
		symlinkSync(join(root.path, "elsewhere.md"), join(vault, "CLAUDE.md"));
		const texts = (await readProjectClaudeConfig(vault)).items.map((item) => `${item.kind}: ${item.text}`);
		expect(texts).toEqual([
			"unreadable: .claude/settings.json is not a settings file Claude Code can read (not a JSON object).",
			"unreadable: .claude/settings.local.json is larger than 256 KB.",
			"unreadable: .mcp.json is not a settings file Claude Code can read (not a JSON object).",
			`unreadable: CLAUDE.md leads outside the vault, to ${join(root.path, "elsewhere.md")}.`,
		]);
	});

	it("fingerprints all of it: any change to a file, a new file or a new command changes the fingerprint; nothing else does", async () => {
		write(".claude/settings.json", '{"apiKeyHelper":"./key.sh"}');
		const first = (await readProjectClaudeConfig(vault)).fingerprint;
		expect(first).toMatch(/^[0-9a-f]{64}$/);
		write("Notes/unrelated.md", "edited");
		expect((await readProjectClaudeConfig(vault)).fingerprint).toBe(first);
		const changes: [string, string][] = [
			[".claude/settings.json", '{"apiKeyHelper":"./key2.sh"}'],
			[".claude/settings.local.json", "{}"],
			["CLAUDE.md", "hi"],
			[".claude/commands/x.md", "x"],
			[".claude/commands/x.md", "y"],
			[".claude/skills/s/SKILL.md", "s"],
		];
		const seen = new Set([first]);
		for (const [path, text] of changes) {
			write(path, text);
			const next = (await readProjectClaudeConfig(vault)).fingerprint;
			expect(seen.has(next)).toBe(false);
			seen.add(next);
		}
	});
});

describe("importsOf (CLAUDE.md's @path imports)", () => {
	it("reads @paths in prose, with escaped spaces, and not in code or e-mail addresses", () => {
		expect(
			importsOf(
				"See @a.md and @~/b.md.\n@dir/with\\ space.md\nmail ann@example.com\n`@code.md`\n```\n@fenced.md\n```\n@@x",
			),
		).toEqual(["a.md", "~/b.md.", "dir/with space.md"]);
	});
});
