import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { HeadlessProcess } from "../../helpers/headless-process";
import { makeTempDir } from "../../helpers/temp-dir";
import { pollUntil } from "../../helpers/wait-until";
import { startStdioServer, type StdioServer } from "./stdio-server-process";
import { WAIT_TIMEOUT_MS } from "../../helpers/fixture-timeout";

type Host = HeadlessProcess & { port: number; lockFile: string };

const NOTES: Record<string, string> = {
	"Notes/Alpha.md": "# Alpha\n\nAlpha links to [[Beta]].\n\n## Tasks\n\n- one\n",
	"Notes/Beta.md": "# Beta\n\nBack to [[Alpha]].\n",
	"Private/Secret.md": "# Secret\n\nAlpha secret.\n",
};

describe("claude-code-bridge mcp --vault relaying to the vault's running bridge (the headless host)", () => {
	const temp = makeTempDir("stdio-relay");
	const vault = join(temp.path, "Relay vault");
	const home = join(temp.path, "home");
	const hosts: HeadlessProcess[] = [];
	const servers: StdioServer[] = [];

	beforeAll(() => mkdirSync(home));
	beforeEach(() => {
		for (const [path, text] of Object.entries(NOTES)) {
			mkdirSync(dirname(join(vault, path)), { recursive: true });
			writeFileSync(join(vault, path), text);
		}
	});
	afterEach(async () => {
		for (const server of servers.splice(0)) await server.close();
		for (const host of hosts.splice(0)) host.kill();
	});
	afterAll(() => temp.remove());

	async function startHost(): Promise<Host> {
		const host = await HeadlessProcess.start({ vault, home, args: ["--private-folder", "Private"] });
		hosts.push(host);
		return host;
	}

	async function startServer(env: Record<string, string> = {}): Promise<StdioServer> {
		const server = await startStdioServer(vault, home, [], env);
		servers.push(server);
		return server;
	}

	const relayedCalls = (host: HeadlessProcess): number =>
		host.traces().filter((event) => event.direction === "in" && event.method === "vaultTools/call").length;

	/** The host's trace lines (stderr) may arrive after the answer (WebSocket): wait until it has logged `count` relayed calls. */
	const relayedCallsReach = (host: HeadlessProcess, count: number): Promise<number> =>
		host.waitFor(
			() => (relayedCalls(host) >= count ? relayedCalls(host) : undefined),
			`${count} relayed calls in the host's trace`,
			WAIT_TIMEOUT_MS,
		);

	it("serves reads through the bridge, which keeps its private notes out", async () => {
		const host = await startHost();
		const server = await startServer();
		const search = await server.call("search", { query: "alpha" });
		expect(search.text).toMatch(/^Notes\/Alpha\.md:1: # Alpha/m);
		expect(search.text).not.toContain("Private");
		expect(await relayedCallsReach(host, 1)).toBe(1);
		const secret = await server.call("read_note", { path: "Private/Secret.md" });
		expect(secret).toMatchObject({
			isError: true,
			text: expect.stringMatching(/No note "Private\/Secret\.md" in the vault/) as unknown,
		});
		expect(await relayedCallsReach(host, 2)).toBe(2);
		// The relay is not a Claude Code client: the bridge lists no client for it.
		expect((await host.status()).clients).toEqual([]);
	});

	it("sends writes to the bridge's review: accepted changes the note, rejected leaves it as it was", async () => {
		const host = await startHost();
		const server = await startServer();
		const note = join(vault, "Notes/Alpha.md");

		const accepted = server.call("edit_note", {
			path: "Alpha",
			edits: [{ target: "Alpha > Tasks", op: "append", content: "- two" }],
		});
		await host.waitForOutput(/(Review pending: .* for Notes\/Alpha\.md)/);
		host.send("diff accept");
		expect(await accepted).toMatchObject({
			isError: false,
			text: expect.stringMatching(/^Applied 1 edit to Notes\/Alpha\.md/) as unknown,
		});
		expect(readFileSync(note, "utf8")).toBe("# Alpha\n\nAlpha links to [[Beta]].\n\n## Tasks\n\n- one\n- two\n");

		const outputBefore = host.stdout.length;
		const rejected = server.call("edit_note", {
			path: "Alpha",
			edits: [{ target: "Alpha > Tasks", op: "append", content: "- three" }],
		});
		await host.waitFor(
			() => (/Review pending: .* for Notes\/Alpha\.md/.test(host.stdout.slice(outputBefore)) ? true : undefined),
			"a second review",
			WAIT_TIMEOUT_MS,
		);
		host.send("diff reject");
		const answer = await rejected;
		expect(answer.text).toMatch(
			/^Not applied: the user rejected the change in the review\. Notes\/Alpha\.md is unchanged/,
		);
		expect(readFileSync(note, "utf8")).toBe("# Alpha\n\nAlpha links to [[Beta]].\n\n## Tasks\n\n- one\n- two\n");
	});

	it("finds a bridge that starts after it, and falls back to the folder when the bridge goes away", async () => {
		const server = await startServer();
		const refused = await server.call("create_note", { path: "Notes/Gamma.md", content: "# Gamma\n" });
		expect(refused).toMatchObject({
			isError: true,
			text: expect.stringMatching(/^create_note: Obsidian is not running for the vault "Relay vault"/) as unknown,
		});

		const host = await startHost();
		const created = server.call("create_note", { path: "Notes/Gamma.md", content: "# Gamma\n" });
		await host.waitForOutput(/(Review pending: .* for Notes\/Gamma\.md)/);
		host.send("diff accept");
		expect(await created).toMatchObject({
			isError: false,
			text: expect.stringMatching(/^Created Notes\/Gamma\.md/) as unknown,
		});
		expect(readFileSync(join(vault, "Notes/Gamma.md"), "utf8")).toBe("# Gamma\n");

		host.kill();
		await host.exited;
		await pollUntil(
			() => (server.stderr().includes("Lost the bridge") ? true : undefined),
			"the stdio server to notice the bridge went away",
		);
		const search = await server.call("search", { query: "gamma" });
		expect(search).toMatchObject({
			isError: false,
			text: expect.stringMatching(/^Notes\/Gamma\.md:1: # Gamma/m) as unknown,
		});
		expect((await server.call("set_properties", { path: "Gamma", set: { a: 1 } })).text).toMatch(
			/Obsidian is not running/,
		);
	});

	it("cancelling a relayed edit withdraws its review on the bridge, and nothing is written", async () => {
		const host = await startHost();
		const server = await startServer();
		const controller = new AbortController();
		const call = server.client.callTool(
			{
				name: "edit_note",
				arguments: {
					path: "Alpha",
					edits: [{ target: "Alpha > Tasks", op: "append", content: "- cancelled" }],
				},
			},
			undefined,
			{ signal: controller.signal },
		);
		const rejection = expect(call).rejects.toThrow(/abort/i);
		await host.waitForOutput(/(Review pending: .* for Notes\/Alpha\.md)/);
		controller.abort();
		await rejection;
		// The cancellation travels client -> stdio server -> bridge: ask the bridge until its review list is empty.
		await pollUntil(async () => {
			const before = host.stdout.length;
			host.send("diff list");
			host.send("status");
			const listed = await host.waitFor(
				() => (/^\{"state"/m.test(host.stdout.slice(before)) ? host.stdout.slice(before) : undefined),
				"the status line after diff list",
				WAIT_TIMEOUT_MS,
			);
			return /"tab_name"/.test(listed) ? undefined : true;
		}, "the bridge to withdraw the cancelled review");
		expect(readFileSync(join(vault, "Notes/Alpha.md"), "utf8")).toBe(NOTES["Notes/Alpha.md"]);
	});

	it("skips a newer lock file for the vault whose bridge cannot be reached, and relays to the one that runs", async () => {
		const host = await startHost();
		const lock = JSON.parse(readFileSync(host.lockFile, "utf8")) as Record<string, unknown>;
		// A newer lock file naming the vault, of a live process (this one), on a port where nothing listens.
		const unreachable = join(dirname(host.lockFile), "1.lock");
		writeFileSync(unreachable, JSON.stringify({ ...lock, pid: process.pid, port: 1 }), { mode: 0o600 });
		try {
			const server = await startServer();
			const search = await server.call("search", { query: "alpha" });
			expect(search).toMatchObject({
				isError: false,
				text: expect.stringMatching(/^Notes\/Alpha\.md:1: # Alpha/m) as unknown,
			});
			expect(await relayedCallsReach(host, 1)).toBe(1);
			expect(server.stderr()).toMatch(/Could not use the bridge "[^"]*" \(port 1,/);
		} finally {
			rmSync(unreachable, { force: true });
		}
	});

	it("never sends the bridge's token to the port named by a symlink to its lock file (issue 15 finding 4)", async () => {
		const host = await startHost();
		const attacker = await startHeaderRecorder();
		try {
			// `<attacker's port>.lock -> <the bridge's lock file>`, in $CLAUDE_CONFIG_DIR/ide (scanned first) and in ~/.claude/ide.
			const configDir = join(temp.path, "claude-config");
			mkdirSync(join(configDir, "ide"), { recursive: true, mode: 0o700 });
			chmodSync(join(configDir, "ide"), 0o700);
			const planted = [
				join(configDir, "ide", `${attacker.port}.lock`),
				join(dirname(host.lockFile), `${attacker.port}.lock`),
			];
			for (const link of planted) symlinkSync(host.lockFile, link);
			try {
				const server = await startServer({ CLAUDE_CONFIG_DIR: configDir });
				const search = await server.call("search", { query: "alpha" });
				expect(search).toMatchObject({
					isError: false,
					text: expect.stringMatching(/^Notes\/Alpha\.md:1: # Alpha/m) as unknown,
				});
				// The relayed call is the fence: a relay tries every candidate it trusts, in order, before this answer.
				expect(await relayedCallsReach(host, 1)).toBe(1);
				expect(attacker.authorizations()).toEqual([]);
				for (const link of planted)
					expect(server.stderr()).toContain(`Ignored the lock file ${link}: it is a symbolic link`);
			} finally {
				for (const link of planted) rmSync(link, { force: true });
			}
		} finally {
			await attacker.close();
		}
	});
});

/** A listener on a free port that answers 401 to everything and keeps every auth header it is sent. */
async function startHeaderRecorder(): Promise<{ port: number; authorizations(): string[]; close(): Promise<void> }> {
	const received: IncomingHttpHeaders[] = [];
	const server: Server = createServer((request, response) => {
		received.push(request.headers);
		response.writeHead(401).end();
	});
	server.on("upgrade", (request: { headers: IncomingHttpHeaders }, socket: { end(data: string): void }) => {
		received.push(request.headers);
		socket.end("HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n");
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	return {
		port: (server.address() as AddressInfo).port,
		authorizations: () =>
			received
				.flatMap((headers) => [headers.authorization, headers["x-claude-code-ide-authorization"]])
				.filter((value): value is string => typeof value === "string"),
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}
