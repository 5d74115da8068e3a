import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PendingReviews } from "../../src/review/pending-reviews";
import { DiffReviewTools } from "../../src/ide/tools/diff-review-tools";
import { selectionSnapshot, type SelectionSnapshot } from "../../src/ide/workspace/selection";
import { createWorkspaceTools } from "../../src/ide/tools/workspace-tools";
import { VaultPaths, type VaultLocation } from "../../src/vault/vault-paths";
import type { OpenEditor, OpenNoteOptions, WorkspacePort } from "../../src/ide/workspace/workspace-port";
import { ToolRegistry } from "../../src/protocol/tool-registry";
import { startBridge, type BridgeFixture } from "../helpers/bridge-fixture";
import { connectOrThrow, type JsonRpcAnswer, type TestClient } from "../helpers/test-client";
import { FakeReviewPort } from "../review/fake-review-port";
import { waitUntil } from "../helpers/wait-until";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/** An editor stand-in: remembers what was opened and selected. */
class FakeWorkspace implements WorkspacePort {
	readonly opened: { location: VaultLocation; options: OpenNoteOptions }[] = [];
	active: SelectionSnapshot | undefined;
	dirty = new Set<string>();

	currentSelection(): SelectionSnapshot | undefined {
		return this.active;
	}
	openNote(target: VaultLocation, options: OpenNoteOptions): Promise<void> {
		this.opened.push({ location: target, options });
		const range = options.selection ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
		if (options.makeFrontmost)
			this.active = selectionSnapshot(target.absolute, "(selected)", range.start, range.end);
		return Promise.resolve();
	}
	openEditors(): OpenEditor[] {
		return this.opened.map(({ location }) => ({
			location,
			isActive: location.absolute === this.active?.filePath,
			lineCount: 3,
		}));
	}
	isDirty(target: VaultLocation): Promise<boolean | undefined> {
		const open = this.opened.some(({ location }) => location.relative === target.relative);
		return Promise.resolve(open ? this.dirty.has(target.relative) : undefined);
	}
	save(target: VaultLocation): Promise<boolean> {
		const open = this.opened.some(({ location }) => location.relative === target.relative);
		this.dirty.delete(target.relative);
		return Promise.resolve(open);
	}
}

let bridge: BridgeFixture;
let registry: ToolRegistry;
let port: FakeReviewPort;
let reviews: PendingReviews;
let diffTools: DiffReviewTools;
let workspace: FakeWorkspace;
let latest: SelectionSnapshot | undefined;
const clients: TestClient[] = [];
const TAB = "✻ [Claude Code] note.md (0a1b2c) ⧉";

beforeEach(async () => {
	registry = new ToolRegistry();
	bridge = await startBridge({ tools: registry });
	writeFileSync(join(bridge.vault, "note.md"), "# Note\n\nOld words here.\n");
	const paths = new VaultPaths(bridge.vault);
	port = new FakeReviewPort();
	reviews = new PendingReviews({ paths, port });
	diffTools = new DiffReviewTools(registry, { paths, reviews });
	diffTools.setEnabled(true);
	workspace = new FakeWorkspace();
	latest = undefined;
	for (const tool of createWorkspaceTools({
		paths,
		workspace,
		vaultName: "Test vault",
		latestSelection: () => latest,
	}))
		registry.register(tool);
}, FIXTURE_TIMEOUT_MS);

afterEach(async () => {
	await Promise.all(clients.splice(0).map((client) => client.close()));
	await bridge?.stop();
});

async function client(): Promise<TestClient> {
	const opened = await connectOrThrow(bridge.port, { token: bridge.token });
	clients.push(opened);
	await opened.initialize();
	return opened;
}

interface CallResult {
	content: { type: string; text: string }[];
	isError?: boolean;
}

function resultOf(answer: JsonRpcAnswer): CallResult {
	if (answer.error) throw new Error(`JSON-RPC error: ${answer.error.message}`);
	return answer.result as CallResult;
}

