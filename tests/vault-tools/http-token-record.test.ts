import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { VaultToolsHttpEndpoint } from "../../src/vault-tools/serve/http-endpoint";
import {
	HttpTokenRecordError,
	httpTokenDirectory,
	httpTokenRecordPath,
	readHttpTokenRecord,
	writeHttpTokenRecord,
	type HttpTokenRecord,
} from "../../src/vault-tools/serve/http-token-record";
import type { VaultToolServer } from "../../src/vault-tools/serve/vault-tool-server";
import { makeTempDir } from "../helpers/temp-dir";

const TOKEN = "a".repeat(64);
const alive = (): boolean => true;

/** Answers every message with an empty result: these tests are about the token, not the tools. */
const EMPTY_SERVER = {
	answer: () => Promise.resolve('{"jsonrpc":"2.0","id":1,"result":{}}'),
} as unknown as VaultToolServer;

function post(url: string, token: string): Promise<number> {
	return new Promise((resolve, reject) => {
		// A fresh socket each time: a kept-alive one could still point at a server that has just stopped.
		const req = httpRequest(
			url,
			{
				method: "POST",
				agent: false,
				headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
			},
			(res) => {
				res.resume();
				resolve(res.statusCode ?? 0);
			},
		);
		req.on("error", reject);
		req.end('{"jsonrpc":"2.0","id":1,"method":"ping"}');
	});
}

function refusal(read: () => unknown): string {
	try {
		read();
	} catch (error) {
		if (error instanceof HttpTokenRecordError) return error.message;
		throw error;
	}
	throw new Error("the record was accepted");
}

describe("the HTTP token record, read as untrusted input", () => {
	let temp: { path: string; remove: () => void };
	let home: string;
	let vault: string;

	beforeEach(() => {
		temp = makeTempDir("token-record");
		home = join(temp.path, "home");
		vault = join(temp.path, "vault");
		mkdirSync(home);
		mkdirSync(vault);
	});
	afterEach(() => temp?.remove());

	const write = (record: Partial<HttpTokenRecord> = {}): string =>
		writeHttpTokenRecord(home, { pid: process.pid, port: 4100, vault, token: TOKEN, ...record });

	it("is written 0600 in a 0700 folder and read back as written", () => {
		const path = write();
		expect(path).toBe(httpTokenRecordPath(home, 4100));
		expect(readHttpTokenRecord(home, 4100, { isAlive: alive })).toEqual({
			writer: "claude-code-bridge",
			pid: process.pid,
			port: 4100,
			vault,
			token: TOKEN,
		});
	});

	it.each([
		["no record for the port", () => write({ port: 4200 }), /^no bridge is serving this port \(no .*4100\.json\)$/],
		[
			"a link in place of the record",
			() => symlinkSync(write({ port: 4200 }), httpTokenRecordPath(home, 4100)),
			/4100\.json is a symbolic link; refused$/,
		],
		[
			"a record others can read",
			() => chmodSync(write(), 0o644),
			/4100\.json can be read by other users \(mode 644\); refused$/,
		],
		[
			"a folder others can enter",
			() => chmodSync(join(write(), ".."), 0o755),
			/mcp-tokens can be read by other users \(mode 755\); refused$/,
		],
		[
			"a record for another port",
			() => writeFileSync(httpTokenRecordPath(home, 4100), readFileSync(write({ port: 4200 })), { mode: 0o600 }),
			/4100\.json is not a token record for port 4100$/,
		],
		[
			"a record that is not JSON",
			() => writeFileSync(httpTokenRecordPath(home, 4100), "{", { mode: 0o600 }),
			/4100\.json is not a token record$/,
		],
		[
			"a token that is not 64 hex digits",
			() =>
				writeFileSync(
					httpTokenRecordPath(home, 4100),
					JSON.stringify({ writer: "claude-code-bridge", pid: process.pid, port: 4100, vault, token: "x" }),
					{ mode: 0o600 },
				),
			/is not a token record for port 4100$/,
		],
		["pid 0 (which would signal the whole group)", () => write({ pid: 0 }), /is not a token record for port 4100$/],
	])("refuses %s", (_what, arrange, message) => {
		mkdirSync(httpTokenDirectory(home), { recursive: true, mode: 0o700 });
		arrange();
		expect(refusal(() => readHttpTokenRecord(home, 4100, { isAlive: alive }))).toMatch(message);
	});

	it("refuses a record of another user and of a process that is gone", () => {
		write();
		expect(
			refusal(() => readHttpTokenRecord(home, 4100, { isAlive: alive, uid: (process.getuid?.() ?? 0) + 1 })),
		).toMatch(/mcp-tokens belongs to another user; refused$/);
		expect(refusal(() => readHttpTokenRecord(home, 4100, { isAlive: () => false }))).toBe(
			`the bridge that served port 4100 (pid ${process.pid}) is no longer running`,
		);
	});

	it("is never written inside the vault (a home folder inside it)", () => {
		const insideHome = join(vault, "home");
		mkdirSync(insideHome);
		expect(() => writeHttpTokenRecord(insideHome, { pid: process.pid, port: 4100, vault, token: TOKEN })).toThrow(
			/^the home folder is inside the vault, so .* would sync with the notes$/,
		);
		expect(existsSync(join(insideHome, ".claude-code-bridge"))).toBe(false);
	});
});

