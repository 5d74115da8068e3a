import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_ENTRY } from "../vault-tools/stdio/stdio-server-process";

/**
 * What the README and its pages in docs/ tell a user must be what the code does: its commands, its links, its
 * claude mcp add lines.
 */
const ROOT = join(__dirname, "..", "..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const doc = (name: string): string => readFileSync(join(ROOT, "docs", name), "utf8");
const DEVELOPERS = doc("developers.md");
const VAULT_TOOLS = doc("vault-tools.md");

/** The text of every fenced block, without its fences. */
function codeBlocks(markdown: string): string[] {
	return [...markdown.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)].map((match) => (match[1] ?? "").replace(/\n$/, ""));
}

describe("README.md", () => {
	// Each case starts the built command once; a hang guard sized for a loaded machine.
	jest.setTimeout(60_000);

	it("starts with the Obsidian user's path, before any developer set-up", () => {
		const headings = [...README.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
		expect(headings.slice(0, 4)).toEqual([
			"Install in Obsidian",
			"Connect Claude Code with `/ide`",
			"Tag a note, review an edit",
			"Add Claude's vault tools",
		]);
		expect(headings.indexOf("Development")).toBeGreaterThan(headings.indexOf("Add Claude's vault tools"));
		for (const step of [
			"Restricted mode",
			"BRAT",
			"/plugins/claude-code-bridge/",
			"reload",
			"Mod+Alt+K",
			"Accept",
		]) {
			expect({
				step,
				said: README.indexOf(step) < README.indexOf("## Development") && README.includes(step),
			}).toEqual({ step, said: true });
		}
	});

	it("keeps the two set-up commands, exactly", () => {
		expect(README).toContain("npm ci && npm start    # build and run the bridge headless against examples/vault\n");
		expect(README).toContain(
			"npm ci && npm test     # typecheck, lint, and every test (unit, integration, bundle, real-CLI end-to-end)\n",
		);
	});

	it.each([[[]], [["serve"]], [["mcp"]], [["mcp-headers"]]])(
		"shows in docs/developers.md what claude-code-bridge %j --help prints, verbatim",
		(args: string[]) => {
			const run = spawnSync(process.execPath, [CLI_ENTRY, ...args, "--help"], {
				encoding: "utf8",
				timeout: 30_000,
			});
			expect(run.status).toBe(0);
			// mcp and mcp-headers print their help on stderr: their stdout is the protocol's, or the headers'.
			const help = (run.stdout || run.stderr).trimEnd();
			expect(codeBlocks(DEVELOPERS)).toContain(help);
		},
	);

	it("adds the vault tools one way, under one name and one scope, starting from the settings tab; the clone's way is the developers'", () => {
		const adds = [README, VAULT_TOOLS, DEVELOPERS].flatMap((text) =>
			[...text.matchAll(/(?:^|&& )claude mcp add(?:-json)? --scope (\S+) (\S+) /gm)].map((match) => ({
				scope: match[1],
				name: match[2],
			})),
		);
		expect(adds.length).toBeGreaterThan(2);
		expect(new Set(adds.map((add) => `${add.scope} ${add.name}`))).toEqual(new Set(["local obsidian"]));
		const vaultTools = README.slice(
			README.indexOf("## Add Claude's vault tools"),
			README.indexOf("## See what Claude did"),
		);
		expect(vaultTools).toMatch(
			/^## Add Claude's vault tools\n\nOpen Obsidian's settings .*\*\*Connect to Claude Code\*\*/,
		);
		expect(vaultTools).toContain("claude mcp add-json --scope local obsidian");
		expect(vaultTools).toContain("[docs/vault-tools.md](docs/vault-tools.md)");
		expect(vaultTools).not.toContain("npm link");
		expect(VAULT_TOOLS).not.toContain("npm link");
		expect(DEVELOPERS).toContain("npm ci && npm run build && npm link");
		expect(DEVELOPERS).toContain('claude mcp add --scope local obsidian -- claude-code-bridge mcp --vault "$PWD"');
		expect(README).toContain('claude --allowedTools "mcp__obsidian"');
		for (const text of [README, VAULT_TOOLS, DEVELOPERS]) expect(text).not.toContain("obsidian-http");
	});

	it("keeps a short performance table in docs/benchmarks.md and leaves the method to bench/README.md", () => {
		const bench = readFileSync(join(ROOT, "bench", "README.md"), "utf8");
		const benchmarks = doc("benchmarks.md");
		expect(bench).toContain("**Separate processes.**");
		expect(benchmarks).not.toContain("**Separate processes.**");
		expect(README).not.toContain("**Separate processes.**");
		expect(benchmarks).toContain("[bench/README.md](../bench/README.md)");
		expect(benchmarks).toMatch(/^\| ping round trip, median \(ms\) \|/m);
		expect(README).toContain("[Benchmarks](docs/benchmarks.md)");
	});
});
