import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LockFileContent } from "../../src/server/lock-file";
import { HeadlessProcess } from "../helpers/headless-process";
import { connectOrThrow, type JsonRpcAnswer, type TestClient } from "../helpers/test-client";
import { makeTempDir } from "../helpers/temp-dir";

/**
 * Vault and note names with spaces, NFC and NFD accents, emoji and URL-special characters, served by the
 * headless host (a real process and real sockets), with the vault reached directly and through a symlink.
 */
const NFC = "Caf\u00e9";
const NFD = "Cafe\u0301";
const VAULT_NAME = `My Vault ✻ ${NFC} 📚`;
const NOTES = [
	`Folder with spaces/${NFC} note.md`,
	`Folder with spaces/${NFD} note.md`,
	"📝 emoji 👩‍💻 note.md",
	"100% done.md",
	"C# and F#.md",
	"what? why.md",
	`${NFD}/deeper folder/plain.md`,
];

const temp = makeTempDir("names");
const home = join(temp.path, "home");
const realVault = join(temp.path, VAULT_NAME);
const linkedVault = join(temp.path, `linked ${NFD} vault`);
const hosts: HeadlessProcess[] = [];
const clients: TestClient[] = [];

beforeAll(() => {
	mkdirSync(home);
	for (const note of NOTES) {
		mkdirSync(join(realVault, note, ".."), { recursive: true });
		writeFileSync(join(realVault, note), `# ${note}\n\nSee [[Nowhere at all]].\n`);
	}
	symlinkSync(realVault, linkedVault);
});

afterEach(async () => {
	await Promise.all(clients.splice(0).map((client) => client.close()));
	await Promise.all(hosts.splice(0).map((host) => host.quit()));
});

afterAll(() => temp.remove());

async function serve(vault: string): Promise<{ host: HeadlessProcess; client: TestClient; lock: LockFileContent }> {
	const host = await HeadlessProcess.start({ vault, home });
	hosts.push(host);
	const lock = JSON.parse(readFileSync(host.lockFile, "utf8")) as LockFileContent;
	const client = await connectOrThrow(host.port, { token: lock.authToken });
	clients.push(client);
	await client.initialize();
	return { host, client, lock };
}

function result<T>(answer: JsonRpcAnswer): T {
	if (answer.error) throw new Error(`JSON-RPC error ${answer.error.code}: ${answer.error.message}`);
	return answer.result as T;
}

interface ToolAnswer {
	content: { type: string; text: string }[];
	isError?: boolean;
}

async function diagnostics(
	client: TestClient,
	args: Record<string, unknown>,
): Promise<{ uri: string; diagnostics: { code: string }[] }[]> {
	const answer = result<ToolAnswer>(await client.request("tools/call", { name: "getDiagnostics", arguments: args }));
	if (answer.isError) throw new Error(answer.content[0]?.text);
	return JSON.parse(answer.content[0]?.text ?? "") as { uri: string; diagnostics: { code: string }[] }[];
}

describe.each([
	["served directly", realVault],
	["reached through a symlink", linkedVault],
])("a vault named with spaces, accents and emoji, %s", (_label, vault) => {
	it("lists the real path (and the link) in the lock file's workspaceFolders", async () => {
		const { host, lock } = await serve(vault);
		expect(lock.workspaceFolders).toEqual(vault === realVault ? [realVault] : [realVault, linkedVault]);
		expect(lock.ideName).toBe(
			`Obsidian · ${vault === realVault ? VAULT_NAME : `linked ${NFD} vault`} (headless, pid ${String(host.child.pid)})`,
		);
	});

	it("files/read finds each note by relative path, by absolute path under the vault and under its real path", async () => {
		const { client } = await serve(vault);
		for (const note of NOTES) {
			for (const path of [note, join(vault, note), join(realVault, note)]) {
				const read = result<{ path: string; filePath: string; text: string }>(
					await client.request("files/read", { path }),
				);
				expect(read).toMatchObject({
					path: note,
					filePath: join(vault, note),
					text: `# ${note}\n\nSee [[Nowhere at all]].\n`,
				});
			}
		}
	});

	it("resources/list URIs name every note and round-trip through resources/read", async () => {
		const { client } = await serve(vault);
		const listed = result<{ resources: { uri: string; name: string }[] }>(
			await client.request("resources/list", {}),
		);
		expect(listed.resources.map((resource) => resource.name).sort()).toEqual([...NOTES].sort());
		for (const resource of listed.resources) {
			expect(fileURLToPath(resource.uri)).toBe(join(vault, resource.name));
			const read = result<{ contents: { uri: string; text: string }[] }>(
				await client.request("resources/read", { uri: resource.uri }),
			);
			expect(read.contents).toEqual([
				{
					uri: resource.uri,
					mimeType: "text/markdown",
					text: `# ${resource.name}\n\nSee [[Nowhere at all]].\n`,
				},
			]);
		}
	});

	it('getDiagnostics answers the CLI\'s raw "file://" + path uri for each note, under that same uri', async () => {
		const { client } = await serve(vault);
		for (const note of NOTES) {
			for (const root of [vault, realVault]) {
				const uri = `file://${join(root, note)}`;
				const answer = await diagnostics(client, { uri });
				expect(answer).toEqual([
					{ uri, diagnostics: [expect.objectContaining({ code: "unresolved-link" }) as unknown] },
				]);
			}
		}
		const whole = await diagnostics(client, {});
		expect(whole).toHaveLength(NOTES.length);
	});
});
