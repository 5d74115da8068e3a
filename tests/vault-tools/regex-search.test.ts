import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { VaultPaths } from "../../src/vault/vault-paths";
import { McpSession } from "../../src/protocol/mcp-session";
import { MAX_OUTGOING_MESSAGE_BYTES } from "../../src/server/limits";
import { createVaultToolRegistry } from "../../src/vault-tools/create-vault-tools";
import { VisibleVault } from "../../src/vault/privacy/visible-vault";
import { CATASTROPHIC_QUERY, PROSE_LINE, SETTLES_WITHIN_MS } from "./catastrophic-regex";
import { makeVault, type VaultFixture } from "./vault-fixture";
import { libraryYamlCodec } from "../../src/vault/folder/yaml-library-codec";

describe("regex search cannot block the server (issue 15, finding 3)", () => {
	let vault: VaultFixture;
	beforeAll(() => {
		vault = makeVault({
			"Prose.md": `# Prose\n\n${PROSE_LINE}\n`,
			"Other.md": "# Other\n\nwatered the garden\n",
			"Emoji.md": "😀 smile\n",
		});
	});
	afterAll(() => vault?.dispose());

	it(
		"answers a catastrophic pattern with an error that says what to change",
		async () => {
			const answer = await vault.call("search", { query: CATASTROPHIC_QUERY, mode: "regex" });
			expect(answer.isError).toBe(true);
			expect(answer.text).toMatch(/^search: the regular expression did not finish within 3 s and was stopped/);
			expect(answer.text).toMatch(/Nested repetition such as \(\\w\+\\s\?\)\+ can take exponential time/);
		},
		SETTLES_WITHIN_MS,
	);

	it(
		"answers ordinary patterns as before after a stopped one",
		async () => {
			await vault.call("search", { query: CATASTROPHIC_QUERY, mode: "regex" });
			const answer = await vault.call("search", { query: "/^watered (the)? garden$/", mode: "regex" });
			expect(answer).toMatchObject({
				isError: false,
				text: 'Other.md:3: watered the garden  [under "Other"]\n(total 1 matches; showing 1-1)',
			});
		},
		2 * SETTLES_WITHIN_MS,
	);

	it(
		"finds an empty match before an emoji with the u flag (it looped for ever before)",
		async () => {
			const answer = await vault.call("search", { query: "/^(?=😀)/u", mode: "regex" });
			expect(answer).toMatchObject({
				isError: false,
				text: "Emoji.md:1: 😀 smile\n(total 1 matches; showing 1-1)",
			});
		},
		SETTLES_WITHIN_MS,
	);

	it(
		"keeps answering other requests on the same McpSession meanwhile: a ping sent after the search is answered before it",
		async () => {
			const tools = createVaultToolRegistry({
				yaml: libraryYamlCodec,
				vault: new VisibleVault({
					index: vault.index,
					paths: new VaultPaths(vault.root),
					isPrivate: () => false,
				}),
			});
			const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
			const session = new McpSession({
				id: 1,
				send: (text) => void serverSide.send(JSON.parse(text) as JSONRPCMessage),
				serverInfo: { name: "obsidian-vault-tools", version: "test" },
				tools,
				maxOutgoingBytes: MAX_OUTGOING_MESSAGE_BYTES,
			});
			serverSide.onmessage = (message) => void session.handleMessage(JSON.stringify(message));
			await serverSide.start();
			const client = new Client({ name: "regex-search-test", version: "1.0.0" });
			await client.connect(clientSide);
			try {
				const order: string[] = [];
				const search = client
					.callTool({ name: "search", arguments: { query: CATASTROPHIC_QUERY, mode: "regex" } }, undefined, {
						timeout: SETTLES_WITHIN_MS,
					})
					.then((result) => {
						order.push("search");
						return result as { isError?: boolean; content: { text: string }[] };
					});
				// Sent after the search reached the session; each request is handled as its message arrives.
				const ping = client.ping().then(() => order.push("ping"));
				const [result] = await Promise.all([search, ping]);
				expect(order).toEqual(["ping", "search"]);
				expect(result.isError).toBe(true);
				expect(result.content[0]?.text).toMatch(/did not finish within 3 s/);
			} finally {
				await client.close();
				session.dispose();
			}
		},
		SETTLES_WITHIN_MS,
	);
});
