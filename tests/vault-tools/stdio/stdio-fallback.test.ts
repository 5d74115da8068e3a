import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { deviceJournalSeal } from "../../../src/assembly/journal-wiring";
import { FolderJournalStore } from "../../../src/journal/folder-journal-store";
import { Journal } from "../../../src/journal/journal";
import { pluginJournalFolder } from "../../../src/obsidian/activity/plugin-journal";
import { VAULT_TOOL_NAMES } from "../../../src/vault-tools/create-vault-tools";
import { makeTempDir } from "../../helpers/temp-dir";
import { CLI_ENTRY, startStdioServer, type StdioServer } from "./stdio-server-process";
import { FIXTURE_TIMEOUT_MS } from "../../helpers/fixture-timeout";
import { pollUntil } from "../../helpers/wait-until";

const NOTES: Record<string, string> = {
	"Notes/Alpha.md":
		"---\ntags: [project]\nstatus: open\n---\n# Alpha\n\nAlpha links to [[Beta]].\n\n## Tasks\n\n- one ^task-1\n",
	"Notes/Beta.md": "# Beta\n\nBack to [[Alpha#Tasks]] and [alpha](Alpha.md).\n",
	"Private/Secret.md": "# Secret\n\nAlpha secret plans, links [[Alpha]].\n",
	"Notes/Tagged.md": "# Tagged\n\nAlpha diary entry. #diary/2026\n",
	".hidden/Hidden.md": "# Hidden\n\nAlpha hidden words.\n",
	// A private Plan that Obsidian would pick from the root (shorter path), and the public one it must not shadow.
	"Notes/Plan.md": "# Private plan %% #diary/plans %%\n",
	"Projects/Plan.md": "# Public plan\n",
	"Hub.md": "The plan: [[Plan]].\n",
	"My prompts/Summarise.md": "---\ndescription: Summarise a note\n---\nSummarise {{note}} in three lines.\n",
	"My prompts/Diary prompt.md": "Write today's entry. #diary/2026\n",
	// The plugin's settings, in a renamed config folder: the fallback finds them there.
	".config-obsidian/plugins/claude-code-bridge/data.json": JSON.stringify({
		enabled: true,
		privateFolders: ["Private"],
		privateTags: ["#diary"],
		vaultTools: { promptsFolder: "My prompts" },
	}),
};

