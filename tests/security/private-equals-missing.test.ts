import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { assembleHeadlessBridge, type HeadlessBridge } from "../../src/headless/headless-bridge";
import { readHttpTokenRecord } from "../../src/vault-tools/serve/http-token-record";
import type { LockFileContent } from "../../src/server/lock-file";
import { HeadlessProcess } from "../helpers/headless-process";
import { makeTempDir } from "../helpers/temp-dir";
import { connectOrThrow, type TestClient } from "../helpers/test-client";
import { pollUntil } from "../helpers/wait-until";
import { startStdioServer, type StdioServer } from "../vault-tools/stdio/stdio-server-process";
import {
	CASES,
	PRIVATE_FOLDER,
	PRIVATE_TAG,
	PRIVATE_WORDS,
	withPlaceholders,
	writeVault,
	type PrivateCase,
} from "./private-and-missing-vault";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/**
 * Issue 14's acceptance table: every surface is asked the same questions about each private note and about a
 * missing path of the same shape (its twin), and must answer both alike, byte for byte once each path is replaced
 * by a placeholder: the IDE channel (methods and tools over the WebSocket, in process and in the headless host's
 * process), and the vault tools in process, over stdio with no bridge (the folder fallback), over stdio relaying to
 * the running headless host, and over the host's HTTP endpoint. The vault-tools transports carry the same tool
 * result, so their answers must also equal each other's.
 *
 * Writes onto a path a tag-private note holds cannot succeed while on a free path they can: there every review the
 * call opens is rejected, as a user would, and Claude's answer must equal the answer a Reject gives on the twin.
 */

/** A tool call's answer as one comparable text: its text and isError, or the JSON-RPC error's code and message. */
type Answer = string;

const toolAnswer = (result: { content?: { text?: string }[]; isError?: boolean }): Answer =>
	JSON.stringify({
		isError: result.isError === true,
		text: (result.content ?? []).map((block) => block.text ?? "").join("\n"),
	});
const errorAnswer = (code: number, message: string): Answer =>
	JSON.stringify({ error: code, message: message.replace(/^MCP error -?\d+: /, "") });

function answerOfReply(reply: string | undefined): Answer {
	if (reply === undefined) return "no reply";
	const message = JSON.parse(reply) as {
		result?: { content?: { text?: string }[]; isError?: boolean };
		error?: { code: number; message: string };
	};
	return message.error ? errorAnswer(message.error.code, message.error.message) : toolAnswer(message.result ?? {});
}

/** The private notes' words in an answer, beyond those the question itself asked for (answers may repeat a query). */
function leakedWords(answer: Answer, question: unknown): string[] {
	const asked = JSON.stringify(question ?? {});
	return PRIVATE_WORDS.filter((word) => !asked.includes(word) && answer.includes(word));
}

/** Where writes wait for a user's decision, and how the test rejects them. */
interface Reviews {
	pending(): Promise<boolean>;
	rejectPending(): Promise<void>;
}

interface VaultToolSurface {
	name: string;
	call(tool: string, args: Record<string, unknown>): Promise<Answer>;
	reviews?: Reviews;
}

interface IdeSurface {
	name: string;
	request(method: string, params: unknown): Promise<Answer>;
	reviews: Reviews;
}

/** Runs a call that may open a review; every review it opens is rejected. Says whether one was. */
async function decided(call: () => Promise<Answer>, reviews: Reviews | undefined): Promise<Answer> {
	let answer: Answer | undefined;
	const running = call().then((value) => (answer = value));
	let rejected = false;
	await pollUntil(
		async () => {
			if (answer !== undefined) return true;
			if (!rejected && reviews && (await reviews.pending())) {
				rejected = true;
				await reviews.rejectPending();
			}
			return undefined;
		},
		"the call to be answered (its review rejected)",
		{ timeoutMs: 20_000, intervalMs: 25 },
	);
	await running;
	return `${rejected ? "[rejected in review] " : ""}${answer ?? ""}`;
}

