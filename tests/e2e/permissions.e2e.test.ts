import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { denyRulesFor } from "../../src/ide/claude-permissions/deny-rules";
import {
	SETTINGS_FILES,
	applyPermissionPlan,
	planPermissions,
} from "../../src/ide/claude-permissions/permissions-file";
import { hostDenyRules } from "../../src/headless/claude-permissions-command";
import { makeTempDir } from "../helpers/temp-dir";
import { makeClaudeHome } from "./harness/claude-home";
import { ClaudePty } from "./harness/claude-pty";
import { useBridgeSessions } from "./harness/bridge-session";
import type { MockAnthropic } from "./harness/mock-anthropic";
import { lastUserText, requestText } from "./harness/messages-request";
import { textTurn, toolUseTurn } from "./harness/sse-reply";

const SECRET_TEXT = "The combination is 4-8-15-16-23-42.";
const PUBLIC_TEXT = "Shopping: apples, flour.";
const DENIED = "File is in a directory that is denied by your permission settings.";

/** The vault's config folder, renamed as users may; found by its content as the headless host finds it. */
const CONFIG_DIR = ".vault-config";

const sessions = useBridgeSessions();

/** A vault with a private and a public note; the rules come from our own code, as the plugin writes them. */
async function vaultWithRules(writeRules: boolean, privateFolder = "Secret"): Promise<string> {
	const temp = makeTempDir("permissions");
	sessions.onCleanup(() => temp.remove());
	const vault = path.join(temp.path, "My vault");
	mkdirSync(path.join(vault, privateFolder), { recursive: true });
	writeFileSync(path.join(vault, privateFolder, "x.md"), `# Private\n\n${SECRET_TEXT}\n`);
	writeFileSync(path.join(vault, "public.md"), `# Public\n\n${PUBLIC_TEXT}\n`);
	if (writeRules) {
		const { rules } = denyRulesFor({ folders: [privateFolder], configDirs: [CONFIG_DIR], tags: [] });
		await applyPermissionPlan(await planPermissions(vault, rules, SETTINGS_FILES.shared));
	}
	return vault;
}

/** The CLI in the vault, asked to read `file`; resolves with the request that carries the Read's result. */
function modelReads(vault: string, file: string): Promise<{ mock: MockAnthropic; toolResult: string; screen: string }> {
	return modelUses(vault, "Read", { file_path: path.join(vault, file) });
}

async function modelUses(
	vault: string,
	tool: string,
	input: Record<string, unknown>,
	cliArgs: string[] = [],
): Promise<{ mock: MockAnthropic; toolResult: string; screen: string }> {
	const home = makeClaudeHome([vault]);
	sessions.onCleanup(() => home.remove());
	const mock = await sessions.startMock();
	mock.enqueue(toolUseTurn(tool, input), textTurn("Done reading."));
	const cli = ClaudePty.start({
		cwd: vault,
		home: home.path,
		apiBaseUrl: mock.baseUrl,
		args: ["--permission-mode", "default", ...cliArgs],
	});
	sessions.onCleanup(() => cli.kill());
	await cli.waitForPrompt();
	await cli.prompt("Read the note");
	const afterRead = await mock.waitForMainRequest({ since: 1 });
	await cli.waitFor("Done reading.");
	return { mock, toolResult: lastUserText(afterRead.body), screen: cli.text() };
}

