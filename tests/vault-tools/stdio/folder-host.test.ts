import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { FolderHost, folderHostKey } from "../../../src/vault-tools/stdio/folder-host";
import { textResult } from "../../../src/protocol/mcp-types";
import { ToolRegistry } from "../../../src/protocol/tool-registry";
import { readFolderHost } from "../../../src/server/folder-host-file";
import { VAULT_TOOLS_RELAY_METHODS } from "../../../src/vault-tools/serve/relay-methods";
import { VaultToolServer } from "../../../src/vault-tools/serve/vault-tool-server";
import { connect, connectOrThrow, type TestClient } from "../../helpers/test-client";
import { makeTempDir } from "../../helpers/temp-dir";

const describeOnPosix = process.platform === "win32" ? describe.skip : describe;

describeOnPosix("FolderHost: one session's folder index served to the others", () => {
	let temp: ReturnType<typeof makeTempDir>;
	let vault: string;
	const hosts: FolderHost[] = [];
	const clients: TestClient[] = [];

	beforeEach(() => {
		temp = makeTempDir("folder-host-server");
		vault = join(temp.path, "vault");
		mkdirSync(vault);
	});
	afterEach(async () => {
		await Promise.all(clients.splice(0).map((client) => client.close()));
		for (const host of hosts.splice(0)) host.dispose();
		temp?.remove();
	});

	const PRIVACY = { folders: ["Private"], tags: ["#secret"] };

	function makeHost(rules = { folders: [] as string[], tags: [] as string[] }, version = "1.0.0"): FolderHost {
		const registry = new ToolRegistry();
		registry.register({
			name: "echo",
			description: "echo",
			inputSchema: { type: "object" },
			call: (args) => Promise.resolve(textResult(`echo ${JSON.stringify(args)}`)),
		});
		const server = new VaultToolServer({ registry });
		const host = new FolderHost({
			homeDir: temp.path,
			vaultPath: vault,
			extraRules: rules,
			serverInfo: { name: "test", version },
			server: () => server,
			privacy: () => PRIVACY,
			log: () => undefined,
		});
		hosts.push(host);
		return host;
	}

	it("answers relayed calls on loopback only with the token of its 0600 file; others are refused before any socket exists", async () => {
		const host = makeHost();
		expect(await host.claim()).toBe(true);
		const reading = readFolderHost(host.path);
		if (reading.kind !== "read") throw new Error(`no host file: ${reading.kind}`);
		const record = reading.record;
		expect(record).toMatchObject({ pid: process.pid, vaultPath: realpathSync(vault) });

		expect(await connect(record.port)).toMatchObject({ kind: "refused", status: 401 });
		expect(await connect(record.port, { token: "0".repeat(64) })).toMatchObject({ kind: "refused", status: 401 });
		expect(await connect(record.port, { token: record.authToken, origin: "https://example.com" })).toMatchObject({
			kind: "refused",
			status: 403,
		});

		const client = await connectOrThrow(record.port, { token: record.authToken });
		clients.push(client);
		await client.initialize();
		const answer = await client.request(VAULT_TOOLS_RELAY_METHODS.call, { name: "echo", arguments: { n: 1 } });
		expect(answer.result).toEqual({ content: [{ type: "text", text: 'echo {"n":1}' }] });
		// The relaying session asks which rules the host applies before it forwards anything (as with a bridge).
		expect((await client.request(VAULT_TOOLS_RELAY_METHODS.privacy, {})).result).toEqual(PRIVACY);
	});

	it("is claimed by one session per vault, version and command-line privacy rules; the file goes with its session", async () => {
		const first = makeHost();
		const second = makeHost();
		expect(await first.claim()).toBe(true);
		expect(await second.claim()).toBe(false);
		expect(second.isHost).toBe(false);

		// Other rules or another version: another file, so no session relays to an index that shows it more.
		const stricter = makeHost({ folders: ["Private"], tags: [] });
		expect(stricter.path).not.toBe(first.path);
		expect(makeHost(undefined, "2.0.0").path).not.toBe(first.path);
		expect(folderHostKey(vault, "1", { folders: ["a", "b"], tags: [] })).toBe(
			folderHostKey(vault, "1", { folders: ["b", "a"], tags: [] }),
		);

		first.dispose();
		expect(readFolderHost(first.path).kind).toBe("missing");
		expect(await second.claim()).toBe(true);
	});
});