async function call(c: TestClient, name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
	return resultOf(await c.request("tools/call", { name, arguments: args }));
}

function json(result: CallResult): unknown {
	return JSON.parse(result.content[0]?.text ?? "null");
}

function openDiffArgs(contents: string, tabName = TAB, path = join(bridge.vault, "note.md")) {
	return { old_file_path: path, new_file_path: path, new_file_contents: contents, tab_name: tabName };
}

describe("the IDE tools over a real socket", () => {
	it("lists every tool with an object schema, required fields and no extra properties, and no executeCode", async () => {
		const c = await client();
		const answer = await c.request("tools/list");
		const tools = (
			answer.result as {
				tools: {
					name: string;
					inputSchema: { type: string; required?: string[]; additionalProperties: boolean };
				}[];
			}
		).tools;
		const byName = new Map(tools.map((tool) => [tool.name, tool.inputSchema]));
		expect([...byName.keys()].sort()).toEqual(
			[
				"checkDocumentDirty",
				"closeAllDiffTabs",
				"close_tab",
				"getCurrentSelection",
				"getLatestSelection",
				"getOpenEditors",
				"getWorkspaceFolders",
				"openDiff",
				"openFile",
				"saveDocument",
			].sort(),
		);
		for (const schema of byName.values())
			expect(schema).toMatchObject({ type: "object", additionalProperties: false });
		expect(byName.get("openDiff")?.required).toEqual([
			"old_file_path",
			"new_file_path",
			"new_file_contents",
			"tab_name",
		]);
		expect(byName.get("close_tab")?.required).toEqual(["tab_name"]);
		expect(byName.get("openFile")?.required).toEqual(["filePath"]);
		expect(byName.get("checkDocumentDirty")?.required).toEqual(["filePath"]);
		expect(byName.get("saveDocument")?.required).toEqual(["filePath"]);
	});

	it("openDiff blocks until accepted, answers FILE_SAVED with the edited text, and never writes the note", async () => {
		const c = await client();
		c.send({
			jsonrpc: "2.0",
			id: 50,
			method: "tools/call",
			params: { name: "openDiff", arguments: openDiffArgs("# Note\n\nNew words here.\n") },
		});
		await waitUntil(() => port.views.has(TAB), "the review to show");
		expect(c.messages.find((message) => message.id === 50)).toBeUndefined();
		reviews.accept(TAB, "# Note\n\nMy words here.\n");
		const result = resultOf(await c.waitForAnswer(50));
		expect(result.content).toEqual([
			{ type: "text", text: "FILE_SAVED" },
			{ type: "text", text: "# Note\n\nMy words here.\n" },
		]);
		expect(readFileSync(join(bridge.vault, "note.md"), "utf8")).toBe("# Note\n\nOld words here.\n");
		expect(await call(c, "close_tab", { tab_name: TAB })).toEqual({
			content: [{ type: "text", text: "TAB_CLOSED" }],
		});
		expect(await call(c, "close_tab", { tab_name: TAB })).toEqual({
			content: [{ type: "text", text: "TAB_CLOSED" }],
		});
		expect(port.refreshed).toEqual(["note.md"]);
	});

	it("close_tab on a pending review answers openDiff with DIFF_REJECTED", async () => {
		const c = await client();
		c.send({
			jsonrpc: "2.0",
			id: 60,
			method: "tools/call",
			params: { name: "openDiff", arguments: openDiffArgs("x") },
		});
		await waitUntil(() => port.views.has(TAB), "the review to show");
		expect(await call(c, "close_tab", { tab_name: TAB })).toEqual({
			content: [{ type: "text", text: "TAB_CLOSED" }],
		});
		expect(resultOf(await c.waitForAnswer(60)).content).toEqual([
			{ type: "text", text: "DIFF_REJECTED" },
			{ type: "text", text: TAB },
		]);
	});

	it("closeAllDiffTabs closes the caller's reviews only and reports how many", async () => {
		const mine = await client();
		const other = await client();
		mine.send({
			jsonrpc: "2.0",
			id: 70,
			method: "tools/call",
			params: { name: "openDiff", arguments: openDiffArgs("a", "mine") },
		});
		other.send({
			jsonrpc: "2.0",
			id: 71,
			method: "tools/call",
			params: { name: "openDiff", arguments: openDiffArgs("b", "theirs") },
		});
		await waitUntil(() => port.views.size === 2, "both reviews to show");
		expect(await call(mine, "closeAllDiffTabs")).toEqual({
			content: [{ type: "text", text: "CLOSED_1_DIFF_TABS" }],
		});
		expect(resultOf(await mine.waitForAnswer(70)).content[0]?.text).toBe("DIFF_REJECTED");
		expect([...port.views.keys()]).toEqual(["theirs"]);
		expect(await call(mine, "closeAllDiffTabs")).toEqual({
			content: [{ type: "text", text: "CLOSED_0_DIFF_TABS" }],
		});
	});

	it("rejects and closes a disconnected client's pending review", async () => {
		const c = await client();
		c.send({
			jsonrpc: "2.0",
			id: 80,
			method: "tools/call",
			params: { name: "openDiff", arguments: openDiffArgs("x") },
		});
		await waitUntil(() => port.views.has(TAB), "the review to show");
		await c.close();
		await waitUntil(() => port.closed.includes(TAB), "the review tab to close");
		expect(reviews.list()).toEqual([]);
	});

	it("answers bad arguments and paths outside the vault with actionable error results", async () => {
		const c = await client();
		const missing = await call(c, "openDiff", { old_file_path: "a", new_file_path: "a", new_file_contents: "x" });
		expect(missing).toEqual({
			isError: true,
			content: [{ type: "text", text: 'openDiff: "tab_name" is required and must be a string' }],
		});
		const outside = await call(c, "openDiff", openDiffArgs("x", TAB, "/etc/passwd"));
		expect(outside.isError).toBe(true);
		expect(outside.content[0]?.text).toMatch(/^openDiff refused: Path is outside the vault: \/etc\/passwd/);
		expect(port.views.size).toBe(0);
		expect((await call(c, "close_tab", { tab_name: 7 })).content[0]?.text).toBe(
			'close_tab: "tab_name" is required and must be a string, not a number',
		);
		expect((await call(c, "openFile", { filePath: "../outside.md" })).isError).toBe(true);
		expect(await call(c, "openFile", { filePath: "missing.md" })).toEqual({
			isError: true,
			content: [{ type: "text", text: "openFile: note not found: missing.md" }],
		});
		expect((await call(c, "saveDocument", {})).content[0]?.text).toBe(
			'saveDocument: "filePath" is required and must be a string',
		);
		expect((await call(c, "openFile", { filePath: "note.md", startLine: -1 })).isError).toBe(true);
	});

	it("turning reviews off unlists the three diff tools and tells clients the list changed", async () => {
		const c = await client();
		const before = c.notifications.length;
		diffTools.setEnabled(false);
		await c.waitForNotification("notifications/tools/list_changed", 2000, before);
		const names = ((await c.request("tools/list")).result as { tools: { name: string }[] }).tools.map(
			(tool) => tool.name,
		);
		expect(names).not.toContain("openDiff");
		expect(names).not.toContain("close_tab");
		expect(names).not.toContain("closeAllDiffTabs");
		expect(names).toContain("openFile");
		diffTools.setEnabled(true);
		const again = ((await c.request("tools/list")).result as { tools: { name: string }[] }).tools.map(
			(tool) => tool.name,
		);
		expect(again).toContain("openDiff");
	});

	it("openFile selects startText…endText and answers plain text or JSON by makeFrontmost", async () => {
		const c = await client();
		const absolute = join(bridge.vault, "note.md");
		expect(await call(c, "openFile", { filePath: absolute, startText: "Old", endText: "here" })).toEqual({
			content: [{ type: "text", text: `Opened file: ${absolute}` }],
		});
		expect(workspace.opened[0]?.options).toEqual({
			selection: { start: { line: 2, character: 0 }, end: { line: 2, character: 14 } },
			preview: false,
			makeFrontmost: true,
		});
		const background = await call(c, "openFile", {
			filePath: pathToFileURL(absolute).href,
			makeFrontmost: false,
			startLine: 1,
			endLine: 1,
		});
		expect(json(background)).toEqual({ success: true, filePath: absolute, languageId: "markdown", lineCount: 3 });
		expect(workspace.opened[1]?.options.selection).toEqual({
			start: { line: 0, character: 0 },
			end: { line: 0, character: 6 },
		});
		const notFound = await call(c, "openFile", { filePath: "note.md", startText: "nowhere" });
		expect(notFound.content[0]?.text).toBe(
			`Opened file: ${absolute} (the text to select was not found, so nothing is selected)`,
		);
	});

	it("getCurrentSelection and getLatestSelection answer the selection shape or say why there is none", async () => {
		const c = await client();
		expect(json(await call(c, "getCurrentSelection"))).toEqual({
			success: false,
			message: "No active editor found",
		});
		expect(json(await call(c, "getLatestSelection"))).toEqual({
			success: false,
			message: "No selection available",
		});
		await call(c, "openFile", { filePath: "note.md", startText: "Old" });
		const absolute = join(bridge.vault, "note.md");
		expect(json(await call(c, "getCurrentSelection"))).toEqual({
			success: true,
			text: "(selected)",
			filePath: absolute,
			fileUrl: pathToFileURL(absolute).href,
			selection: { start: { line: 2, character: 0 }, end: { line: 2, character: 3 }, isEmpty: false },
		});
		latest = selectionSnapshot(absolute, "Old", { line: 2, character: 0 }, { line: 2, character: 3 });
		expect(json(await call(c, "getLatestSelection"))).toMatchObject({
			success: true,
			text: "Old",
			filePath: absolute,
		});
	});

	it("getOpenEditors, getWorkspaceFolders, checkDocumentDirty and saveDocument report the workspace", async () => {
		const c = await client();
		const absolute = join(bridge.vault, "note.md");
		expect(json(await call(c, "checkDocumentDirty", { filePath: absolute }))).toEqual({
			success: false,
			message: `Document not open: ${absolute}`,
		});
		expect(json(await call(c, "saveDocument", { filePath: absolute }))).toEqual({
			success: false,
			message: `Document not open: ${absolute}`,
		});
		await call(c, "openFile", { filePath: "note.md" });
		workspace.dirty.add("note.md");
		expect(json(await call(c, "getOpenEditors"))).toEqual({
			tabs: [
				{
					uri: pathToFileURL(absolute).href,
					fileName: absolute,
					isActive: true,
					label: "note.md",
					languageId: "markdown",
					isDirty: true,
					isUntitled: false,
					lineCount: 3,
				},
			],
		});
		expect(json(await call(c, "checkDocumentDirty", { filePath: "note.md" }))).toEqual({
			success: true,
			filePath: absolute,
			isDirty: true,
			isUntitled: false,
		});
		expect(json(await call(c, "saveDocument", { filePath: "note.md" }))).toEqual({
			success: true,
			filePath: absolute,
			saved: true,
			message: "Document saved successfully",
		});
		expect(json(await call(c, "checkDocumentDirty", { filePath: "note.md" }))).toMatchObject({ isDirty: false });
		expect(json(await call(c, "getWorkspaceFolders"))).toEqual({
			success: true,
			folders: [{ name: "Test vault", uri: pathToFileURL(bridge.vault).href, path: bridge.vault }],
			rootPath: bridge.vault,
		});
	});
});