/** One POST to the vault tools' HTTP endpoint; the body of its answer. */
function postJson(port: number, token: string, body: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const request = httpRequest(
			{
				host: "127.0.0.1",
				port,
				path: "/mcp",
				method: "POST",
				headers: {
					Authorization: `Bearer ${token}`,
					"Content-Type": "application/json",
					Accept: "application/json, text/event-stream",
				},
			},
			(response) => {
				let text = "";
				response.setEncoding("utf8");
				response.on("data", (chunk: string) => (text += chunk));
				response.on("end", () => resolve(text));
				response.on("error", reject);
			},
		);
		request.on("error", reject);
		request.end(body);
	});
}

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const port = (server.address() as { port: number }).port;
			server.close(() => resolve(port));
		});
	});
}

/** The vault-tool questions asked about one path (the private note's, or its twin's). */
function vaultQuestions(privateCase: PrivateCase, side: "asked" | "twin"): [string, string, Record<string, unknown>][] {
	const path = side === "asked" ? privateCase.asked : privateCase.twin;
	const word = side === "asked" ? privateCase.word : privateCase.twinWord;
	const stem = path.split("/").pop()?.replace(/\.md$/, "") ?? path;
	const questions: [string, string, Record<string, unknown>][] = [
		["read_note", "read_note", { path }],
		["read_note by name", "read_note", { path: stem }],
		["outline", "outline", { path }],
		["links", "links", { path }],
		["properties", "properties", { path }],
		["search its text", "search", { query: word }],
		["search its path", "search", { query: stem, mode: "path" }],
		["edit_note", "edit_note", { path, edits: [{ target: "Anything", op: "append", content: "more" }] }],
		["set_properties", "set_properties", { path, set: { status: "done" } }],
		["move_note from it", "move_note", { path, to: "Public/Moved here.md" }],
	];
	if (privateCase.folder) {
		const folder = privateCase.folder[side];
		questions.push(
			["list_notes in its folder", "list_notes", { folder }],
			["search in its folder", "search", { query: "the", folder }],
		);
	}
	return questions;
}

/** The write that cannot answer alike by design unless its review is rejected (see the file comment). */
const createQuestion = (path: string): Record<string, unknown> => ({ path, content: "A new note.\n" });

const REVIEW_TAB = "cross-surface review";
const FALLBACK = "stdio, no bridge (folder fallback)";
const WRITE_TOOLS = new Set(["edit_note", "set_properties", "move_note", "create_note"]);

function ideQuestions(vault: string, path: string): [string, string, unknown][] {
	const absolute = join(vault, ...path.split("/"));
	const uri = pathToFileURL(absolute).href;
	return [
		["files/read (vault path)", "files/read", { path }],
		["files/read (absolute)", "files/read", { path: absolute }],
		["resources/read", "resources/read", { uri }],
		["openFile", "tools/call", { name: "openFile", arguments: { filePath: absolute, makeFrontmost: false } }],
		["getDiagnostics {uri}", "tools/call", { name: "getDiagnostics", arguments: { uri } }],
	];
}

const openDiffParams = (vault: string, path: string): unknown => {
	const absolute = join(vault, ...path.split("/"));
	return {
		name: "openDiff",
		arguments: {
			old_file_path: absolute,
			new_file_path: absolute,
			new_file_contents: "Proposed.\n",
			tab_name: REVIEW_TAB,
		},
	};
};

