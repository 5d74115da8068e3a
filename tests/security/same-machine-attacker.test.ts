import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { dirname, join, relative } from "node:path";
import { connectHeaders, savedHttpConfig } from "../helpers/headers-helper";
import { HeadlessProcess } from "../helpers/headless-process";
import { freePort, postPing, squat } from "../helpers/port-squatter";
import { makeTempDir } from "../helpers/temp-dir";
import { pollUntil } from "../helpers/wait-until";
import { CATASTROPHIC_QUERY, PROSE_LINE, SETTLES_WITHIN_MS } from "../vault-tools/catastrophic-regex";
import {
	CLI_ENTRY,
	startStdioServer,
	type StdioServer,
	type ToolAnswer,
} from "../vault-tools/stdio/stdio-server-process";

/**
 * Issue 15, findings 1 to 7, rerun end to end as an attacker on the same machine would: against the built
 * processes (`claude-code-bridge serve`, `claude-code-bridge mcp --vault`, the HTTP endpoint reached with the
 * configuration `mcp-config http` prints), each with a temp HOME and a temp vault, acting only through files on
 * disk, ports and processes. `CCB_TEST_DIST=<folder>` runs it against another build (tests/helpers/built-dist.ts).
 */

/** Each test starts two to four processes and may wait out a 3 s search budget: sized for a loaded machine. */
jest.setTimeout(120_000);

/** Obsidian's config folder, under a name a user gave it: the processes cannot know which it is. */
const CONFIG = ".vault-config";
const PLUGIN_DATA = "plugins/claude-code-bridge/data.json";
const WORD = "QUOKKA";
const PUBLIC_NOTE = "Public/Open.md";
/** One note for each way the plugin's settings make a note private, and a public one; each holds WORD. */
const NOTES: Record<string, string> = {
	[PUBLIC_NOTE]: `# Open\n\n${WORD} in public.\n`,
	"Secret/Plan.md": `# Plan\n\n${WORD} in a private folder.\n`,
	"Notes/Tagged.md": `# Tagged\n\n${WORD} with a private tag. #private\n`,
	"Excluded/Draft.md": `# Draft\n\n${WORD} in a folder Obsidian excludes.\n`,
};
const PRIVATE_NOTES = Object.keys(NOTES).filter((path) => path !== PUBLIC_NOTE);
const PLUGIN_SETTINGS = JSON.stringify({
	privateFolders: ["Secret"],
	privateTags: ["private"],
	excludedFilesArePrivate: true,
});
const APP_JSON = JSON.stringify({ userIgnoreFilters: ["Excluded/"] });

type Call = (name: string, args: Record<string, unknown>) => Promise<ToolAnswer>;
type Host = HeadlessProcess & { port: number; lockFile: string };

function writeFiles(root: string, files: Record<string, string>): void {
	for (const [path, text] of Object.entries(files)) {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), text);
	}
}

/** Whatever `promise` settles to, or "still running" once `ms` have passed: a hang becomes a readable failure. */
function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | "still running" | Error> {
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<"still running">((resolve) => (timer = setTimeout(() => resolve("still running"), ms)));
	const settled = promise.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
	return Promise.race([settled, late]).finally(() => clearTimeout(timer));
}

const callOf =
	(server: StdioServer): Call =>
	(name, args) =>
		server.call(name, args);

/** Searches `call` for WORD and reads each private note: nothing of a private note may come back. Returns the notes found. */
async function expectNoPrivateServed(who: string, call: Call): Promise<(string | undefined)[]> {
	const search = await call("search", { query: WORD, limit: 100 });
	const found = search.text
		.split("\n")
		.filter((line) => line.includes(WORD))
		.map((line) => line.split(":")[0]);
	expect({ who, privateFound: found.filter((path) => path !== PUBLIC_NOTE) }).toEqual({ who, privateFound: [] });
	for (const path of PRIVATE_NOTES) {
		const answer = await call("read_note", { path });
		expect({ who, path, served: answer.text.includes(WORD) }).toEqual({ who, path, served: false });
	}
	return found;
}

/** As expectNoPrivateServed, and the public note is found: the rules hide the private notes, not everything. */
async function expectOnlyPublicServed(who: string, call: Call): Promise<void> {
	expect({ who, found: await expectNoPrivateServed(who, call) }).toEqual({ who, found: [PUBLIC_NOTE] });
}

