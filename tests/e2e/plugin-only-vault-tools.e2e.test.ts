/**
 * Issue 29's acceptance: a user with only the three release files (main.js, manifest.json, styles.css in the vault's
 * plugin folder; no dist/, no package, no `node` on PATH) presses "Connect to Claude Code" in the settings tab, which
 * runs the real CLI 2.1.330 (temp HOME); `claude mcp list` then shows the vault tools connected, and a scripted
 * session (mock model API) calls `search` and `read_note` through them. Then the plugin is updated to a new build
 * and the same holds without pressing anything again.
 */
import { execFile } from "node:child_process";
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readFileSync,
	readdirSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { compileFunction, runInThisContext } from "node:vm";
import { App, Setting, type FakeElement, type MetadataCache, type Plugin } from "../__mocks__/obsidian";
import * as obsidian from "../__mocks__/obsidian";
import { makeTempDir } from "../helpers/temp-dir";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";
import { waitUntil } from "../helpers/wait-until";
import { parseNoteForCache } from "../obsidian/harness/metadata-parser";
import { headlessCliEnv, makeClaudeHome } from "./harness/claude-home";
import { claudeBinaryPath } from "./harness/cli-binary";
import { isJsonObject, messagesOf, textsOf, type JsonObject } from "./harness/messages-request";
import { MockAnthropic } from "./harness/mock-anthropic";
import { textTurn, toolUseTurn } from "./harness/sse-reply";

jest.setTimeout(240_000);

const run = promisify(execFile);
const RELEASE_FILES = ["main.js", "manifest.json", "styles.css"];
const NOTES: Record<string, string> = {
	"Notes/Alpha.md": "# Alpha\n\nAlpha links to [[Beta]].\n\n## Tasks\n\n- one\n",
	"Notes/Beta.md": "# Beta\n\nBack to [[Alpha#Tasks]].\n",
};

type BuiltPlugin = Plugin & {
	settingsHost?: { vaultTools: { vaultToolsStatus(): { http?: { state: string; port: number } } } };
};

interface ModelToolCall {
	name: string;
	input: JsonObject;
	result: string;
	isError: boolean;
}

/** The model's tool calls and their results, from the conversation in the mock's latest request. */
function toolCalls(mock: MockAnthropic): ModelToolCall[] {
	const last = mock.mainRequests.at(-1);
	if (!last) return [];
	const uses = new Map<string, { name: string; input: JsonObject }>();
	const calls: ModelToolCall[] = [];
	for (const message of messagesOf(last.body)) {
		const content = Array.isArray(message.content) ? message.content.filter(isJsonObject) : [];
		for (const block of content) {
			if (block.type === "tool_use" && typeof block.id === "string" && typeof block.name === "string")
				uses.set(block.id, { name: block.name, input: isJsonObject(block.input) ? block.input : {} });
			if (block.type === "tool_result" && typeof block.tool_use_id === "string") {
				const use = uses.get(block.tool_use_id);
				if (use)
					calls.push({ ...use, result: textsOf(block.content).join("\n"), isError: block.is_error === true });
			}
		}
	}
	return calls;
}

/** Every file under `folder` whose bytes contain `needle`. */
function filesContaining(folder: string, needle: string): string[] {
	const found: string[] = [];
	for (const name of readdirSync(folder)) {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) found.push(...filesContaining(path, needle));
		else if (readFileSync(path, "latin1").includes(needle)) found.push(path);
	}
	return found;
}

