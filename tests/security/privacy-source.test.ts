import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { HeadlessProcess } from "../helpers/headless-process";
import { makeTempDir } from "../helpers/temp-dir";
import { connectOrThrow, type TestClient } from "../helpers/test-client";
import { startStdioServer, type StdioServer } from "../vault-tools/stdio/stdio-server-process";

/**
 * Issue 15, findings 1 and 2, against the built dist/ processes: every process that serves a vault without
 * Obsidian (the headless host, the stdio server's folder fallback, the bridge the stdio server relays to) applies
 * the plugin's privacy settings for that vault, Obsidian's excluded files, and its own flags; a second copy of the
 * settings adds its rules; settings that cannot be read hide everything and say why.
 */

const DATA_JSON = "plugins/claude-code-bridge/data.json";
/** Each test starts one or two processes: sized for a loaded machine. */
const PROCESS_TEST_TIMEOUT_MS = 60_000;
const WORD = "QUOKKA";

/** One note per way a note becomes private, each holding WORD, and one public note. */
const NOTES: Record<string, string> = {
	"Public/Open.md": `# Open\n\n${WORD} in public.\n`,
	"Secret/Plan.md": `# Plan\n\n${WORD} in a private folder.\n`,
	"Notes/Tagged.md": `# Tagged\n\n${WORD} with a private tag. #private\n`,
	"Excluded/Draft.md": `# Draft\n\n${WORD} in an excluded folder.\n`,
	"Drafts/Idea.md": `# Idea\n\n${WORD} in a folder only a second settings copy makes private.\n`,
	"Extra/Note.md": `# Note\n\n${WORD} in a folder only a command-line flag makes private.\n`,
};

const PLUGIN_SETTINGS = { privateFolders: ["Secret"], privateTags: ["#private"], excludedFilesArePrivate: true };
const APP_JSON = { userIgnoreFilters: ["Excluded/", "/regex/"] };

function writeVault(vault: string, files: Record<string, string>): void {
	for (const [path, text] of Object.entries(files)) {
		mkdirSync(dirname(join(vault, path)), { recursive: true });
		writeFileSync(join(vault, path), text);
	}
}

/** The vault tools' answer through the host's IDE channel (what the stdio relay calls). */
async function vaultTool(
	client: TestClient,
	name: string,
	args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean }> {
	const answer = await client.request("vaultTools/call", { name, arguments: args });
	if (answer.error) throw new Error(`vaultTools/call ${name}: ${answer.error.message}`);
	const result = answer.result as { content: { text: string }[]; isError?: boolean };
	return { text: result.content.map((block) => block.text).join("\n"), isError: result.isError === true };
}

/** A tool's answer for `path` with the path itself replaced, to compare with the answer for a missing note. */
const withoutPath = (text: string, path: string): string => text.split(path).join("<path>");

