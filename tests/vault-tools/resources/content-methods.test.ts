import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { PrivacyFilter } from "../../../src/vault/privacy/privacy";
import { VaultPaths } from "../../../src/vault/vault-paths";
import { ObsidianVaultIndex } from "../../../src/obsidian/vault-tools/obsidian-vault-index";
import { ObsidianNoteStore } from "../../../src/obsidian/notes/obsidian-note-store";
import { createVaultToolRegistry } from "../../../src/vault-tools/create-vault-tools";
import { FolderVault } from "../../../src/vault/folder/folder-vault";
import type { ActiveNote } from "../../../src/vault-tools/kit/ports";
import { createVaultContentMethods } from "../../../src/vault-tools/resources/content-methods";
import { VaultToolServer } from "../../../src/vault-tools/serve/vault-tool-server";
import type { VaultIndex } from "../../../src/vault/notes/vault-index";
import { makeTempDir } from "../../helpers/temp-dir";
import { createIndexedApp, vaultIndexPorts } from "../../obsidian/harness/indexed-app";
import { VisibleVault } from "../../../src/vault/privacy/visible-vault";
import { FIXTURE_TIMEOUT_MS } from "../../helpers/fixture-timeout";
import { libraryYamlCodec } from "../../../src/vault/folder/yaml-library-codec";

const NOTES: Record<string, string> = {
	"Claude prompts/Summarize.md": [
		"---",
		"description: Summarize a topic from my notes",
		"arguments:",
		"  - name: topic",
		"    description: what to summarize",
		"    required: true",
		"---",
		"Summarize what my notes say about {{topic}}.",
		"",
	].join("\n"),
	"Claude prompts/Daily review.md": "Look at today's notes and list open questions.\n",
	"Claude prompts/Secret plan.md": "---\ntags: [private]\ndescription: hidden\n---\nNever shown.\n",
	"Private/Diary.md": "#diary-only Dear diary\n",
	"Notes/Alpha.md": "# Alpha\n\nAbout #topic/one and [[Beta]].\n",
	"Notes/Beta.md": "# Beta\n\n#topic/one #topic/two\n",
	"Journal/2026-11-25.md": "# Today\n\nA daily note.\n",
	"Home.md": "# Home\n",
};

interface Served {
	client: Client;
	active: { note: ActiveNote | undefined };
	folder: { name: string };
	close: () => Promise<void>;
}

/** The index, and the tag reader each root gives privacy (`noteTags` of the folder's texts; Obsidian's metadata cache). */
type IndexFactory = (
	root: string,
) => Promise<{ index: VaultIndex; tagsOf: (path: string) => readonly string[]; dispose: () => void }>;

const adapters: [string, IndexFactory][] = [
	[
		"the folder",
		(root) => {
			const folder = new FolderVault({ root, watch: false });
			return Promise.resolve({
				index: folder.index,
				tagsOf: (path: string) => folder.tagsOf(path),
				dispose: () => folder.dispose(),
			});
		},
	],
	[
		"Obsidian (fake app)",
		async () => {
			const app = await createIndexedApp(NOTES);
			const ports = vaultIndexPorts(app);
			const store = new ObsidianNoteStore(ports.vault, ports.metadataCache, { yaml: ports.yaml });
			store.load();
			const index = new ObsidianVaultIndex({ ...ports, store });
			index.load();
			return {
				index,
				tagsOf: (path: string) => store.tagsOf(path),
				dispose: () => {
					index.unload();
					store.unload();
				},
			};
		},
	],
];

