import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic, NoteDiagnostics } from "../../../src/ide/diagnostics/diagnostic-types";
import { DiagnosticsEngine } from "../../../src/ide/diagnostics/diagnostics-engine";
import { FolderDiagnosticsNotes } from "../../../src/vault/folder/folder-diagnostics-notes";
import { VaultPrivacy } from "../../../src/vault/privacy/vault-privacy";
import { createGetDiagnosticsTool, type DiagnosticsProvider } from "../../../src/ide/tools/get-diagnostics";
import { VaultPaths } from "../../../src/vault/vault-paths";
import type { JsonObject } from "../../../src/protocol/json-rpc";
import type { ToolDefinition, ToolResult } from "../../../src/protocol/mcp-types";
import { libraryYamlCodec } from "../../../src/vault/folder/yaml-library-codec";
import { makeTempDir } from "../../helpers/temp-dir";

let temp: { path: string; remove: () => void };
let vault: string;
let source: FolderDiagnosticsNotes;
let tool: ToolDefinition;

beforeEach(() => {
	temp = makeTempDir("get-diagnostics");
	vault = join(temp.path, "My vault");
	mkdirSync(join(vault, "Sub folder"), { recursive: true });
	writeFileSync(join(vault, "Home.md"), "Links: [[Missing]] [[Fine]]");
	writeFileSync(join(vault, "Fine.md"), "# Fine");
	writeFileSync(join(vault, "Sub folder", "Day one.md"), "![[gone.png]]");
	writeFileSync(join(vault, "Secret.md"), "[[Hidden missing]]");
	writeFileSync(join(temp.path, "Outside.md"), "[[Missing]]");
	source = new FolderDiagnosticsNotes({ root: vault, watch: false }, libraryYamlCodec);
	const paths = new VaultPaths(vault);
	// Secret.md is private by tag, hidden from the diagnostics at the privacy boundary as the assembly does it.
	const privacy = new VaultPrivacy({
		paths,
		rules: () => ({ folders: [], tags: ["#secret"] }),
		tagsOf: (path) => (path === "Secret.md" ? ["#secret"] : []),
	});
	tool = createGetDiagnosticsTool({ diagnostics: new DiagnosticsEngine(privacy.notes(source)), paths });
});

afterEach(() => {
	source?.dispose();
	temp?.remove();
});

const context = { sessionId: 1, signal: new AbortController().signal };

async function call(args: JsonObject, definition: ToolDefinition = tool): Promise<ToolResult> {
	return definition.call(args, context);
}

function entries(result: ToolResult): { uri: string; diagnostics: Diagnostic[] }[] {
	expect(result.isError).toBeUndefined();
	return JSON.parse(result.content[0]?.text ?? "") as { uri: string; diagnostics: Diagnostic[] }[];
}

