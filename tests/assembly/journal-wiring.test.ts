import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import {
	classifyOutcome,
	folderHostJournalStore,
	noteReferences,
	pathLocator,
} from "../../src/assembly/journal-wiring";
import { startStdioVaultServer } from "../../src/assembly/stdio-vault-server";
import { FolderJournalStore } from "../../src/journal/folder-journal-store";
import { Journal } from "../../src/journal/journal";
import { MemoryJournalStore } from "../../src/journal/memory-journal-store";
import { pluginJournalFolder } from "../../src/obsidian/activity/plugin-journal";
import { REJECTED_BY_USER } from "../../src/vault-tools/kit/ports";
import { VAULT_TOOLS_RELAY_CLIENT_NAME } from "../../src/vault-tools/serve/relay-methods";
import { TAGS_NOT_KNOWN } from "../../src/vault/privacy/privacy";
import { VaultPrivacy } from "../../src/vault/privacy/vault-privacy";
import { VaultPaths } from "../../src/vault/vault-paths";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";
import { makeTempDir } from "../helpers/temp-dir";
import { pollUntil } from "../helpers/wait-until";

const TOKEN = "9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0";

function populate(vault: string): void {
	mkdirSync(join(vault, "Private"));
	writeFileSync(join(vault, "a.md"), "# A\n\nalpha [[b]]\n");
	writeFileSync(join(vault, "b.md"), "# B\n");
	writeFileSync(join(vault, "Private", "secret-plan.md"), "# Hidden\n\nconfidential words\n");
}

/** Every file of the store's folder, as text. */
function storeText(folder: string): string {
	return readdirSync(folder, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => readFileSync(join(entry.parentPath, entry.name), "latin1"))
		.join("\n");
}

