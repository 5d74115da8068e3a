import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { checkHttpEndpoint, checkStdioCommand } from "../../src/headless/vault-tools-check";
import type { VaultToolsHttpStatus } from "../../src/vault-tools/serve/http-endpoint";
import { writeHttpTokenRecord } from "../../src/vault-tools/serve/http-token-record";
import { makeTempDir } from "../helpers/temp-dir";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/** A stand-in stdio server: answers initialize on stdout, as the vault tools do. */
const ANSWERS_INITIALIZE = `process.stdin.once("data", () => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { serverInfo: { name: "x" } } }) + "\\n")); setInterval(() => {}, 1000);`;

describe("the doctor's checks of the vault tools' endpoints", () => {
	jest.setTimeout(60_000);
	const temp = makeTempDir("vault-tools-check");
	const home = join(temp.path, "home");
	const token = "c".repeat(64);
	let server: Server;
	let port = 0;
	const listening = (): VaultToolsHttpStatus => ({
		state: "listening",
		port,
		url: `http://127.0.0.1:${port}/mcp`,
		calls: 0,
		refused: 0,
		probes: 0,
		clients: [],
	});

	beforeAll(async () => {
		mkdirSync(home);
		server = createServer((request, response) => {
			response.writeHead(request.headers.authorization === `Bearer ${token}` ? 200 : 401).end("{}");
		});
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		port = (server.address() as { port: number }).port;
	}, FIXTURE_TIMEOUT_MS);
	afterAll(async () => {
		await new Promise<void>((resolve) => server?.close(() => resolve()));
		temp.remove();
	});

	it("HTTP: fails while Claude Code could not fetch a token, then is ok once the token it fetches is accepted", async () => {
		const before = await checkHttpEndpoint({ status: listening(), homeDir: home, offFix: "fix" });
		expect(before).toMatchObject({
			level: "fail",
			what: expect.stringMatching(
				new RegExp(`^Claude Code cannot fetch the token of http://127\\.0\\.0\\.1:${port}/mcp: `),
			) as unknown,
		});
		writeHttpTokenRecord(home, { pid: process.pid, port, vault: join(temp.path, "vault"), token });
		expect(await checkHttpEndpoint({ status: listening(), homeDir: home, offFix: "fix" })).toEqual({
			level: "ok",
			what: `The vault tools answer on http://127.0.0.1:${port}/mcp and accept the key Claude Code fetches when it connects`,
		});
		writeHttpTokenRecord(home, { pid: process.pid, port, vault: join(temp.path, "vault"), token: "d".repeat(64) });
		expect(await checkHttpEndpoint({ status: listening(), homeDir: home, offFix: "fix" })).toMatchObject({
			level: "fail",
			what: `http://127.0.0.1:${port}/mcp answered HTTP 401 to a ping with the current token`,
		});
	});

	it("HTTP: an endpoint that is off is a warning with the caller's cause and fix", async () => {
		const off: VaultToolsHttpStatus = {
			state: "failed",
			port: 1,
			error: "Port 1 is in use.",
			portTaken: true,
			calls: 0,
			refused: 0,
			probes: 0,
			clients: [],
		};
		expect(await checkHttpEndpoint({ status: off, homeDir: home, offFix: "Use --mcp-port." })).toEqual({
			level: "warn",
			what: "The vault tools' HTTP endpoint is off: Port 1 is in use",
			fix: "Use --mcp-port.",
		});
		expect(
			await checkHttpEndpoint({ status: off, homeDir: home, offCause: "port 1 is in use by X", offFix: "f" }),
		).toMatchObject({ what: "The vault tools' HTTP endpoint is off: port 1 is in use by X" });
	});

	it("stdio: ok when the command answers initialize; a failure says how it ended", async () => {
		expect(await checkStdioCommand(process.execPath, ["-e", ANSWERS_INITIALIZE], "the line")).toEqual({
			level: "ok",
			what: "The vault tools' stdio command answers: the line",
		});
		const exited = await checkStdioCommand(
			process.execPath,
			["-e", 'process.stderr.write("vault folder not found\\n"); process.exit(2)'],
			"the line",
		);
		expect(exited).toMatchObject({
			level: "fail",
			what: "The vault tools' stdio command does not answer (it exited with code 2: vault folder not found): the line",
		});
		const missing = await checkStdioCommand(join(temp.path, "no-such-program"), [], "the line");
		expect(missing).toMatchObject({ level: "fail", what: expect.stringContaining("ENOENT") as unknown });
	});
});