describe("Claude Code's own Read tool and the deny rules the bridge writes (real CLI)", () => {
	it("writes the rules into the vault's .claude/settings.json", async () => {
		const vault = await vaultWithRules(true);
		const settings = JSON.parse(readFileSync(path.join(vault, ".claude", "settings.json"), "utf8")) as {
			permissions: { deny: string[] };
		};
		expect(settings.permissions.deny).toContain("Read(./Secret/**)");
	});

	it("the CLI refuses the model's Read of a note in a private folder, and its text reaches no request", async () => {
		const vault = await vaultWithRules(true);
		const { mock, toolResult, screen } = await modelReads(vault, "Secret/x.md");
		expect(toolResult).toContain(DENIED);
		for (const request of mock.requests) expect(JSON.stringify(request.body)).not.toContain(SECRET_TEXT);
		// The CLI warns at start-up about a rule it will never match ("⚠ Deny rule … never matches"): none of ours.
		expect(screen).not.toMatch(/never\s*matches/);
	});

	it("a folder whose name has parentheses and brackets is matched as written", async () => {
		const vault = await vaultWithRules(true, "Work (2024) [old]");
		const { mock, toolResult } = await modelReads(vault, "Work (2024) [old]/x.md");
		expect(toolResult).toContain(DENIED);
		for (const request of mock.requests) expect(JSON.stringify(request.body)).not.toContain(SECRET_TEXT);
	});

	it("a private folder stored in NFD under a rule typed in NFC is denied too (the CLI compares spellings as written)", async () => {
		const temp = makeTempDir("permissions-nfd");
		sessions.onCleanup(() => temp.remove());
		const vault = path.join(temp.path, "My vault");
		const onDisk = "Caf\u0065\u0301";
		mkdirSync(path.join(vault, onDisk), { recursive: true });
		writeFileSync(path.join(vault, onDisk, "x.md"), `# Private\n\n${SECRET_TEXT}\n`);
		const { rules } = await hostDenyRules(vault, { folders: ["Caf\u00e9"], tags: [] });
		await applyPermissionPlan(await planPermissions(vault, rules, SETTINGS_FILES.shared));
		const { mock, toolResult } = await modelReads(vault, `${onDisk}/x.md`);
		expect(toolResult).toContain(DENIED);
		for (const request of mock.requests) expect(JSON.stringify(request.body)).not.toContain(SECRET_TEXT);
	});

	it("the start-up warning the check above relies on does appear for a rule the CLI never matches", async () => {
		const vault = await vaultWithRules(false);
		mkdirSync(path.join(vault, ".claude"));
		writeFileSync(
			path.join(vault, ".claude", "settings.json"),
			JSON.stringify({ permissions: { deny: ["Write(./Secret/**)"] } }),
		);
		const { screen } = await modelReads(vault, "public.md");
		expect(screen).toMatch(/Deny\s*rule\s*Write\(\.\/Secret\/\*\*\)\s*never\s*matches/);
	});

	it("a note outside the private folders stays readable", async () => {
		const vault = await vaultWithRules(true);
		const { toolResult } = await modelReads(vault, "public.md");
		expect(toolResult).toContain(PUBLIC_TEXT);
		expect(toolResult).not.toContain(DENIED);
	});

	it("the vault's config folder, where plugins keep API keys, is refused too", async () => {
		const vault = await vaultWithRules(true);
		mkdirSync(path.join(vault, CONFIG_DIR, "plugins", "p"), { recursive: true });
		writeFileSync(path.join(vault, CONFIG_DIR, "plugins", "p", "data.json"), '{"apiKey":"sk-live-XYZ"}');
		const { mock, toolResult } = await modelReads(vault, `${CONFIG_DIR}/plugins/p/data.json`);
		expect(toolResult).toContain(DENIED);
		for (const request of mock.requests) expect(JSON.stringify(request.body)).not.toContain("sk-live-XYZ");
	});

	// The user allows `cat` without asking, so only the deny rule can stop it (deny wins over allow).
	const ALLOW_CAT = ["--allowedTools", "Bash(cat *)"];

	it("a shell command that names a note in a private folder is refused too, even when the user allows it", async () => {
		const vault = await vaultWithRules(true);
		const { mock, toolResult } = await modelUses(
			vault,
			"Bash",
			{ command: "cat Secret/x.md", description: "Show the note" },
			ALLOW_CAT,
		);
		expect(toolResult).toContain("Permission to use Bash with command cat Secret/x.md has been denied.");
		for (const request of mock.requests) expect(JSON.stringify(request.body)).not.toContain(SECRET_TEXT);
	});

	it("without the rules the same allowed cat prints the private text (the check above can fail)", async () => {
		const vault = await vaultWithRules(false);
		const { toolResult } = await modelUses(
			vault,
			"Bash",
			{ command: "cat Secret/x.md", description: "Show the note" },
			ALLOW_CAT,
		);
		expect(toolResult).toContain(SECRET_TEXT);
	});

	it("without the rules the same Read returns the private text (the gap the rules close)", async () => {
		const vault = await vaultWithRules(false);
		const { mock } = await modelReads(vault, "Secret/x.md");
		expect(mock.requests.some((request) => requestText(request.body).includes(SECRET_TEXT))).toBe(true);
	});
});
