import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assembleBridge, type Bridge, type ReviewDecisions } from "../../src/assembly/bridge-assembly";
import type { PendingReview } from "../../src/review/edit-proposal";
import type { SelectionSnapshot } from "../../src/ide/workspace/selection";
import { VaultPaths } from "../../src/vault/vault-paths";
import type { OpenEditor, WorkspacePort } from "../../src/ide/workspace/workspace-port";
import type { ToolResult } from "../../src/protocol/mcp-types";
import { makeTempDir } from "../helpers/temp-dir";
import { FakeReviewPort } from "../review/fake-review-port";
import { MemoryDiagnosticsNotes } from "../vault/notes/memory-diagnostics-notes";
import { pollUntil } from "../helpers/wait-until";
import { connectOrThrow } from "../helpers/test-client";

const EVERY_TOOL = [
	"openDiff",
	"close_tab",
	"closeAllDiffTabs",
	"openFile",
	"getCurrentSelection",
	"getLatestSelection",
	"getOpenEditors",
	"getWorkspaceFolders",
	"checkDocumentDirty",
	"saveDocument",
	"getDiagnostics",
];

class EmptyWorkspace implements WorkspacePort {
	currentSelection(): SelectionSnapshot | undefined {
		return undefined;
	}
	openNote(): Promise<void> {
		return Promise.resolve();
	}
	openEditors(): OpenEditor[] {
		return [];
	}
	isDirty(): Promise<boolean | undefined> {
		return Promise.resolve(undefined);
	}
	save(): Promise<boolean> {
		return Promise.resolve(false);
	}
}

describe("assembleBridge", () => {
	const temp = makeTempDir("assembly");
	let bridge: Bridge;
	let port: FakeReviewPort;
	let decisions: ReviewDecisions | undefined;
	const factoryCalls: number[] = [];

	function assemble(reviewEdits: boolean): Bridge {
		port = new FakeReviewPort();
		return assembleBridge({
			paths: new VaultPaths(temp.path),
			vaultName: "Test vault",
			ideName: "Obsidian · assembly test",
			homeDir: temp.path,
			pid: process.pid,
			ports: {
				files: {
					list: () => [],
					stat: () => Promise.resolve(undefined),
					readBytes: () => Promise.reject(new Error("unused")),
				},
				tagsOf: () => [],
				currentSelection: () => undefined,
				workspace: new EmptyWorkspace(),
				notes: new MemoryDiagnosticsNotes({}),
				reviewPort: (given) => {
					factoryCalls.push(1);
					decisions = given;
					return port;
				},
			},
			privacyRules: () => ({ folders: [], tags: [] }),
			debounceMs: 10,
			reviewEdits,
			log: () => undefined,
		});
	}

	beforeAll(() => writeFileSync(join(temp.path, "note.md"), "old\n"));
	afterAll(() => temp.remove());
	afterEach(() => bridge.dispose());

	const openDiff = (tabName: string): Promise<ToolResult> => {
		const tool = bridge.tools.find("openDiff");
		if (!tool) throw new Error("openDiff is not registered");
		const path = join(temp.path, "note.md");
		return Promise.resolve(
			tool.call(
				{ old_file_path: path, new_file_path: path, new_file_contents: "new\n", tab_name: tabName },
				{ sessionId: 1, signal: new AbortController().signal },
			),
		);
	};
	const shown = async (tabName: string): Promise<PendingReview> => {
		// The manager reads the note from disk before it shows the review.
		return pollUntil(() => port.views.get(tabName), `${tabName} to be shown`);
	};

	it("registers every IDE tool, the review tools first", () => {
		bridge = assemble(true);
		expect(bridge.tools.list().map((tool) => tool.name)).toEqual(EVERY_TOOL);
		expect(factoryCalls.length).toBeGreaterThan(0);
	});

	it("leaves the review tools unlisted while reviewing in Obsidian is off, and lists them when turned on", () => {
		bridge = assemble(false);
		expect(bridge.tools.list().map((tool) => tool.name)).toEqual(EVERY_TOOL.slice(3));
		bridge.diffTools.setEnabled(true);
		expect(
			bridge.tools
				.list()
				.map((tool) => tool.name)
				.sort(),
		).toEqual([...EVERY_TOOL].sort());
	});

	it("hands the review port a decision sink that answers openDiff: accept with the final text, reject, view closed", async () => {
		bridge = assemble(true);
		const accepted = openDiff("a");
		decisions?.accept(await shown("a"), "edited\n");
		expect(await accepted).toEqual({
			content: [
				{ type: "text", text: "FILE_SAVED" },
				{ type: "text", text: "edited\n" },
			],
		});

		const rejected = openDiff("b");
		decisions?.reject(await shown("b"));
		expect((await rejected).content[0]).toEqual({ type: "text", text: "DIFF_REJECTED" });

		const closed = openDiff("c");
		decisions?.closed(await shown("c"));
		expect((await closed).content[0]).toEqual({ type: "text", text: "DIFF_REJECTED" });
	});

	it("dispose rejects reviews still pending", async () => {
		bridge = assemble(true);
		const pending = openDiff("d");
		await shown("d");
		bridge.dispose();
		expect((await pending).content[0]).toEqual({ type: "text", text: "DIFF_REJECTED" });
	});

	it("a review names the IDE client that asked, by the name it gave in initialize", async () => {
		bridge = assemble(true);
		const status = await bridge.host.start();
		const lock = JSON.parse(readFileSync(status.lockFilePath ?? "", "utf8")) as { authToken: string };
		const client = await connectOrThrow(status.port ?? 0, { token: lock.authToken });
		try {
			await client.initialize();
			const path = join(temp.path, "note.md");
			const answer = client.request("tools/call", {
				name: "openDiff",
				arguments: { old_file_path: path, new_file_path: path, new_file_contents: "new\n", tab_name: "wire" },
			});
			const review = await shown("wire");
			expect(review.proposer).toEqual({
				surface: "ide",
				client: "test-client",
				session: expect.any(Number) as unknown,
				tool: "openDiff",
			});
			decisions?.reject(review);
			await answer;
		} finally {
			await client.close();
			await bridge.host.stop();
		}
	});
});