describe("claude-code-bridge mcp --vault: the stdio server with no bridge running (folder fallback)", () => {
	const temp = makeTempDir("stdio-fallback");
	const vault = join(temp.path, "My vault");
	const home = join(temp.path, "home");
	let server: StdioServer;

	beforeAll(async () => {
		mkdirSync(home);
		const files = { ...NOTES };
		for (let index = 0; index < 45; index++)
			files[`Many/Note ${String(index).padStart(2, "0")}.md`] =
				`# Many ${index}\n\nThe word zebra appears here.\n`;
		for (const [path, text] of Object.entries(files)) {
			mkdirSync(dirname(join(vault, path)), { recursive: true });
			writeFileSync(join(vault, path), text);
		}
		// A folder link into the private folder, and a file link to the tag-private note.
		symlinkSync(join(vault, "Private"), join(vault, "pub"));
		symlinkSync(join(vault, "Notes", "Tagged.md"), join(vault, "Notes", "Alias.md"));
		server = await startStdioServer(vault, home);
	}, FIXTURE_TIMEOUT_MS);

	afterAll(async () => {
		await server?.close();
		temp.remove();
	});

	it("lists the same twelve tools as the bridge serves, with read-only hints", async () => {
		const { tools } = await server.client.listTools();
		expect(tools.map((tool) => tool.name)).toEqual([...VAULT_TOOL_NAMES]);
		expect(tools.filter((tool) => tool.annotations?.readOnlyHint === true).map((tool) => tool.name)).toEqual([
			"search",
			"read_note",
			"outline",
			"links",
			"tags",
			"properties",
			"list_notes",
			"active_note",
		]);
		expect(server.client.getServerVersion()).toMatchObject({ name: "obsidian-vault-tools" });
	});

	it("answers every read tool from the folder", async () => {
		const reads: [string, Record<string, unknown>, RegExp][] = [
			["search", { query: "alpha" }, /^Notes\/Alpha\.md:5: # Alpha/m],
			[
				"read_note",
				{ path: "Alpha", section: "Tasks" },
				/Notes\/Alpha\.md \| heading "Alpha > Tasks", lines 9-11 of 12 \| version \S+\n## Tasks\n\n- one \^task-1\n$/,
			],
			["outline", { path: "Notes/Alpha.md" }, /9: ## Alpha > Tasks/],
			["links", { path: "Alpha", direction: "in" }, /in Notes\/Beta\.md:3: Back to \[\[Alpha#Tasks\]\]/],
			["tags", {}, /#project 1/],
			["properties", { key: "status" }, /Notes\/Alpha\.md:3: open/],
			["list_notes", { folder: "Notes" }, /^Notes\/Alpha\.md\nNotes\/Beta\.md\n\(total 2 notes/],
			["active_note", {}, /^No editor is connected to this vault/],
		];
		for (const [name, args, expected] of reads) {
			const answer = await server.call(name, args);
			expect({ name, isError: answer.isError, structuredContent: answer.structuredContent }).toEqual({
				name,
				isError: false,
				structuredContent: undefined,
			});
			expect(answer.text).toMatch(expected);
		}
	});

	it("refuses every write with the reason, and changes nothing on disk", async () => {
		const before = readFileSync(join(vault, "Notes/Alpha.md"), "utf8");
		const writes: [string, Record<string, unknown>][] = [
			["create_note", { path: "Notes/Gamma.md", content: "# Gamma\n" }],
			["edit_note", { path: "Alpha", edits: [{ target: "Tasks", op: "append", content: "- two" }] }],
			["set_properties", { path: "Alpha", set: { status: "done" } }],
			["move_note", { path: "Notes/Beta.md", to: "Archive/Beta.md" }],
		];
		for (const [name, args] of writes) {
			const answer = await server.call(name, args);
			expect({ name, isError: answer.isError }).toEqual({ name, isError: true });
			expect(answer.text).toMatch(
				new RegExp(
					`^${name}: Obsidian is not running for the vault "My vault" \\(${vault.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\), so this change cannot be made`,
				),
			);
		}
		expect(readFileSync(join(vault, "Notes/Alpha.md"), "utf8")).toBe(before);
		expect(() => readFileSync(join(vault, "Notes/Gamma.md"))).toThrow();
		expect(readFileSync(join(vault, "Notes/Beta.md"), "utf8")).toBe(NOTES["Notes/Beta.md"]);
	});

	it("pages a search to the end: every match once, then no cursor", async () => {
		const seen: string[] = [];
		let cursor: string | undefined;
		for (let pageNumber = 0; pageNumber < 10; pageNumber++) {
			const answer = await server.call("search", { query: "zebra", ...(cursor ? { cursor } : {}) });
			seen.push(...answer.text.split("\n").filter((line) => line.startsWith("Many/")));
			cursor = /cursor "([^"]+)"/.exec(answer.text)?.[1];
			if (!cursor) {
				expect(answer.text).toMatch(/total 45 matches; showing 41-45/);
				break;
			}
		}
		expect(cursor).toBeUndefined();
		expect(new Set(seen).size).toBe(45);
		expect(seen).toHaveLength(45);
	});

	it("answers bad input as a tool error and keeps serving", async () => {
		const bad: [string, Record<string, unknown>, RegExp][] = [
			["search", {}, /"query" is required/],
			["read_note", { path: "../outside.md" }, /refused: Path is outside the vault/],
			["links", { path: "Alpha", direction: "sideways" }, /"direction" must be in, out or both/],
			["outline", { path: "Alpha", extra: 1 }, /unknown argument "extra"/],
		];
		for (const [name, args, expected] of bad) {
			const answer = await server.call(name, args);
			expect({ name, isError: answer.isError }).toEqual({ name, isError: true });
			expect(answer.text).toMatch(expected);
		}
		await expect(server.client.callTool({ name: "delete_note", arguments: {} })).rejects.toThrow(
			/Unknown tool: delete_note/,
		);
		expect((await server.call("search", { query: "zebra", limit: 1 })).isError).toBe(false);
	});

	it("keeps notes private by the plugin's settings (folders, tags) and hidden folders out of every answer", async () => {
		const search = await server.call("search", { query: "alpha", limit: 100 });
		expect(search.text).not.toMatch(/Private\/|Tagged|\.hidden/);
		const missing = await server.call("read_note", { path: "Nowhere/Gone.md" });
		for (const path of ["Private/Secret.md", "Notes/Tagged.md", "pub/Secret.md", "pub/Secret", "Notes/Alias.md"]) {
			const answer = await server.call("read_note", { path });
			expect(answer.text.replace(path, "X")).toBe(missing.text.replace("Nowhere/Gone.md", "X"));
		}
		expect((await server.call("read_note", { path: ".hidden/Hidden.md" })).isError).toBe(true);
		const backlinks = await server.call("links", { path: "Alpha", direction: "in" });
		expect(backlinks.text).not.toContain("Private");
		expect((await server.call("tags", {})).text).not.toContain("diary");
		expect((await server.call("list_notes", { limit: 100 })).text).not.toMatch(/Private|Tagged|Hidden/);
	});

	it("resolves links as if private notes were not there: a private note never shadows a public one", async () => {
		expect((await server.call("read_note", { path: "Plan" })).text).toMatch(
			/^Projects\/Plan\.md \|.*\n# Public plan\n$/,
		);
		expect((await server.call("links", { path: "Hub.md" })).text).toMatch(/\[\[Plan\]\] → Projects\/Plan\.md/);
		expect((await server.call("links", { path: "Projects/Plan.md", direction: "in" })).text).toMatch(
			/^in Hub\.md:1: /m,
		);
	});

	it("follows changes to the plugin's privacy settings without a restart", async () => {
		const settings = join(vault, ".config-obsidian/plugins/claude-code-bridge/data.json");
		writeFileSync(settings, JSON.stringify({ privateFolders: ["Private", "Many"], privateTags: ["#diary"] }));
		try {
			expect((await server.call("search", { query: "zebra" })).text).toMatch(/^No matches/);
		} finally {
			writeFileSync(settings, NOTES[".config-obsidian/plugins/claude-code-bridge/data.json"] ?? "");
		}
		expect((await server.call("search", { query: "zebra" })).text).toMatch(/total 45 matches/);
	});

	it("offers the vault overview resource and the prompts folder set in the plugin, without private notes", async () => {
		const { resources } = await server.client.listResources();
		expect(resources.map((resource) => resource.uri)).toEqual(["vault://overview"]);
		const overview = await server.client.readResource({ uri: "vault://overview" });
		expect(JSON.stringify(overview)).not.toMatch(/Private|Tagged|Hidden/);
		const { prompts } = await server.client.listPrompts();
		expect(prompts.map((prompt) => [prompt.name, prompt.description])).toEqual([["Summarise", "Summarise a note"]]);
		const prompt = await server.client.getPrompt({ name: "Summarise", arguments: { note: "[[Alpha]]" } });
		expect(prompt.messages).toEqual([
			{ role: "user", content: { type: "text", text: "Summarise [[Alpha]] in three lines.\n" } },
		]);
	});

	it("treats Obsidian's excluded files as private when the plugin says so, as the plugin does", async () => {
		const settings = join(vault, ".config-obsidian/plugins/claude-code-bridge/data.json");
		const original = NOTES[".config-obsidian/plugins/claude-code-bridge/data.json"] ?? "";
		writeFileSync(
			join(vault, ".config-obsidian/app.json"),
			JSON.stringify({ userIgnoreFilters: ["Many/", "/zeb.a/"] }),
		);
		try {
			expect((await server.call("search", { query: "zebra" })).text).toMatch(/total 45 matches/);
			writeFileSync(
				settings,
				JSON.stringify({ ...(JSON.parse(original) as object), excludedFilesArePrivate: true }),
			);
			expect((await server.call("search", { query: "zebra" })).text).toMatch(/^No matches/);
			expect((await server.call("read_note", { path: "Many/Note 01.md" })).text).toMatch(
				/^read_note: No note "Many\/Note 01\.md" in the vault/,
			);
		} finally {
			writeFileSync(settings, original);
		}
		expect((await server.call("search", { query: "zebra" })).text).toMatch(/total 45 matches/);
	});

	it("answers nothing from the folder while the vault tools are turned off in the plugin", async () => {
		const settings = join(vault, ".config-obsidian/plugins/claude-code-bridge/data.json");
		const original = NOTES[".config-obsidian/plugins/claude-code-bridge/data.json"] ?? "";
		const parsed = JSON.parse(original) as { vaultTools: object };
		writeFileSync(settings, JSON.stringify({ ...parsed, vaultTools: { ...parsed.vaultTools, enabled: false } }));
		try {
			const answer = await server.call("search", { query: "zebra" });
			expect(answer).toEqual({
				isError: true,
				text: 'search: the vault tools are turned off in Claude Code Bridge\'s settings for the vault "My vault" (Obsidian → Settings → Claude Code Bridge); nothing was read or changed.',
				structuredContent: undefined,
			});
			await expect(server.client.listPrompts()).rejects.toThrow(/turned off/);
		} finally {
			writeFileSync(settings, original);
		}
		expect((await server.call("search", { query: "zebra" })).isError).toBe(false);
	});

	it("writes only protocol frames on stdout, logs on stderr", async () => {
		const child = spawn(process.execPath, [CLI_ENTRY, "mcp", "--vault", vault], {
			env: { PATH: process.env.PATH ?? "", HOME: home },
			stdio: ["pipe", "pipe", "pipe"],
		});
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
		child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
		const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
		const requests = [
			{
				jsonrpc: "2.0",
				id: 1,
				method: "initialize",
				params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
			},
			{ jsonrpc: "2.0", method: "notifications/initialized" },
			{ jsonrpc: "2.0", id: 2, method: "server/discover", params: {} },
			{ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "search", arguments: { query: "zebra" } } },
			{
				jsonrpc: "2.0",
				id: 4,
				method: "tools/call",
				params: { name: "create_note", arguments: { path: "New.md", content: "x" } },
			},
		];
		// Written in two pieces split inside a message, then stdin closes: every request is still answered.
		const text = requests.map((request) => JSON.stringify(request)).join("\n") + "\nnot json\n";
		child.stdin.write(text.slice(0, 100));
		child.stdin.end(text.slice(100));
		expect(await exited).toBe(0);
		const frames = stdout
			.split("\n")
			.filter((line) => line !== "")
			.map((line) => JSON.parse(line) as { id: number | null; result?: unknown; error?: { code: number } });
		expect(stdout.endsWith("\n")).toBe(true);
		expect(frames.map((frame) => frame.id).sort()).toEqual([1, 2, 3, 4, null].sort());
		expect(frames.find((frame) => frame.id === 2)?.error?.code).toBe(-32601);
		expect(frames.find((frame) => frame.id === null)?.error?.code).toBe(-32700);
		expect(JSON.stringify(frames.find((frame) => frame.id === 3)?.result)).toContain("total 45 matches");
		expect(stderr).toContain("Serving the vault tools for");
	});

	it("records its calls in the plugin's own journal when the plugin is installed, and writes them before it stops on SIGTERM", async () => {
		const installed = join(temp.path, "Installed vault");
		const pluginFolder = join(installed, ".config-app", "plugins", "claude-code-bridge");
		mkdirSync(pluginFolder, { recursive: true });
		writeFileSync(join(pluginFolder, "manifest.json"), JSON.stringify({ id: "claude-code-bridge" }));
		writeFileSync(join(installed, "Note.md"), "# Note\n\nSome words.\n");
		const child = spawn(process.execPath, [CLI_ENTRY, "mcp", "--vault", installed], {
			env: { PATH: process.env.PATH ?? "", HOME: home },
			stdio: ["pipe", "pipe", "pipe"],
		});
		let stdout = "";
		child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
		const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
		child.stdin.write(
			`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "claude-code", version: "2" } } })}\n`,
		);
		child.stdin.write(
			`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "read_note", arguments: { path: "Note.md" } } })}\n`,
		);
		await pollUntil(() => (stdout.includes('"id":2') ? true : undefined), "the read_note answer", {
			timeoutMs: 20_000,
		});
		// Claude Code may stop its MCP servers with a signal: the record waiting for its batch is written first.
		child.kill("SIGTERM");
		expect(await exited).toBe(0);
		// Obsidian on this device (the same home, so the same device key) reads them as this device's records.
		const seal = deviceJournalSeal(installed, {}, home, (message) => {
			throw new Error(message);
		});
		const pluginView = new Journal({
			store: new FolderJournalStore(
				pluginJournalFolder(installed, ".config-app", {
					id: "claude-code-bridge",
					dir: ".config-app/plugins/claude-code-bridge",
				}),
			),
			...(seal ? { seal } : {}),
		});
		expect(await pluginView.entries()).toEqual([
			expect.objectContaining({
				tool: "read_note",
				notes: ["Note.md"],
				outcome: "ok",
				session: expect.objectContaining({ surface: "vault-tools-stdio", client: "claude-code" }) as unknown,
			}),
		]);
		expect((await pluginView.entries())[0]?.unreadable).toBeUndefined();
	});

	it("refuses to start without a vault folder: a clear message and a non-zero exit", () => {
		for (const [args, message] of [
			[["mcp", "--vault", join(temp.path, "missing")], /vault folder not found: .*missing/],
			[["mcp"], /--vault DIR is required/],
			[["mcp", "--vault", join(vault, "Notes/Alpha.md")], /not a folder: .*Alpha\.md/],
		] as const) {
			const run = spawnSync(process.execPath, [CLI_ENTRY, ...args], {
				env: { PATH: process.env.PATH ?? "", HOME: home },
				encoding: "utf8",
			});
			expect({ args, status: run.status, stdout: run.stdout }).toEqual({ args, status: 2, stdout: "" });
			expect(run.stderr).toMatch(message);
		}
	});
});