describe("the journal wired into every surface", () => {
	let fixture: AssembledBridge | undefined;
	let storeFolder = "";
	let journal: Journal | undefined;

	beforeEach(async () => {
		const temp = makeTempDir("journal-wiring");
		storeFolder = join(temp.path, "journal");
		fixture = await startAssembledBridge({
			populate,
			privacy: { folders: ["Private"] },
			journalStore: new FolderJournalStore(storeFolder),
			reviewVaultToolWrites: () => false,
		});
		journal = fixture.bridge.activity?.journal;
	}, FIXTURE_TIMEOUT_MS);

	afterEach(async () => {
		await fixture?.stop();
	});

	it("records an IDE client's calls under its session: client name, pid and connection", async () => {
		const client = await fixture!.client({ pid: 4242 });
		await pollUntil(
			() => fixture!.bridge.host.status().clients.find((status) => status.pid === 4242),
			"ide_connected",
		);
		await client.request("tools/call", { name: "getWorkspaceFolders", arguments: {} });
		await client.request("tools/call", {
			name: "getDiagnostics",
			arguments: { uri: `file://${join(fixture!.vaultPath, "a.md")}` },
		});
		const entries = await journal!.entries({ surface: "ide" });
		expect(entries.map((entry) => entry.tool)).toEqual(["getDiagnostics", "getWorkspaceFolders"]);
		const [diagnostics] = entries;
		expect(diagnostics?.session).toMatchObject({ surface: "ide", client: "test-client", pid: 4242 });
		expect(diagnostics?.session.connection).toBeGreaterThan(0);
		expect(diagnostics?.notes).toEqual(["a.md"]);
		expect(diagnostics?.outcome).toBe("ok");
		expect(diagnostics?.answerBytes).toBeGreaterThan(0);
		expect(new Set(entries.map((entry) => entry.session.key)).size).toBe(1);
	});

	it("records a relayed vault-tool call once, as the relay's, not as an IDE call", async () => {
		const relay = await fixture!.client();
		// The fixture's client says it is "test-client"; a relay names itself in initialize.
		const named = await (
			await import("../helpers/test-client")
		).connectOrThrow(fixture!.port, { token: fixture!.token });
		await named.request("initialize", {
			protocolVersion: "2025-11-25",
			capabilities: {},
			clientInfo: { name: VAULT_TOOLS_RELAY_CLIENT_NAME, version: "1" },
		});
		await named.request("vaultTools/call", { name: "read_note", arguments: { path: "a.md" } });
		await named.close();
		await relay.close();
		const entries = await journal!.entries();
		expect(entries).toHaveLength(1);
		expect(entries[0]).toMatchObject({
			tool: "read_note",
			notes: ["a.md"],
			outcome: "ok",
			session: { surface: "vault-tools-relay", client: VAULT_TOOLS_RELAY_CLIENT_NAME },
		});
	});

	it("records stateless HTTP calls under one session named by the client's initialize", async () => {
		const server = fixture!.bridge.vaultTools!;
		const signal = new AbortController().signal;
		await server.answer(
			JSON.stringify({
				jsonrpc: "2.0",
				id: 1,
				method: "initialize",
				params: {
					protocolVersion: "2025-11-25",
					capabilities: {},
					clientInfo: { name: "claude-code", version: "2" },
				},
			}),
			0,
			signal,
		);
		await server.answer(
			JSON.stringify({
				jsonrpc: "2.0",
				id: 2,
				method: "tools/call",
				params: { name: "read_note", arguments: { path: "b.md" } },
			}),
			0,
			signal,
		);
		await server.answer(
			JSON.stringify({
				jsonrpc: "2.0",
				id: 3,
				method: "tools/call",
				params: { name: "read_note", arguments: { path: "missing.md" } },
			}),
			0,
			signal,
		);
		const entries = await journal!.entries({ surface: "vault-tools-http" });
		expect(entries.map((entry) => [entry.tool, entry.outcome])).toEqual([
			["read_note", "error"],
			["read_note", "ok"],
		]);
		expect(entries[0]?.session.client).toBe("claude-code");
		expect(entries[0]?.session.key).toBe(entries[1]?.session.key);
	});

	it("never stores a private note's name or text, nor a token planted in the arguments", async () => {
		const server = fixture!.bridge.vaultTools!;
		const session = server.session({ id: 9, send: () => undefined });
		const call = (name: string, args: object, id: number): Promise<void> =>
			session.handleMessage(
				JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } }),
			);
		await call("read_note", { path: "Private/secret-plan.md" }, 1);
		await call("read_note", { path: "[[secret-plan]]" }, 2);
		await call("read_note", { path: "a.md", token: TOKEN }, 3);
		await call("search", { query: `look for ${TOKEN} here` }, 4);
		await call(
			"edit_note",
			{
				path: "Private/secret-plan.md",
				edits: [{ target: { oldText: "confidential" }, op: "replace", content: "confidential words" }],
			},
			5,
		);
		const client = await fixture!.client();
		await client.request("tools/call", {
			name: "openFile",
			arguments: { filePath: join(fixture!.vaultPath, "Private", "secret-plan.md") },
		});
		await client.request("files/read", { path: "Private/secret-plan.md" });
		await journal!.flush();
		const entries = await journal!.entries();
		expect(entries.length).toBeGreaterThanOrEqual(7);
		const stored = storeText(storeFolder);
		expect(stored).toContain("read_note");
		expect(stored).toContain("(a private note)");
		for (const secret of [
			"secret-plan",
			"Hidden",
			"confidential",
			TOKEN.slice(0, 20),
			TOKEN.slice(-20),
			fixture!.token.slice(0, 20),
		])
			expect(stored).not.toContain(secret);
	});
});