describe("getDiagnostics with a uri", () => {
	it("echoes the CLI's raw file:// + absolute path (spaces unencoded) as the one entry's uri", async () => {
		const uri = `file://${join(vault, "Sub folder", "Day one.md")}`;
		const [entry, ...rest] = entries(await call({ uri }));
		expect(rest).toEqual([]);
		expect(entry?.uri).toBe(uri);
		expect(entry?.diagnostics).toEqual([
			{
				message: 'Embedded file not found: no file named or at "gone.png" in the vault',
				severity: "Warning",
				source: "Obsidian",
				code: "unresolved-embed",
				range: { start: { line: 0, character: 0 }, end: { line: 0, character: 13 } },
			},
		]);
	});

	it("accepts proper percent-encoded file URIs and absolute paths, echoing each as received", async () => {
		const encoded = `file://${encodeURI(join(vault, "Home.md"))}`;
		expect(encoded).toContain("My%20vault");
		expect(entries(await call({ uri: encoded }))[0]?.uri).toBe(encoded);
		const plain = join(vault, "Home.md");
		expect(entries(await call({ uri: plain }))[0]?.uri).toBe(plain);
	});

	it("answers [] for a note without problems, a missing note, a folder, a non-note and a private note", async () => {
		for (const path of ["Fine.md", "Not there.md", "Sub folder", "Sub folder/gone.png", "Secret.md"]) {
			const result = await call({ uri: `file://${join(vault, path)}` });
			expect(result).toEqual({ content: [{ type: "text", text: "[]" }] });
		}
	});

	it("refuses a uri outside the vault with a clear error", async () => {
		const result = await call({ uri: `file://${join(temp.path, "Outside.md")}` });
		expect(result.isError).toBe(true);
		expect(result.content[0]?.text).toMatch(/^getDiagnostics: Path is outside the vault: file:\/\//);
		expect((await call({ uri: "file:///../../etc/passwd" })).isError).toBe(true);
	});

	it("refuses a uri that is not a string", async () => {
		const result = await call({ uri: 42 });
		expect(result).toEqual({
			content: [{ type: "text", text: 'getDiagnostics: "uri" must be a string, not number' }],
			isError: true,
		});
	});
});

describe("getDiagnostics without a uri", () => {
	it("lists every note with problems as file:// + absolute path, leaving out private notes", async () => {
		const result = entries(await call({}));
		expect(result.map((entry) => entry.uri)).toEqual([
			`file://${join(vault, "Home.md")}`,
			`file://${join(vault, "Sub folder", "Day one.md")}`,
		]);
		expect(result[0]?.diagnostics.map((diagnostic) => diagnostic.range.start.character)).toEqual([7]);
	});

	it("uses the uri spelling the CLI sent earlier for the same note", async () => {
		const encoded = `file://${encodeURI(join(vault, "Sub folder", "Day one.md"))}`;
		await call({ uri: encoded });
		expect(entries(await call({})).map((entry) => entry.uri)).toContain(encoded);
	});

	it("answers [] for a vault without problems", async () => {
		const fine: DiagnosticsProvider = { forNote: () => Promise.resolve([]), forVault: () => Promise.resolve([]) };
		expect(await call({}, createGetDiagnosticsTool({ diagnostics: fine, paths: new VaultPaths(vault) }))).toEqual({
			content: [{ type: "text", text: "[]" }],
		});
	});

	it("caps a huge answer, keeping notes the CLI asked about first, and says so in a second block", async () => {
		const many = (path: string, count: number): NoteDiagnostics => ({
			path,
			diagnostics: Array.from({ length: count }, (_, line) => ({
				message: "m",
				severity: "Warning",
				source: "Obsidian",
				code: "unresolved-link",
				range: { start: { line, character: 0 }, end: { line, character: 1 } },
			})),
		});
		const provider: DiagnosticsProvider = {
			forNote: () => Promise.resolve(many("z.md", 3).diagnostics),
			forVault: () => Promise.resolve([many("a.md", 4), many("b.md", 4), many("z.md", 3)]),
		};
		const capped = createGetDiagnosticsTool({
			diagnostics: provider,
			paths: new VaultPaths(vault),
			maxDiagnostics: 5,
		});
		await call({ uri: join(vault, "z.md") }, capped);
		const result = await call({}, capped);
		const kept = entries(result);
		expect(kept.map((entry) => [entry.uri.slice(-4), entry.diagnostics.length])).toEqual([
			["z.md", 3],
			["a.md", 2],
		]);
		expect(result.content[1]?.text).toBe(
			"Showing 5 of 11 diagnostics, in 2 of 3 notes. Call getDiagnostics with one note's uri to see that note's diagnostics.",
		);
	});
});

describe("getDiagnostics definition", () => {
	it("has the input schema the CLI and the model see", () => {
		expect(tool.name).toBe("getDiagnostics");
		const { properties, ...rest } = tool.inputSchema;
		expect(rest).toEqual({ type: "object", additionalProperties: false });
		expect(properties).toEqual({
			uri: {
				type: "string",
				description:
					"file:// URI (or absolute path) of one note to check. Omit to get every note in the vault that has problems.",
			},
		});
		for (const code of [
			"unresolved-link",
			"unresolved-embed",
			"missing-heading",
			"missing-block",
			"invalid-frontmatter",
			"duplicate-block-id",
		]) {
			expect(tool.description).toContain(code);
		}
	});
});