describe("the vault tools' HTTP endpoint and its one-start token", () => {
	let temp: { path: string; remove: () => void };
	let home: string;
	let vault: string;
	const endpoints: VaultToolsHttpEndpoint[] = [];

	beforeEach(() => {
		temp = makeTempDir("token-endpoint");
		home = join(temp.path, "home");
		vault = join(temp.path, "vault");
		mkdirSync(home);
		mkdirSync(vault);
	});
	afterEach(async () => {
		for (const endpoint of endpoints.splice(0)) await endpoint.stop();
		temp?.remove();
	});

	const endpoint = (options: { port?: number; fixedToken?: string } = {}): VaultToolsHttpEndpoint => {
		const made = new VaultToolsHttpEndpoint(EMPTY_SERVER, {
			port: options.port ?? 0,
			homeDir: home,
			vaultPath: vault,
			...(options.fixedToken ? { fixedToken: options.fixedToken } : {}),
		});
		endpoints.push(made);
		return made;
	};

	it("publishes a new token at every start, the one it accepts, and withdraws it at stop", async () => {
		const http = endpoint();
		const first = await http.start();
		const token = readHttpTokenRecord(home, first.port).token ?? "";
		expect(await post(first.url ?? "", token)).toBe(200);
		await http.stop();
		expect(existsSync(httpTokenRecordPath(home, first.port))).toBe(false);

		const again = endpoint({ port: first.port });
		await again.start();
		const next = readHttpTokenRecord(home, first.port).token ?? "";
		expect(next).toMatch(/^[0-9a-f]{64}$/);
		expect(next).not.toBe(token);
		expect(await post(first.url ?? "", token)).toBe(401);
		expect(await post(first.url ?? "", next)).toBe(200);
	});

	it("rotate: the record holds the new token before the old one stops working", async () => {
		const http = endpoint();
		const status = await http.start();
		const old = readHttpTokenRecord(home, status.port).token ?? "";
		http.rotate();
		const rotated = readHttpTokenRecord(home, status.port).token ?? "";
		expect(rotated).not.toBe(old);
		expect(await post(status.url ?? "", old)).toBe(401);
		expect(await post(status.url ?? "", rotated)).toBe(200);
	});

	it("writes no record when the port is taken, nor for a start that a stop overtook", async () => {
		const holder = createServer();
		const taken = await new Promise<number>((resolve) =>
			holder.listen(0, "127.0.0.1", () => resolve((holder.address() as { port: number }).port)),
		);
		try {
			expect((await endpoint({ port: taken }).start()).state).toBe("failed");
			expect(existsSync(httpTokenRecordPath(home, taken))).toBe(false);
		} finally {
			await new Promise((resolve) => holder.close(resolve));
		}
		const http = endpoint();
		const starting = http.start();
		await http.stop();
		await starting;
		expect(http.status().state).toBe("stopped");
		expect(existsSync(httpTokenDirectory(home)) ? readdirSync(httpTokenDirectory(home)) : []).toEqual([]);
	});

	it("with the user's own token: the same at every start, never written, not rotated here", async () => {
		const own = "f".repeat(40);
		const http = endpoint({ fixedToken: own });
		const status = await http.start();
		const record = readFileSync(httpTokenRecordPath(home, status.port), "utf8");
		expect(record).not.toContain(own);
		expect(readHttpTokenRecord(home, status.port).token).toBeUndefined();
		expect(await post(status.url ?? "", own)).toBe(200);
		expect(() => http.rotate()).toThrow(
			"the token is the one set in CLAUDE_CODE_BRIDGE_MCP_TOKEN; change it there",
		);
	});
});