describe("noteReferences", () => {
	it("names a note that does not exist (a create's target) by its path, unless the folder rules make it private; a note whose tags are not known stays private", () => {
		const temp = makeTempDir("journal-references");
		try {
			populate(temp.path);
			writeFileSync(join(temp.path, "Tagged.md"), "---\ntags: [secret]\n---\nhush\n");
			writeFileSync(join(temp.path, "Unparsed.md"), "# Not parsed yet\n");
			// As Obsidian answers: a note it has not parsed, or a path with no note, has tags not known.
			const tags: Record<string, readonly string[]> = { "a.md": [], "b.md": [], "Tagged.md": ["secret"] };
			const privacy = new VaultPrivacy({
				paths: new VaultPaths(temp.path),
				rules: () => ({ folders: ["Private"], tags: ["secret"] }),
				tagsOf: (path) => tags[path] ?? TAGS_NOT_KNOWN,
			});
			const references = noteReferences(privacy, () => undefined, pathLocator(privacy.paths));
			expect(references.classify("Ideas/new idea.md")).toEqual({ path: "Ideas/new idea.md" });
			expect(references.classify(join(temp.path, "Drafts", "never written.md"))).toEqual({
				path: "Drafts/never written.md",
			});
			expect(references.classify("a.md")).toEqual({ path: "a.md" });
			expect(references.classify("Private/new plan.md")).toBe("private");
			expect(references.classify("Private/secret-plan.md")).toBe("private");
			expect(references.classify(".hidden/new.md")).toBe("private");
			expect(references.classify("Tagged.md")).toBe("private");
			expect(references.classify("Unparsed.md")).toBe("private");
			expect(references.classify("../outside.md")).toBeUndefined();
		} finally {
			temp.remove();
		}
	});
});

describe("classifyOutcome", () => {
	const answer = (text: string) => ({
		kind: "result" as const,
		result: { content: [{ type: "text", text }] },
		bytes: text.length,
	});

	it("counts the user's rejection of a review, from the IDE or a vault tool, as rejected", () => {
		expect(classifyOutcome("openDiff", answer("DIFF_REJECTED")).outcome).toBe("rejected");
		expect(
			classifyOutcome("edit_note", answer(`Not applied: ${REJECTED_BY_USER}. Inbox.md is unchanged (version 3).`))
				.outcome,
		).toBe("rejected");
		expect(
			classifyOutcome(
				"edit_note",
				answer(`Not applied: ${REJECTED_BY_USER}: too long. Inbox.md is unchanged (version 3).`),
			).outcome,
		).toBe("rejected");
		expect(
			classifyOutcome("create_note", answer(`Not created: ${REJECTED_BY_USER}. Nothing was written.`)).outcome,
		).toBe("rejected");
	});

	it("does not count a note that quotes the rejection's words as a rejection (a read_note answer is ok)", () => {
		const read = answer(
			`Journal.md | lines 1-2 | version 1\n1: Claude said "${REJECTED_BY_USER}" twice today.\n2: Not applied: ${REJECTED_BY_USER}`,
		);
		expect(classifyOutcome("read_note", read)).toEqual({ outcome: "ok" });
		expect(
			classifyOutcome(
				"edit_note",
				answer(`Not applied: the call was cancelled before the change was written. Inbox.md is unchanged.`),
			),
		).toEqual({ outcome: "ok" });
	});
});

describe("the stdio server's journal", () => {
	it("records the calls it answers from the folder, under its client's session", async () => {
		const temp = makeTempDir("journal-stdio");
		const vault = join(temp.path, "Vault");
		mkdirSync(vault);
		writeFileSync(join(vault, "note.md"), "# Note\n");
		const store = new MemoryJournalStore();
		const input = new PassThrough();
		const output = new PassThrough();
		const lines: string[] = [];
		output.on("data", (chunk: Buffer) =>
			lines.push(
				...chunk
					.toString("utf8")
					.split("\n")
					.filter((line) => line !== ""),
			),
		);
		const server = startStdioVaultServer({
			vaultPath: vault,
			input,
			output,
			serverInfo: { name: "test", version: "1" },
			relay: {
				callMethod: "vaultTools/call",
				requestMethod: "vaultTools/request",
				privacyMethod: "vaultTools/privacy",
				clientName: "test-relay",
			},
			homeDir: join(temp.path, "home"),
			privacy: { folders: [], tags: [] },
			log: () => undefined,
			watch: false,
			journalStore: store,
		});
		try {
			input.write(
				`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "claude-code", version: "2" } } })}\n`,
			);
			input.write(
				`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "read_note", arguments: { path: "note.md" } } })}\n`,
			);
			await pollUntil(() => lines.find((line) => line.includes('"id":2')), "the read_note answer", {
				timeoutMs: 20_000,
			});
			const journal = new Journal({ store });
			const entries = await pollUntil(
				async () => ((await journal.entries()).length > 0 ? journal.entries() : undefined),
				"the journal entry",
				{ timeoutMs: 20_000 },
			);
			expect(entries).toHaveLength(1);
			expect(entries[0]).toMatchObject({
				tool: "read_note",
				notes: ["note.md"],
				outcome: "ok",
				session: { surface: "vault-tools-stdio", client: "claude-code" },
			});
		} finally {
			server.dispose();
			temp.remove();
		}
	});
});