describe("the vault tools with only the plugin installed", () => {
	const temp = makeTempDir("plugin-only");
	const vault = join(temp.path, "My vault");
	const app = new App(vault, "My vault");
	const pluginFolder = `${app.vault.configDir}/plugins/claude-code-bridge`;
	const pluginDir = join(vault, pluginFolder);
	const bin = join(temp.path, "bin");
	const home = makeClaudeHome([vault]);
	const cli = claudeBinaryPath();
	const savedEnv = { ...process.env };
	let mock: MockAnthropic | undefined;
	let plugin: BuiltPlugin | undefined;
	let env: Record<string, string> = {};

	beforeAll(async () => {
		for (const [path, text] of Object.entries(NOTES)) {
			mkdirSync(dirname(join(vault, path)), { recursive: true });
			writeFileSync(join(vault, path), text);
		}
		mkdirSync(pluginDir, { recursive: true });
		for (const file of RELEASE_FILES) copyFileSync(resolve(__dirname, "../..", file), join(pluginDir, file));
		// PATH: the user's claude, and the one program its helper runs; no node, no claude-code-bridge.
		mkdirSync(bin);
		symlinkSync(cli, join(bin, "claude"));
		symlinkSync("/bin/cat", join(bin, "cat"));
		mock = await MockAnthropic.start();
		env = { ...headlessCliEnv(home.path, mock.baseUrl), PATH: bin };
		// Nothing of the machine's own Claude Code set-up (CLAUDE_CONFIG_DIR and the like).
		for (const key of Object.keys(process.env)) if (key.startsWith("CLAUDE")) delete process.env[key];
		Object.assign(process.env, env);
	}, FIXTURE_TIMEOUT_MS);

	afterAll(async () => {
		plugin?.unload();
		await mock?.close();
		process.env = savedEnv;
		home.remove();
		temp.remove();
	});

	/** Loads main.js from the vault's plugin folder into the Obsidian stand-in, as Obsidian enables a plugin. */
	async function loadPlugin(app: App, data: unknown): Promise<BuiltPlugin> {
		// As Obsidian loads a plugin: main.js's text evaluated with a `require` that gives what the app provides
		// (the stand-in's "obsidian", CodeMirror); each load reads the file again, so an update is a new build.
		const module = { exports: {} as { default?: new (app: App, manifest: object) => BuiltPlugin } };
		const provided = (id: string): unknown => (id === "obsidian" ? obsidian : jest.requireActual(id));
		// It runs in Node's own realm, as main.js runs in Obsidian's window: the names the stand-in adds to the test's
		// globals (`activeDocument`, `activeWindow`, …) and the test's `process` (its environment: the temp HOME and
		// PATH) are lent to it; the built-ins stay the realm's own.
		const outer = runInThisContext("globalThis") as Record<string, unknown>;
		const lent = Object.fromEntries(
			Object.getOwnPropertyNames(globalThis)
				.filter((name) => !(name in outer) || name === "process")
				.map((name) => [name, (globalThis as Record<string, unknown>)[name]]),
		);
		const evaluate = compileFunction(
			readFileSync(join(pluginDir, "main.js"), "utf8"),
			["module", "exports", "require"],
			{ contextExtensions: [lent] },
		) as (module: object, exports: object, require: (id: string) => unknown) => void;
		evaluate(module, module.exports, provided);
		const Built = module.exports.default;
		if (!Built) throw new Error("main.js has no default export");
		const manifest = JSON.parse(readFileSync(join(pluginDir, "manifest.json"), "utf8")) as object;
		const loaded = new Built(app, { ...manifest, dir: pluginFolder });
		loaded.data = data;
		loaded.load();
		await waitUntil(() => loaded.settingsHost !== undefined, "the plugin to load its settings");
		app.workspace.finishLayout();
		app.workspace.flushEvents();
		await waitUntil(
			() => loaded.settingsHost?.vaultTools.vaultToolsStatus().http?.state === "listening",
			() =>
				`the vault tools to listen (${JSON.stringify(loaded.settingsHost?.vaultTools.vaultToolsStatus())}, status bar ${loaded.statusBarItems[0]?.text})`,
		);
		return loaded;
	}

	async function claude(args: string[]): Promise<{ stdout: string; stderr: string }> {
		return run(cli, args, { cwd: vault, env, timeout: 120_000 });
	}

	/** A scripted session: the model calls search, then read_note, through the configured vault tools. */
	async function searchAndRead(): Promise<ModelToolCall[]> {
		mock?.enqueue(
			toolUseTurn("mcp__obsidian__search", { query: "Alpha" }),
			toolUseTurn("mcp__obsidian__read_note", { path: "Alpha", section: "Tasks" }),
			textTurn("Done."),
		);
		await claude(["-p", "Look up Alpha in my notes", "--allowedTools", "mcp__obsidian"]);
		return mock ? toolCalls(mock) : [];
	}

	function headersFileToken(): string {
		const folder = join(home.path, ".claude-code-bridge", "mcp-tokens");
		const file = readdirSync(folder).find((name) => name.endsWith(".headers.json"));
		if (!file) throw new Error("no headers file");
		expect(statSync(join(folder, file)).mode & 0o777).toBe(0o600);
		expect(statSync(folder).mode & 0o777).toBe(0o700);
		return /Bearer ([0-9a-f]{64})/.exec(readFileSync(join(folder, file), "utf8"))?.[1] ?? "";
	}

	it("connects from the settings tab with no Node on PATH, works in a session, and keeps working after an update", async () => {
		expect(existsSync(join(bin, "node"))).toBe(false);
		expect(readdirSync(pluginDir).sort()).toEqual([...RELEASE_FILES].sort());
		app.metadataCache.attach(app.vault as unknown as Parameters<MetadataCache["attach"]>[0], parseNoteForCache);
		for (const [path, text] of Object.entries(NOTES)) app.vault.writeExternally(path, text);
		await app.metadataCache.parsePending();
		plugin = await loadPlugin(app, null);

		// The button, as the user presses it in the settings tab.
		const tab = plugin.settingTabs[0];
		if (!tab) throw new Error("no settings tab");
		Setting.created = [];
		(tab as unknown as { display(): void }).display();
		const connect = Setting.created.find((setting) => setting.name === "Connect to Claude Code");
		const button = connect?.buttons.find((candidate) => candidate.text === "Connect to Claude Code");
		if (!connect || !button) throw new Error("no Connect to Claude Code button");
		await button.click();
		const state = (): string =>
			connect.descEl
				.findAll("ccb-vault-tools-state")
				.map((element: FakeElement) => element.text)
				.join(" ");
		expect(state()).toMatch(/^Connected: /);
		// A second press is harmless.
		await button.click();
		expect(state()).toMatch(/^Connected: /);

		const list = await claude(["mcp", "list"]);
		expect(list.stdout).toMatch(/obsidian: http:\/\/127\.0\.0\.1:\d+\/mcp \(HTTP\) - ✔ Connected/);
		const firstToken = headersFileToken();
		// No token in Claude Code's configuration or anywhere in the vault (data.json included).
		expect(readFileSync(join(home.path, ".claude.json"), "utf8")).not.toContain(firstToken);
		expect(filesContaining(vault, firstToken)).toEqual([]);

		const calls = await searchAndRead();
		expect(calls.map((call) => [call.name, call.isError])).toEqual([
			["mcp__obsidian__search", false],
			["mcp__obsidian__read_note", false],
		]);
		expect(calls[0]?.result).toContain("Notes/Alpha.md");
		expect(calls[1]?.result).toContain("- one");

		// An update: Obsidian disables the plugin, the new build replaces main.js and manifest.json, the plugin loads.
		const data = plugin.data;
		plugin.unload();
		plugin = undefined;
		await waitUntil(() => {
			try {
				headersFileToken();
				return false;
			} catch {
				return true;
			}
		}, "the old build to withdraw its headers file");
		writeFileSync(
			join(pluginDir, "main.js"),
			`${readFileSync(join(pluginDir, "main.js"), "utf8")}\n// a new build\n`,
		);
		const manifest = JSON.parse(readFileSync(join(pluginDir, "manifest.json"), "utf8")) as { version: string };
		writeFileSync(
			join(pluginDir, "manifest.json"),
			JSON.stringify({ ...manifest, version: `${manifest.version}-next` }),
		);
		plugin = await loadPlugin(app, data);

		const relisted = await claude(["mcp", "list"]);
		expect(relisted.stdout).toMatch(/obsidian: http:\/\/127\.0\.0\.1:\d+\/mcp \(HTTP\) - ✔ Connected/);
		expect(headersFileToken()).not.toBe(firstToken);
		const again = await searchAndRead();
		expect(again.map((call) => [call.name, call.isError])).toEqual([
			["mcp__obsidian__search", false],
			["mcp__obsidian__read_note", false],
		]);
		expect(again[1]?.result).toContain("- one");
	});
});