describe("one privacy source for every process that serves a vault without Obsidian", () => {
	const temp = makeTempDir("privacy-source");
	const home = join(temp.path, "home");
	const hosts: HeadlessProcess[] = [];
	const servers: StdioServer[] = [];
	let vaultCount = 0;

	beforeAll(() => mkdirSync(home));
	afterEach(async () => {
		for (const server of servers.splice(0)) await server.close();
		for (const host of hosts.splice(0)) host.kill();
	});
	afterAll(() => temp.remove());

	function newVault(config: Record<string, string>): string {
		const vault = join(temp.path, `vault-${++vaultCount}`);
		writeVault(vault, { ...NOTES, ...config });
		return vault;
	}

	async function startHost(
		vault: string,
		args: string[] = [],
	): Promise<HeadlessProcess & { port: number; lockFile: string }> {
		const host = await HeadlessProcess.start({ vault, home, args });
		hosts.push(host);
		return host;
	}

	async function hostClient(host: { port: number; lockFile: string }): Promise<TestClient> {
		const { authToken } = JSON.parse(readFileSync(host.lockFile, "utf8")) as { authToken: string };
		const client = await connectOrThrow(host.port, { token: authToken });
		await client.initialize();
		return client;
	}

	async function startServer(vault: string, args: string[] = []): Promise<StdioServer> {
		const server = await startStdioServer(vault, home, args);
		servers.push(server);
		return server;
	}

	it(
		"the headless host started without flags hides the plugin's private folder and tag and Obsidian's excluded files",
		async () => {
			const vault = newVault({
				[`.vault-config/${DATA_JSON}`]: JSON.stringify(PLUGIN_SETTINGS),
				".vault-config/app.json": JSON.stringify(APP_JSON),
			});
			const host = await startHost(vault);
			const client = await hostClient(host);
			try {
				const search = await vaultTool(client, "search", { query: WORD, limit: 100 });
				expect(
					search.text
						.split("\n")
						.filter((line) => line.includes(WORD))
						.map((line) => line.split(":")[0])
						.sort(),
				).toEqual(["Public/Open.md", "Drafts/Idea.md", "Extra/Note.md"].sort());
				const missing = await vaultTool(client, "read_note", { path: "Public/Gone.md" });
				for (const path of ["Secret/Plan.md", "Notes/Tagged.md", "Excluded/Draft.md"]) {
					const answer = await vaultTool(client, "read_note", { path });
					expect({ path, answer: withoutPath(answer.text, path) }).toEqual({
						path,
						answer: withoutPath(missing.text, "Public/Gone.md"),
					});
				}
			} finally {
				await client.close();
			}
		},
		PROCESS_TEST_TIMEOUT_MS,
	);

	it(
		"the headless host with flags that match the plugin's rules still hides Obsidian's excluded files",
		async () => {
			const vault = newVault({
				[`.vault-config/${DATA_JSON}`]: JSON.stringify(PLUGIN_SETTINGS),
				".vault-config/app.json": JSON.stringify(APP_JSON),
			});
			const host = await startHost(vault, ["--private-folder", "Secret", "--private-tag", "private"]);
			const client = await hostClient(host);
			try {
				expect((await vaultTool(client, "read_note", { path: "Excluded/Draft.md" })).text).toMatch(
					/No note "Excluded\/Draft\.md" in the vault/,
				);
				expect((await vaultTool(client, "read_note", { path: "Public/Open.md" })).isError).toBe(false);
			} finally {
				await client.close();
			}
		},
		PROCESS_TEST_TIMEOUT_MS,
	);

	it(
		"a second config folder's copy of the settings adds its rules (the union), in the stdio fallback and the headless host",
		async () => {
			// Which copy is current cannot be known without Obsidian: neither may weaken the other, in either listing order.
			const vault = newVault({
				[`.vault-config/${DATA_JSON}`]: JSON.stringify({
					privateFolders: ["Secret"],
					privateTags: ["private"],
				}),
				[`.stale-config/${DATA_JSON}`]: JSON.stringify({ privateFolders: ["Drafts"] }),
			});
			const server = await startServer(vault);
			const search = await server.call("search", { query: WORD, limit: 100 });
			expect(search.text).toMatch(/^Public\/Open\.md:3:/m);
			expect(search.text).not.toMatch(/Secret|Tagged|Drafts/);

			const host = await startHost(vault);
			const client = await hostClient(host);
			try {
				const hostSearch = await vaultTool(client, "search", { query: WORD, limit: 100 });
				expect(hostSearch.text).toMatch(/^Public\/Open\.md:3:/m);
				expect(hostSearch.text).not.toMatch(/Secret|Tagged|Drafts/);
			} finally {
				await client.close();
			}
		},
		PROCESS_TEST_TIMEOUT_MS,
	);

	it(
		"a malformed data.json at start: the stdio fallback serves no note, and says why in one line",
		async () => {
			const vault = newVault({ [`.vault-config/${DATA_JSON}`]: '{"privateFolders": ["Sec' });
			const server = await startServer(vault);
			for (const [name, args] of [
				["read_note", { path: "Secret/Plan.md" }],
				["read_note", { path: "Public/Open.md" }],
				["search", { query: WORD }],
			] as const) {
				const answer = await server.call(name, args);
				expect({ name, isError: answer.isError }).toEqual({ name, isError: true });
				expect(answer.text).toMatch(
					new RegExp(
						`^${name}: the privacy settings of Claude Code Bridge for this vault cannot be read \\(\\.vault-config/${DATA_JSON.replace(/\./g, "\\.")}: .+\\), so no note is served until they can be`,
					),
				);
				expect(answer.text).not.toContain(WORD);
			}
			expect(
				server
					.stderr()
					.split("\n")
					.filter((line) => line.includes("cannot be read")),
			).toHaveLength(1);
		},
		PROCESS_TEST_TIMEOUT_MS,
	);

	it(
		"a malformed data.json at start: the headless host serves no note, and says why in one line",
		async () => {
			const vault = newVault({ [`.vault-config/${DATA_JSON}`]: '{"privateFolders": ["Sec' });
			const host = await startHost(vault);
			const line = await host.waitForOutput(/^(.*cannot be read.*)$/m, 10_000, "stderr");
			expect(line).toMatch(
				/privacy settings of Claude Code Bridge for this vault cannot be read \(\.vault-config\/plugins\/claude-code-bridge\/data\.json: .+\)/,
			);
			const client = await hostClient(host);
			try {
				for (const path of ["Secret/Plan.md", "Public/Open.md"]) {
					const answer = await vaultTool(client, "read_note", { path });
					expect({ path, isError: answer.isError }).toEqual({ path, isError: true });
					expect(answer.text).toMatch(/cannot be read/);
					expect(answer.text).not.toContain(WORD);
				}
			} finally {
				await client.close();
			}
			expect(host.stderr.split("\n").filter((text) => text.includes("cannot be read"))).toHaveLength(1);
		},
		PROCESS_TEST_TIMEOUT_MS,
	);

	it(
		"the relay refuses a bridge that would show what the stdio side hides: reads come from the folder, writes are refused with the reason",
		async () => {
			const vault = newVault({});
			const host = await startHost(vault);
			const server = await startServer(vault, ["--private-folder", "Extra"]);
			const missing = await server.call("read_note", { path: "Public/Gone.md" });
			const answer = await server.call("read_note", { path: "Extra/Note.md" });
			expect(withoutPath(answer.text, "Extra/Note.md")).toBe(withoutPath(missing.text, "Public/Gone.md"));
			expect((await server.call("search", { query: WORD, limit: 100 })).text).not.toContain("Extra/");
			const write = await server.call("create_note", { path: "Public/New.md", content: "# New\n" });
			expect(write.isError).toBe(true);
			expect(write.text).toMatch(
				/^create_note: the bridge running for the vault "vault-\d+" was not used: it would show notes that this vault's privacy settings hide/,
			);
			expect(server.stderr()).toMatch(
				/Not relaying to the bridge .*: it does not keep private the folder "Extra"/,
			);
			expect(
				host.traces().filter((event) => event.direction === "in" && event.method === "vaultTools/call"),
			).toEqual([]);
		},
		PROCESS_TEST_TIMEOUT_MS,
	);
});