describe("folderHostJournalStore", () => {
	it("refuses a data folder inside the vault, with a warning", () => {
		const temp = makeTempDir("journal-place");
		try {
			const warnings: string[] = [];
			expect(
				folderHostJournalStore(temp.path, { XDG_DATA_HOME: join(temp.path, "data") }, temp.path, (message) =>
					warnings.push(message),
				),
			).toBeUndefined();
			expect(warnings[0]).toMatch(/inside the vault/);
			expect(
				folderHostJournalStore(
					join(temp.path, "vault"),
					{ XDG_DATA_HOME: join(temp.path, "data") },
					temp.path,
					(message) => warnings.push(message),
				),
			).toBeInstanceOf(FolderJournalStore);
		} finally {
			temp.remove();
		}
	});

	it("is the plugin's own journal when the plugin is installed in the vault, so Obsidian's activity view lists these calls", async () => {
		const temp = makeTempDir("journal-place-plugin");
		try {
			const vault = join(temp.path, "vault");
			const pluginFolder = join(vault, ".config-app", "plugins", "claude-code-bridge");
			mkdirSync(pluginFolder, { recursive: true });
			writeFileSync(join(pluginFolder, "manifest.json"), JSON.stringify({ id: "claude-code-bridge" }));
			const environment = { XDG_DATA_HOME: join(temp.path, "data") };
			const store = folderHostJournalStore(vault, environment, temp.path, () => undefined);
			const record = {
				type: "call" as const,
				id: "c1",
				at: 1,
				session: { key: "s1", surface: "vault-tools-stdio" as const },
				tool: "read_note",
				notes: ["a.md"],
				args: "",
				outcome: "ok" as const,
				durationMs: 1,
				answerBytes: 2,
			};
			await store?.append([record]);
			const pluginView = new FolderJournalStore(
				pluginJournalFolder(vault, ".config-app", {
					id: "claude-code-bridge",
					dir: ".config-app/plugins/claude-code-bridge",
				}),
			);
			expect(await pluginView.load()).toEqual([record]);
			expect(readdirSync(temp.path)).not.toContain("data");
		} finally {
			temp.remove();
		}
	});
});

describe("the journal and notes a write makes private", () => {
	let fixture: AssembledBridge | undefined;
	afterEach(async () => {
		await fixture?.stop();
	});

	it(
		"never stores the name of a note that a create or an edit tags private, in its call or its change",
		async () => {
			const temp = makeTempDir("journal-made-private");
			const storeFolder = join(temp.path, "journal");
			fixture = await startAssembledBridge({
				populate,
				privacy: { tags: ["private"] },
				journalStore: new FolderJournalStore(storeFolder),
				reviewVaultToolWrites: () => false,
			});
			const journal = fixture.bridge.activity?.journal;
			const session = fixture.bridge.vaultTools!.session({ id: 3, send: () => undefined });
			const call = (name: string, args: object, id: number): Promise<void> =>
				session.handleMessage(
					JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } }),
				);
			await call(
				"create_note",
				{ path: "Tagged-plans.md", content: "---\ntags: [private]\n---\nkept to myself\n" },
				1,
			);
			await call("set_properties", { path: "b.md", set: { tags: ["private"] } }, 2);
			await call("create_note", { path: "Open-notes.md", content: "for everyone\n" }, 3);
			await journal!.flush();
			const stored = storeText(storeFolder);
			expect(stored).toContain("create_note");
			expect(stored).toContain("Open-notes.md");
			for (const secret of ["Tagged-plans", "kept to myself", "b.md"]) expect(stored).not.toContain(secret);
			temp.remove();
		},
		FIXTURE_TIMEOUT_MS,
	);
});