describe("a private note answers exactly as a missing one, on every surface (issue 14)", () => {
	const temp = makeTempDir("private-equals-missing");
	const vault = join(temp.path, "vault");
	const homes = {
		inProcess: join(temp.path, "home-in-process"),
		host: join(temp.path, "home-host"),
		fallback: join(temp.path, "home-fallback"),
	};
	let inProcess: HeadlessBridge | undefined;
	let host: (HeadlessProcess & { port: number; lockFile: string }) | undefined;
	const clients: TestClient[] = [];
	const stdioServers: StdioServer[] = [];
	const ideSurfaces: IdeSurface[] = [];
	const vaultSurfaces: VaultToolSurface[] = [];
	/** Answers by case, question and surface, for the comparison across surfaces. */
	const recorded = new Map<string, Map<string, Map<string, Answer>>>();

	const record = (privateCase: PrivateCase, question: string, surface: string, answer: Answer): void => {
		const byQuestion = recorded.get(privateCase.kind) ?? new Map<string, Map<string, Answer>>();
		recorded.set(privateCase.kind, byQuestion);
		const bySurface = byQuestion.get(question) ?? new Map<string, Answer>();
		byQuestion.set(question, bySurface);
		bySurface.set(surface, answer);
	};

	beforeAll(async () => {
		for (const home of Object.values(homes)) mkdirSync(home);
		mkdirSync(vault);
		writeVault(vault);
		const rules = { folders: [PRIVATE_FOLDER], tags: [PRIVATE_TAG] };

		// 1. The headless host's assembly in this process: its IDE channel and its vault tools.
		const assembled = assembleHeadlessBridge({
			vaultPath: vault,
			ideName: "Obsidian · cross-surface",
			homeDir: homes.inProcess,
			port: 0,
			privacyRules: () => rules,
			log: () => undefined,
		});
		inProcess = assembled;
		const status = await assembled.bridge.host.start();
		if (status.state !== "listening" || status.port === undefined || !status.lockFilePath)
			throw new Error(`The in-process bridge did not start: ${status.error ?? status.state}`);
		const inProcessToken = (JSON.parse(readFileSync(status.lockFilePath, "utf8")) as LockFileContent).authToken;
		const inProcessReviews: Reviews = {
			pending: () => Promise.resolve(assembled.bridge.reviews.list().length > 0),
			rejectPending: async () => {
				for (const review of assembled.bridge.reviews.list()) assembled.bridge.reviews.reject(review.title);
				await Promise.resolve();
			},
		};

		// 2. The headless host as its own process: its IDE channel, its HTTP endpoint, and the bridge the relay finds.
		const mcpPort = await freePort();
		host = await HeadlessProcess.start({
			vault,
			home: homes.host,
			args: ["--private-folder", PRIVATE_FOLDER, "--private-tag", PRIVATE_TAG, "--mcp-port", String(mcpPort)],
		});
		const running = host;
		await running.waitForOutput(/(MCP \(vault tools\): http:\/\/127\.0\.0\.1:\d+\/mcp)/);
		const hostToken = (JSON.parse(readFileSync(running.lockFile, "utf8")) as LockFileContent).authToken;
		// The endpoint's token of this start, published for Claude Code's headers helper while it listens.
		const httpToken = readHttpTokenRecord(homes.host, mcpPort).token ?? "no token published";
		const hostReviews: Reviews = {
			pending: async () => {
				const before = running.stdout.length;
				running.send("diff list");
				running.send("status");
				const listed = await running.waitFor(
					() => (/^\{"state"/m.test(running.stdout.slice(before)) ? running.stdout.slice(before) : undefined),
					"the status line after diff list",
					10_000,
				);
				return /"tab_name"/.test(listed);
			},
			rejectPending: async () => {
				const before = running.stdout.length;
				running.send("diff reject");
				await running.waitFor(
					() => (/Rejected "/.test(running.stdout.slice(before)) ? true : undefined),
					"the review to be rejected",
					10_000,
				);
			},
		};

		for (const [name, port, token, reviews] of [
			["IDE channel (in process)", status.port, inProcessToken, inProcessReviews],
			["IDE channel (headless host process)", running.port, hostToken, hostReviews],
		] as const) {
			const client = await connectOrThrow(port, { token });
			clients.push(client);
			await client.initialize();
			ideSurfaces.push({
				name,
				reviews,
				request: async (method, params) => {
					const answer = await client.request(method, params);
					return JSON.stringify({ result: answer.result, error: answer.error });
				},
			});
		}

		const vaultTools = assembled.bridge.vaultTools;
		if (!vaultTools) throw new Error("The in-process bridge has no vault tools");
		let nextId = 1;
		vaultSurfaces.push({
			name: "vault tools in process",
			reviews: inProcessReviews,
			call: async (tool, args) =>
				answerOfReply(
					await vaultTools.answer(
						JSON.stringify({
							jsonrpc: "2.0",
							id: nextId++,
							method: "tools/call",
							params: { name: tool, arguments: args },
						}),
						0,
						new AbortController().signal,
					),
				),
		});

		const fallback = await startStdioServer(vault, homes.fallback);
		const relay = await startStdioServer(vault, homes.host);
		stdioServers.push(fallback, relay);
		const overStdio =
			(server: StdioServer) =>
			async (tool: string, args: Record<string, unknown>): Promise<Answer> => {
				try {
					return toolAnswer(
						(await server.client.callTool({ name: tool, arguments: args })) as {
							content?: { text?: string }[];
							isError?: boolean;
						},
					);
				} catch (error) {
					const failure = error as { code?: number; message?: string };
					return errorAnswer(failure.code ?? 0, failure.message ?? String(error));
				}
			};
		vaultSurfaces.push({ name: FALLBACK, call: overStdio(fallback) });
		vaultSurfaces.push({
			name: "stdio relaying to the headless host",
			call: overStdio(relay),
			reviews: hostReviews,
		});
		vaultSurfaces.push({
			name: "HTTP (the headless host's endpoint)",
			reviews: hostReviews,
			call: async (tool, args) => {
				const body = JSON.stringify({
					jsonrpc: "2.0",
					id: nextId++,
					method: "tools/call",
					params: { name: tool, arguments: args },
				});
				return answerOfReply(await postJson(mcpPort, httpToken, body));
			},
		});
	}, FIXTURE_TIMEOUT_MS);

	afterAll(async () => {
		await Promise.allSettled(stdioServers.map((server) => server.close()));
		await Promise.allSettled(clients.map((client) => client.close()));
		inProcess?.dispose();
		await inProcess?.bridge.host.stop();
		if (host) {
			host?.kill();
			await host?.exited;
		}
		temp.remove();
	}, 30_000);

	describe.each(CASES)("$kind", (privateCase) => {
		/** `folders`: the question names the folders (list_notes, search in a folder), which are replaced too. */
		const compare = (question: string, asked: Answer, twin: Answer, folders = false): string | undefined => {
			const a = withPlaceholders(asked, vault, privateCase.asked, [
				privateCase.word,
				...(folders && privateCase.folder ? [privateCase.folder.asked] : []),
			]);
			const b = withPlaceholders(twin, vault, privateCase.twin, [
				privateCase.twinWord,
				...(folders && privateCase.folder ? [privateCase.folder.twin] : []),
			]);
			return a === b ? undefined : `${question}\n  private: ${a}\n  missing: ${b}`;
		};

		it.each([0, 1])(
			"the IDE channel answers as for its missing twin (%s: 0 in process, 1 the host's process)",
			async (index) => {
				const surface = ideSurfaces[index];
				if (!surface) throw new Error("no IDE surface");
				const differences: string[] = [];
				const asked = ideQuestions(vault, privateCase.asked);
				const twin = ideQuestions(vault, privateCase.twin);
				for (const [i, [question, method, params]] of asked.entries()) {
					const answer = await surface.request(method, params);
					const control = await surface.request(method, twin[i]?.[2]);
					const leaked = leakedWords(answer, params);
					if (leaked.length > 0)
						differences.push(`${question} shows the private notes' text: ${leaked.join(", ")}`);
					record(
						privateCase,
						`IDE ${question}`,
						surface.name,
						withPlaceholders(answer, vault, privateCase.asked, [privateCase.word]),
					);
					const difference = compare(question, answer, control);
					if (difference) differences.push(difference);
				}
				const openDiff = await decided(
					() => surface.request("tools/call", openDiffParams(vault, privateCase.asked)),
					surface.reviews,
				);
				const leaked = leakedWords(openDiff, {});
				if (leaked.length > 0) differences.push(`openDiff shows the private notes' text: ${leaked.join(", ")}`);
				if (!privateCase.openDiffDiffersByDesign && !privateCase.missingOnThisVolume)
					expect(openDiff).toMatch(
						/^\{"result":\{"content":\[\{"type":"text","text":"openDiff refused: .* is private or hidden/,
					);
				if (!privateCase.openDiffDiffersByDesign && !privateCase.twinOutsidePrivateFolder) {
					const control = await decided(
						() => surface.request("tools/call", openDiffParams(vault, privateCase.twin)),
						surface.reviews,
					);
					const difference = compare("openDiff", openDiff, control);
					if (difference) differences.push(difference);
				}
				expect(differences).toEqual([]);
			},
			30_000,
		);

		it.each([0, 1, 2, 3])(
			"vault tools answer as for its missing twin (%s: 0 in process, 1 stdio fallback, 2 stdio relay, 3 HTTP)",
			async (index) => {
				const surface = vaultSurfaces[index];
				if (!surface) throw new Error("no vault-tools surface");
				const differences: string[] = [];
				const asked = vaultQuestions(privateCase, "asked");
				const twin = vaultQuestions(privateCase, "twin");
				for (const [i, [question, tool, args]] of asked.entries()) {
					const answer = await surface.call(tool, args);
					const control = await surface.call(tool, twin[i]?.[2] ?? {});
					const leaked = leakedWords(answer, args);
					if (leaked.length > 0)
						differences.push(`${question} shows the private notes' text: ${leaked.join(", ")}`);
					record(
						privateCase,
						question,
						surface.name,
						withPlaceholders(answer, vault, privateCase.asked, [privateCase.word]),
					);
					const difference = compare(question, answer, control, "folder" in args);
					if (difference) differences.push(difference);
				}
				if (!privateCase.twinOutsidePrivateFolder) {
					// Creating onto the path: a Reject on the twin's review, and the same answer for the private note.
					const created = await decided(
						() => surface.call("create_note", createQuestion(privateCase.asked)),
						surface.reviews,
					);
					const createdOnTwin = await decided(
						() => surface.call("create_note", createQuestion(privateCase.twin)),
						surface.reviews,
					);
					const difference = compare("create_note onto it", created, createdOnTwin);
					if (difference) differences.push(difference);
				}
				expect(differences).toEqual([]);
			},
			40_000,
		);

		it("the vault-tools transports answer each question alike (in process, stdio fallback, stdio relay, HTTP)", () => {
			const byQuestion = recorded.get(privateCase.kind);
			const differences: string[] = [];
			for (const [question, tool] of vaultQuestions(privateCase, "asked")) {
				const bySurface = byQuestion?.get(question);
				expect({ question, surfaces: bySurface?.size }).toEqual({ question, surfaces: vaultSurfaces.length });
				const reference = bySurface?.get(vaultSurfaces[0]?.name ?? "");
				for (const [surface, answer] of bySurface ?? []) {
					// With no bridge, mcp --vault refuses every write with its reason, note or no note.
					if (WRITE_TOOLS.has(tool) && surface === FALLBACK) continue;
					if (answer !== reference)
						differences.push(`${question} over ${surface}\n  ${answer}\n  in process: ${reference ?? ""}`);
				}
			}
			for (const [question] of ideQuestions(vault, privateCase.asked)) {
				const bySurface = byQuestion?.get(`IDE ${question}`);
				expect({ question, surfaces: bySurface?.size }).toEqual({ question, surfaces: ideSurfaces.length });
				const answers = [...(bySurface?.values() ?? [])];
				if (new Set(answers).size !== 1) differences.push(`IDE ${question}: ${answers.join("\n  vs ")}`);
			}
			expect(differences).toEqual([]);
		});
	});

	it("the relay really relayed to the host (not the folder), and nothing private was written or moved", () => {
		const relayed =
			host?.traces().filter((event) => event.direction === "in" && event.method === "vaultTools/call").length ??
			0;
		expect(relayed).toBeGreaterThan(CASES.length);
		expect(readdirSync(join(vault, "Public")).sort()).toEqual(["Open.md", "link"]);
		expect(
			readdirSync(join(vault, "Secret"))
				.map((name) => name.normalize("NFC"))
				.sort(),
		).toEqual(["Plan.md", "Résumé.md"]);
	});
});
