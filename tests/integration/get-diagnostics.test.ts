import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DiagnosticsEngine } from "../../src/ide/diagnostics/diagnostics-engine";
import { FolderDiagnosticsNotes } from "../../src/vault/folder/folder-diagnostics-notes";
import { createGetDiagnosticsTool } from "../../src/ide/tools/get-diagnostics";
import { VaultPaths } from "../../src/vault/vault-paths";
import { libraryYamlCodec } from "../../src/vault/folder/yaml-library-codec";
import { ToolRegistry } from "../../src/protocol/tool-registry";
import { startBridge, type BridgeFixture } from "../helpers/bridge-fixture";
import { connectOrThrow, type TestClient } from "../helpers/test-client";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

let bridge: BridgeFixture;
let source: FolderDiagnosticsNotes;
let client: TestClient;

beforeEach(async () => {
	const tools = new ToolRegistry();
	bridge = await startBridge({ tools });
	writeFileSync(join(bridge.vault, "Broken note.md"), "---\ntitle: x\n---\nSee [[Nowhere]].\n");
	source = new FolderDiagnosticsNotes({ root: bridge.vault }, libraryYamlCodec);
	tools.register(
		createGetDiagnosticsTool({ diagnostics: new DiagnosticsEngine(source), paths: new VaultPaths(bridge.vault) }),
	);
	client = await connectOrThrow(bridge.port, { token: bridge.token });
	await client.initialize();
}, FIXTURE_TIMEOUT_MS);

afterEach(async () => {
	await client?.close();
	source?.dispose();
	await bridge?.stop();
});

describe("getDiagnostics over a real socket", () => {
	it("is listed with its input schema", async () => {
		const answer = await client.request("tools/list");
		const tools = (answer.result as { tools: { name: string; description: string; inputSchema: unknown }[] }).tools;
		const listed = tools.find((tool) => tool.name === "getDiagnostics");
		expect(listed?.description).toMatch(/^Reports problems in the Obsidian vault's Markdown notes/);
		expect(listed?.inputSchema).toEqual({
			type: "object",
			properties: {
				uri: {
					type: "string",
					description:
						"file:// URI (or absolute path) of one note to check. Omit to get every note in the vault that has problems.",
				},
			},
			additionalProperties: false,
		});
	});

	it("answers the CLI's baseline call with one entry under the uri it sent", async () => {
		const uri = `file://${join(bridge.vault, "Broken note.md")}`;
		const answer = await client.request("tools/call", {
			name: "getDiagnostics",
			arguments: { uri },
			_meta: { progressToken: 3 },
		});
		const result = answer.result as { content: { type: string; text: string }[]; isError?: boolean };
		expect(result.isError).toBeUndefined();
		expect(JSON.parse(result.content[0]?.text ?? "")).toEqual([
			{
				uri,
				diagnostics: [
					{
						message: 'Unresolved link: no note or file named or at "Nowhere" in the vault',
						severity: "Warning",
						source: "Obsidian",
						code: "unresolved-link",
						range: { start: { line: 3, character: 4 }, end: { line: 3, character: 15 } },
					},
				],
			},
		]);
	});

	it("answers the whole-vault call, and an isError result for a path outside the vault", async () => {
		const all = await client.request("tools/call", { name: "getDiagnostics", arguments: {} });
		const text = (all.result as { content: { text: string }[] }).content[0]?.text ?? "";
		expect((JSON.parse(text) as { uri: string }[]).map((entry) => entry.uri)).toEqual([
			`file://${join(bridge.vault, "Broken note.md")}`,
		]);

		const outside = await client.request("tools/call", {
			name: "getDiagnostics",
			arguments: { uri: "file:///etc/hosts" },
		});
		expect(outside.error).toBeUndefined();
		expect(outside.result).toEqual({
			content: [{ type: "text", text: "getDiagnostics: Path is outside the vault: file:///etc/hosts" }],
			isError: true,
		});
	});
});