/** A listener on 127.0.0.1:`port` that answers 401 to everything and keeps every header it is sent. */
async function recordHeaders(port: number): Promise<{ received: IncomingHttpHeaders[]; close: () => Promise<void> }> {
	const received: IncomingHttpHeaders[] = [];
	const server: Server = createServer((request, response) => {
		received.push(request.headers);
		response.writeHead(401).end();
	});
	server.on("upgrade", (request: { headers: IncomingHttpHeaders }, socket: { end(data: string): void }) => {
		received.push(request.headers);
		socket.end("HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n");
	});
	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(port, "127.0.0.1", resolve);
	});
	return { received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * A listener on a port whose lock file name sorts before any port the OS hands out (10000-19999 against
 * 32768 and up), so a relay that orders equal lock files by name tries it first.
 */
async function recordHeadersOnALowPort(): Promise<{
	port: number;
	received: IncomingHttpHeaders[];
	close: () => Promise<void>;
}> {
	for (let attempt = 0; ; attempt++) {
		const port = 10_000 + Math.floor(Math.random() * 10_000);
		try {
			return { port, ...(await recordHeaders(port)) };
		} catch (error) {
			if (attempt >= 50) throw error;
		}
	}
}

describe("an attacker on the same machine, against the built processes (issue 15, findings 1-7)", () => {
	const temp = makeTempDir("same-machine-attacker");
	const home = join(temp.path, "home");
	const hosts: HeadlessProcess[] = [];
	const servers: StdioServer[] = [];
	const clients: Client[] = [];
	let vaultCount = 0;

	beforeAll(() => mkdirSync(home));
	afterEach(async () => {
		for (const client of clients.splice(0)) await client.close().catch(() => undefined);
		for (const server of servers.splice(0)) await server.close().catch(() => undefined);
		for (const host of hosts.splice(0)) host.kill();
	});
	afterAll(() => temp.remove());

	function newVault(files: Record<string, string>): string {
		const vault = join(temp.path, `vault-${++vaultCount}`);
		writeFiles(vault, files);
		return vault;
	}

	/** `claude-code-bridge serve --vault V`, with only the options given (and a free port for the vault tools' endpoint). */
	async function serve(vault: string, args: string[] = []): Promise<Host> {
		const mcpPort = args.includes("--mcp-port") ? [] : ["--mcp-port", String(await freePort())];
		const host = await HeadlessProcess.start({
			vault,
			home,
			command: [CLI_ENTRY, "serve"],
			args: [...mcpPort, ...args],
		});
		hosts.push(host);
		return host;
	}

	/** `claude-code-bridge mcp --vault V`, as Claude Code starts it. */
	async function stdio(vault: string): Promise<StdioServer> {
		const server = await startStdioServer(vault, home);
		servers.push(server);
		return server;
	}

	/** The vault tools over HTTP, connected with the configuration Claude Code saves (`mcp-config http`). */
	async function overHttp(host: HeadlessProcess): Promise<Call> {
		const config = await savedHttpConfig(host);
		const client = new Client({ name: "same-machine-attacker", version: "1.0.0" });
		await client.connect(
			new StreamableHTTPClientTransport(new URL(config.url), {
				requestInit: { headers: await connectHeaders(config, home) },
			}),
		);
		clients.push(client);
		return async (name, args) => {
			const result = (await client.callTool({ name, arguments: args })) as {
				content: { text: string }[];
				isError?: boolean;
			};
			return { text: result.content.map((block) => block.text).join("\n"), isError: result.isError === true };
		};
	}

	const relayedCall = (host: HeadlessProcess): Promise<unknown> =>
		host.waitForTrace(
			(event) => event.direction === "in" && event.method === "vaultTools/call",
			"a call relayed by the stdio server",
			SETTLES_WITHIN_MS,
		);

	/** Sends a command line, then `status` as a fence (commands run in order); returns what both streams printed meanwhile. */

	/**
	 * A command whose answer is printed when its work ends, which on a loaded machine may be after the status line
	 * that `command` waits for: what the host printed since, once it says `expected` (or by the fixture's timeout).
	 */
	async function commandSaying(host: HeadlessProcess, line: string, expected: RegExp): Promise<string> {
		const [stdoutBefore, stderrBefore] = [host.stdout.length, host.stderr.length];
		const printed = (): string => `${host.stdout.slice(stdoutBefore)}\n${host.stderr.slice(stderrBefore)}`;
		host.send(line);
		return pollUntil(
			() => (expected.test(printed()) ? printed() : undefined),
			`"${line}" to say ${expected}`,
		).catch(() => printed());
	}

	it("1: the plugin's private folder and tag and Obsidian's excluded files are never served, whichever process answers", async () => {
		const vault = newVault({
			...NOTES,
			[`${CONFIG}/${PLUGIN_DATA}`]: PLUGIN_SETTINGS,
			[`${CONFIG}/app.json`]: APP_JSON,
		});
		const fallback = await stdio(vault);
		await expectOnlyPublicServed("the stdio server, no bridge running", callOf(fallback));

		// Started with no flags, as the stdio server's "writes refused" message suggests.
		const host = await serve(vault);
		await expectOnlyPublicServed("serve's HTTP endpoint", await overHttp(host));
		await expectOnlyPublicServed("the stdio server with serve running", callOf(await stdio(vault)));
		// Those answers came from serve, through the relay, not from the folder.
		await relayedCall(host);
	});

	it("2: a stale settings copy without rules and a malformed data.json fail closed, saying why in one line", async () => {
		// `.backup` sorts before `.vault-config`: a lookup that takes the first copy it finds takes the stale one.
		const stale = newVault({
			...NOTES,
			[`${CONFIG}/${PLUGIN_DATA}`]: PLUGIN_SETTINGS,
			[`${CONFIG}/app.json`]: APP_JSON,
			[`.backup/${PLUGIN_DATA}`]: "{}",
		});
		await expectOnlyPublicServed("the stdio server, a stale copy in .backup", callOf(await stdio(stale)));
		await expectOnlyPublicServed(
			"serve's HTTP endpoint, a stale copy in .backup",
			await overHttp(await serve(stale)),
		);

		const malformed = newVault({ ...NOTES, [`${CONFIG}/${PLUGIN_DATA}`]: '{"privateFolders": ["Sec' });
		const fallback = await stdio(malformed);
		await expectNoPrivateServed("the stdio server, a malformed data.json", callOf(fallback));
		const host = await serve(malformed);
		await expectNoPrivateServed("serve's HTTP endpoint, a malformed data.json", await overHttp(host));
		for (const [who, stderr] of [
			["the stdio server", fallback.stderr()],
			["serve", host.stderr],
		]) {
			const why = stderr.split("\n").filter((line) => line.includes(PLUGIN_DATA));
			expect({ who, why }).toEqual({ who, why: [expect.stringMatching(/cannot be read/) as unknown] });
		}
	});

	it("3: a catastrophic regex is stopped with a clear error within its budget, and a request sent meanwhile is answered first", async () => {
		const vault = newVault({
			[PUBLIC_NOTE]: NOTES[PUBLIC_NOTE] ?? "",
			"Notes/Prose.md": `# Prose\n\n${PROSE_LINE}\n`,
		});
		const host = await serve(vault);
		const http = await overHttp(host);
		const relaying = await stdio(vault);
		const order: string[] = [];
		const search = relaying
			.call("search", { query: CATASTROPHIC_QUERY, mode: "regex" })
			.finally(() => order.push("the regex search"));
		await relayedCall(host);
		const read = http("read_note", { path: PUBLIC_NOTE }).finally(() => order.push("read_note over HTTP"));
		const [searchAnswer, readAnswer] = await Promise.all([
			settledWithin(search, SETTLES_WITHIN_MS),
			settledWithin(read, SETTLES_WITHIN_MS),
		]);
		expect(order).toEqual(["read_note over HTTP", "the regex search"]);
		expect(readAnswer).toMatchObject({ isError: false, text: expect.stringContaining(WORD) as unknown });
		expect(searchAnswer).toMatchObject({
			isError: true,
			text: expect.stringMatching(
				/^search: the regular expression did not finish within 3 s and was stopped/,
			) as unknown,
		});
	});

	it("4: a symlink <other port>.lock to the bridge's lock file, planted in the lock folder: the listener on that port never receives the token, and no log shows it", async () => {
		const vault = newVault({ [PUBLIC_NOTE]: NOTES[PUBLIC_NOTE] ?? "" });
		const host = await serve(vault);
		const { authToken } = JSON.parse(readFileSync(host.lockFile, "utf8")) as { authToken: string };
		const listener = await recordHeadersOnALowPort();
		const planted = join(dirname(host.lockFile), `${listener.port}.lock`);
		try {
			symlinkSync(host.lockFile, planted);
			const relaying = await stdio(vault);
			const search = await relaying.call("search", { query: WORD });
			expect(search.text).toContain(PUBLIC_NOTE);
			// The fence: the relay tries the candidates it trusts, in order, before it reaches the bridge.
			await relayedCall(host);
			const sent = listener.received
				.flatMap((headers) => [headers.authorization, headers["x-claude-code-ide-authorization"]])
				.filter((value) => value !== undefined);
			expect(sent).toEqual([]);
			expect(JSON.stringify(listener.received)).not.toContain(authToken);
			expect({
				stdio: relaying.stderr().includes(authToken),
				serve: (host.stdout + host.stderr).includes(authToken),
			}).toEqual({ stdio: false, serve: false });
		} finally {
			rmSync(planted, { force: true });
			await listener.close();
		}
	});

	it("5: a squatter on the HTTP port while the bridge is off captures nothing that opens the restarted endpoint; the saved configuration still works", async () => {
		const vault = newVault({ [PUBLIC_NOTE]: NOTES[PUBLIC_NOTE] ?? "" });
		const port = String(await freePort());
		const first = await serve(vault, ["--mcp-port", port]);
		const config = await savedHttpConfig(first);
		// What a Claude Code session that connected now keeps sending.
		const session = await connectHeaders(config, home);
		expect(await postPing(config.url, session)).toBe(200);
		await first.quit();

		const squatter = await squat(Number(port));
		try {
			await postPing(config.url, session);
			await postPing(config.url, await connectHeaders(config, home));
		} finally {
			await squatter.close();
		}
		expect(squatter.captured.length).toBeGreaterThan(0);

		await serve(vault, ["--mcp-port", port]);
		for (const captured of squatter.captured)
			expect(await postPing(config.url, { Authorization: captured })).toBe(401);
		expect(await postPing(config.url, await connectHeaders(config, home))).toBe(200);
	});

	it("6: a folder swapped for a link out of the vault while a create waits for review: after Accept nothing is written outside", async () => {
		const vault = newVault({ [PUBLIC_NOTE]: NOTES[PUBLIC_NOTE] ?? "", "Drop/Keep.md": "# Keep\n" });
		const outside = join(temp.path, `outside-${vaultCount}`);
		mkdirSync(outside);
		const host = await serve(vault);
		const relaying = await stdio(vault);
		const created = relaying.call("create_note", { path: "Drop/evil.md", content: "payload\n" });
		await host.waitForOutput(/(Review pending: .* for Drop\/evil\.md)/);
		const moved = join(temp.path, `Drop-moved-${vaultCount}`);
		renameSync(join(vault, "Drop"), moved);
		symlinkSync(outside, join(vault, "Drop"));
		host.send("diff accept");
		const answer = await created;
		expect(readdirSync(outside)).toEqual([]);
		expect(readdirSync(moved)).toEqual(["Keep.md"]);
		expect(answer).toMatchObject({
			isError: true,
			text: expect.stringMatching(/Drop\/evil\.md.*nothing was written/i) as unknown,
		});
	});

	it("7: claude-permissions write leaves a settings file outside the vault unchanged, named by the record or reached by a link, and says why", async () => {
		const userSettings = join(home, ".claude", "settings.json");
		const userRules = ["Read(~/.ssh/**)", "Bash(curl:*)"];
		const original = `${JSON.stringify({ permissions: { deny: userRules } }, null, 2)}\n`;
		mkdirSync(dirname(userSettings), { recursive: true });
		writeFileSync(userSettings, original);
		const vault = newVault({ ...NOTES });
		const record = join(vault, ".claude", "claude-code-bridge-permissions.json");
		// The record claims the user's own deny rules as the bridge's, in a file it names outside the vault.
		writeFiles(vault, {
			".claude/claude-code-bridge-permissions.json": JSON.stringify({
				settingsFile: relative(vault, userSettings),
				rules: userRules,
			}),
		});
		const host = await serve(vault, ["--private-folder", "Secret"]);

		const byRecord = await commandSaying(host, "claude-permissions write", /not one of the vault's Claude Code/);
		expect(readFileSync(userSettings, "utf8")).toBe(original);
		expect(byRecord).toContain(
			`names "${relative(vault, userSettings)}", which is not one of the vault's Claude Code settings files`,
		);

		rmSync(join(vault, ".claude", "settings.json"), { force: true });
		symlinkSync(userSettings, join(vault, ".claude", "settings.json"));
		writeFileSync(record, JSON.stringify({ settingsFile: ".claude/settings.json", rules: userRules }));
		const byLink = await commandSaying(host, "claude-permissions write", /symbolic link/);
		expect(readFileSync(userSettings, "utf8")).toBe(original);
		expect(byLink).toMatch(/symbolic link/);
	});
});
