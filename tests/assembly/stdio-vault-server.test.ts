import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { startStdioVaultServer } from "../../src/assembly/stdio-vault-server";
import { WARM_UP_DONE } from "../../src/vault-tools/stdio/folder-reading";
import { makeTempDir } from "../helpers/temp-dir";
import { pollUntil, waitUntil } from "../helpers/wait-until";

interface Answer {
	id: number | null;
	result?: { content?: { text: string }[]; isError?: boolean; tools?: { name: string }[] };
	error?: { code: number; message: string };
}

/** The server on in-memory stdin/stdout in a temp HOME without lock files: the folder answers. */
function serve(files: Record<string, string>, privacy = { folders: ["Private"], tags: [] as string[] }) {
	const temp = makeTempDir("stdio-vault-server");
	const vault = join(temp.path, "Vault");
	for (const [path, text] of Object.entries(files)) {
		mkdirSync(join(vault, path, ".."), { recursive: true });
		writeFileSync(join(vault, path), text);
	}
	const input = new PassThrough();
	const output = new PassThrough();
	const answers: Answer[] = [];
	let buffered = "";
	output.on("data", (chunk: Buffer) => {
		buffered += chunk.toString("utf8");
		for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
			answers.push(JSON.parse(buffered.slice(0, newline)) as Answer);
			buffered = buffered.slice(newline + 1);
		}
	});
	const logs: string[] = [];
	const server = startStdioVaultServer({
		vaultPath: vault,
		input,
		output,
		serverInfo: { name: "test-vault-tools", version: "1" },
		relay: {
			callMethod: "vaultTools/call",
			requestMethod: "vaultTools/request",
			privacyMethod: "vaultTools/privacy",
			clientName: "test-relay",
		},
		homeDir: join(temp.path, "home"),
		privacy,
		log: (message) => logs.push(message),
		watch: false,
	});
	let next = 1;
	const request = async (method: string, params: object = {}): Promise<Answer> => {
		const id = next++;
		input.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
		return pollUntil(() => answers.find((answer) => answer.id === id), `the answer to ${method}`, {
			timeoutMs: 20_000,
		});
	};
	const call = async (name: string, args: object): Promise<{ text: string; isError: boolean }> => {
		const answer = await request("tools/call", { name, arguments: args });
		return {
			text: (answer.result?.content ?? []).map((block) => block.text).join("\n"),
			isError: answer.result?.isError === true,
		};
	};
	const start = async (): Promise<void> => {
		await request("initialize", {
			protocolVersion: "2025-06-18",
			capabilities: {},
			clientInfo: { name: "test", version: "1" },
		});
		input.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
	};
	const stop = async (): Promise<void> => {
		input.end();
		await server.closed;
		temp.remove();
	};
	const send = (line: string): void => void input.write(`${line}\n`);
	return { vault, logs, answers, send, request, call, start, stop };
}

describe("startStdioVaultServer without a bridge", () => {
	it("lists the twelve vault tools and answers reads from the folder, warmed once", async () => {
		const s = serve({ "Note.md": "# Note\nhello world\n" });
		try {
			await s.start();
			const tools = (await s.request("tools/list")).result?.tools ?? [];
			expect(tools).toHaveLength(12);
			expect((await s.call("read_note", { path: "Note" })).text).toMatch(
				/^Note\.md \| lines 1-3 \| version \S+\n# Note\nhello world\n$/,
			);
			await waitUntil(() => s.logs.some((line) => line.startsWith(WARM_UP_DONE)), "the folder warm-up");
		} finally {
			await s.stop();
		}
	});

	it("hides the command line's private folders and refuses writes with the reason, writing nothing", async () => {
		const s = serve({ "Note.md": "text\n", "Private/Secret.md": "hidden words\n" });
		try {
			await s.start();
			expect((await s.call("search", { query: "hidden" })).text).toBe('No matches for "hidden" (mode text).');
			const write = await s.call("edit_note", {
				path: "Note",
				edits: [{ target: { oldText: "text" }, op: "replace", content: "new" }],
			});
			expect(write.isError).toBe(true);
			expect(write.text).toMatch(
				/^edit_note: Obsidian is not running for the vault "Vault" \(.*\), so this change cannot be made/,
			);
			expect(readFileSync(join(s.vault, "Note.md"), "utf8")).toBe("text\n");
		} finally {
			await s.stop();
		}
	});

	it("answers a frame that is not JSON with a parse error and keeps serving", async () => {
		const s = serve({ "Note.md": "x\n" });
		try {
			await s.start();
			s.send("{not json");
			const parseError = await pollUntil(
				() => s.answers.find((answer) => answer.error !== undefined),
				"the parse error",
				{ timeoutMs: 20_000 },
			);
			expect(parseError.error?.code).toBe(-32700);
			expect((await s.call("list_notes", {})).text.split("\n")[0]).toBe("Note.md");
		} finally {
			await s.stop();
		}
	});
});