describe.each(adapters)("vault resources and prompts over %s, through the MCP SDK Client", (_name, makeIndex) => {
	const temp = makeTempDir("vault-content");
	let served: Served;

	beforeAll(() => {
		for (const [path, text] of Object.entries(NOTES)) {
			mkdirSync(dirname(join(temp.path, path)), { recursive: true });
			writeFileSync(join(temp.path, path), text);
		}
	});
	afterAll(() => temp.remove());

	beforeEach(async () => {
		const { index, tagsOf, dispose } = await makeIndex(temp.path);
		const paths = new VaultPaths(temp.path);
		const privacy = new PrivacyFilter(() => ({ folders: ["Private"], tags: ["private"] }), tagsOf);
		const isPrivate = (path: string): boolean => privacy.isPrivate({ relative: path });
		const active: Served["active"] = { note: { path: "Notes/Alpha.md" } };
		const folder = { name: "Claude prompts" };
		const vault = new VisibleVault({ index, paths, isPrivate });
		const content = createVaultContentMethods({
			vault,
			vaultName: "Test vault",
			activeNote: { current: () => active.note },
			dailyNote: () => "Journal/2026-11-25.md",
			promptsFolder: () => folder.name,
		});
		const server = new VaultToolServer({
			registry: createVaultToolRegistry({ yaml: libraryYamlCodec, vault }),
			methods: content.methods,
			capabilities: content.capabilities,
		});
		const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
		const session = server.session({
			id: 1,
			send: (text) => void serverSide.send(JSON.parse(text) as JSONRPCMessage),
		});
		serverSide.onmessage = (message) => void session.handleMessage(JSON.stringify(message));
		await serverSide.start();
		const client = new Client({ name: "vault-content-test", version: "1.0.0" });
		await client.connect(clientSide);
		served = {
			client,
			active,
			folder,
			close: async () => {
				await client.close();
				session.dispose();
				dispose();
			},
		};
	}, FIXTURE_TIMEOUT_MS);
	afterEach(() => served?.close());

	it("advertises resources and prompts", () => {
		expect(served.client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
	});

	it("lists the active note, today's daily note and the overview, and reads each", async () => {
		const { resources } = await served.client.listResources();
		expect(resources.map((resource) => [resource.uri, resource.name])).toEqual([
			["vault://active-note", "Active note"],
			["vault://daily-note", "Today's daily note"],
			["vault://overview", "Vault overview"],
		]);
		const read = async (uri: string): Promise<string> => {
			const result = await served.client.readResource({ uri });
			const [content] = result.contents;
			return content && "text" in content ? content.text : "";
		};
		expect(await read("vault://active-note")).toBe(NOTES["Notes/Alpha.md"]);
		expect(await read("vault://daily-note")).toBe(NOTES["Journal/2026-11-25.md"]);
		const overview = await read("vault://overview");
		expect(overview).toContain('# Vault "Test vault"');
		expect(overview).toContain("6 notes in 4 top-level folders.");
		expect(overview).toContain("- Claude prompts (2)");
		expect(overview).toContain("- #topic/one (2)");
		// The private notes (a private folder, a private tag) are not counted and their tags not shown.
		expect(overview).not.toContain("diary-only");
		expect(overview).not.toContain("Private");
	});

	it("offers no resource for a private active note, and refuses to read one that is not offered", async () => {
		served.active.note = { path: "Private/Diary.md" };
		const { resources } = await served.client.listResources();
		expect(resources.map((resource) => resource.uri)).toEqual(["vault://daily-note", "vault://overview"]);
		await expect(served.client.readResource({ uri: "vault://active-note" })).rejects.toThrow(
			/Resource not found: vault:\/\/active-note/,
		);
		await expect(served.client.readResource({ uri: "file:///etc/passwd" })).rejects.toThrow(/Resource not found/);
	});

	it("offers the notes in the prompts folder as prompts, without private ones", async () => {
		const { prompts } = await served.client.listPrompts();
		expect(prompts).toEqual([
			{ name: "Daily-review", description: "Prompt from the note Claude prompts/Daily review.md" },
			{
				name: "Summarize",
				description: "Summarize a topic from my notes",
				arguments: [{ name: "topic", description: "what to summarize", required: true }],
			},
		]);
	});

	it("answers a prompt with the note's body, arguments filled in", async () => {
		const prompt = await served.client.getPrompt({ name: "Summarize", arguments: { topic: "gardening" } });
		expect(prompt.description).toBe("Summarize a topic from my notes");
		expect(prompt.messages).toEqual([
			{ role: "user", content: { type: "text", text: "Summarize what my notes say about gardening.\n" } },
		]);
		const plain = await served.client.getPrompt({ name: "Daily-review" });
		expect(plain.messages[0]?.content).toEqual({ type: "text", text: NOTES["Claude prompts/Daily review.md"] });
	});

	it("refuses a missing required argument, an unknown prompt and a private note's prompt", async () => {
		await expect(served.client.getPrompt({ name: "Summarize" })).rejects.toThrow(/needs "topic"/);
		await expect(served.client.getPrompt({ name: "Nope" })).rejects.toThrow(/Unknown prompt "Nope"/);
		await expect(served.client.getPrompt({ name: "Secret-plan" })).rejects.toThrow(/Unknown prompt "Secret-plan"/);
	});

	it("reads the prompts folder setting on each call", async () => {
		served.folder.name = "Notes/";
		const { prompts } = await served.client.listPrompts();
		expect(prompts.map((prompt) => prompt.name)).toEqual(["Alpha", "Beta"]);
	});
});
