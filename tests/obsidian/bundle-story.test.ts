/**
 * One whole story through the built main.js, as a user lives it: Obsidian starts with a note open, the layout
 * becomes ready, Claude Code connects over the real socket, the user follows a link to another note (the same
 * tab: `file-open` and a CodeMirror state swap), selects text with the real editor, tags it, Claude proposes an
 * edit that the user accepts in the review view, and the plugin unloads. Each step checks what the client got.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { App, MarkdownView, Plugin, notices, type FakeElement } from "../__mocks__/obsidian";
import { connectOrThrow, type ReceivedNotification, type TestClient } from "../helpers/test-client";
import { makeTempDir } from "../helpers/temp-dir";
import { pollUntil, waitUntil } from "../helpers/wait-until";
import { BrowserWindows } from "./harness/cm6-dom";
import { EditorDriver } from "./harness/cm6-editor";

const NOTES: Record<string, string> = {
	"Projects/Plan.md": "# Plan\nSee [[Ideas]] first.\n",
	"Ideas.md": "# Ideas\nFirst idea: a bridge\nSecond idea: a review\n",
};

describe("the built main.js, one story", () => {
	const originalHome = process.env.HOME;
	const temp = makeTempDir("bundle-story");
	const home = join(temp.path, "home");
	const vault = join(temp.path, "Story vault");
	let windows: BrowserWindows;

	beforeAll(() => {
		mkdirSync(home);
		for (const [path, text] of Object.entries(NOTES)) {
			mkdirSync(dirname(join(vault, path)), { recursive: true });
			writeFileSync(join(vault, path), text);
		}
		process.env.HOME = home;
		windows = BrowserWindows.install();
	});

	afterAll(() => {
		windows?.uninstall();
		process.env.HOME = originalHome;
		temp.remove();
	});

	it("load → connect → follow a link → select → tag → review accepted → unload", async () => {
		const module = jest.requireActual<{ default: new (app: App, manifest: object) => Plugin }>(
			resolve(__dirname, "../../main.js"),
		);
		const app = new App(vault, "Story vault");
		for (const [path, text] of Object.entries(NOTES)) app.vault.contents.set(path, text);
		const plugin = new module.default(app, {
			id: "claude-code-bridge",
			name: "Claude Code Bridge",
			version: "0.1.0",
		});
		let client: TestClient | undefined;
		plugin.load();
		try {
			await tick();
			// Obsidian restores the workspace: the plan is open in a tab. Then the layout is ready.
			const leaf = app.workspace.getLeaf("tab");
			await leaf.openFile(file(app, "Projects/Plan.md"), { active: true });
			app.workspace.finishLayout();
			app.workspace.flushEvents();
			const view = leaf.view;
			if (!(view instanceof MarkdownView)) throw new Error("the plan did not open in a Markdown view");
			const editor = EditorDriver.of(view).focus();

			const statusBar = plugin.statusBarItems[0];
			if (!statusBar) throw new Error("no status bar item");
			await waitUntil(() => statusBar.text === "Claude: ready", "the status bar to say ready");
			const lockDirectory = join(home, ".claude", "ide");
			const [lockName] = readdirSync(lockDirectory);
			if (!lockName) throw new Error("no lock file");
			const lock = JSON.parse(readFileSync(join(lockDirectory, lockName), "utf8")) as {
				authToken: string;
				workspaceFolders: string[];
			};
			expect(lock.workspaceFolders).toEqual([vault]);
			const port = Number(lockName.replace(".lock", ""));

			// Claude Code connects: after its handshake it is told which note is open.
			client = await connectOrThrow(port, { token: lock.authToken });
			await client.initialize();
			client.notify("ide_connected", { pid: 4242 });
			expect(summary(await client.waitForNotification("selection_changed"))).toBe(
				`selection_changed ${join(vault, "Projects/Plan.md")} "" 0:0-0:0`,
			);

			// The user follows [[Ideas]]: the note opens in the same tab, in the same CodeMirror view.
			const seen = client.notifications.length;
			await leaf.openFile(file(app, "Ideas.md"));
			app.workspace.flushEvents();
			expect(EditorDriver.of(view).cm).toBe(editor.cm);
			expect(editor.text).toBe(NOTES["Ideas.md"]);
			expect(summary(await client.waitForNotification("selection_changed", 5000, seen))).toBe(
				`selection_changed ${join(vault, "Ideas.md")} "" 0:0-0:0`,
			);

			// The user selects "Second idea" with the mouse.
			const afterSwitch = client.notifications.length;
			editor.focus().dragOver("Second idea").mouseUp();
			expect(summary(await client.waitForNotification("selection_changed", 5000, afterSwitch))).toBe(
				`selection_changed ${join(vault, "Ideas.md")} "Second idea" 2:0-2:11`,
			);

			// …and tags it for Claude (Mod+Alt+K): the line goes into Claude's prompt.
			expect(plugin.runCommand("tag-for-claude")).toBe(true);
			expect((await client.waitForNotification("at_mentioned")).params).toEqual({
				filePath: join(vault, "Ideas.md"),
				lineStart: 2,
				lineEnd: 2,
			});
			expect(notices.at(-1)).toBe("Tagged for Claude Code.");

			// Claude proposes an edit; the review opens in Obsidian and the user accepts it.
			const proposal = "# Ideas\nFirst idea: a bridge\nSecond idea: a careful review\n";
			const answer = client.request("tools/call", {
				name: "openDiff",
				arguments: {
					old_file_path: join(vault, "Ideas.md"),
					new_file_path: join(vault, "Ideas.md"),
					new_file_contents: proposal,
					tab_name: "✻ [Claude Code] Ideas.md ⧉",
				},
			});
			const accept = await pollUntil(() => {
				const review = app.workspace.getLeavesOfType("claude-code-diff")[0]?.view as
					{ contentEl?: FakeElement } | undefined;
				return review?.contentEl?.findAll("ccb-review-accept")[0];
			}, "the review's accept button");
			accept.dispatch("click");
			expect((await answer).result).toEqual({
				content: [
					{ type: "text", text: "FILE_SAVED" },
					{ type: "text", text: proposal },
				],
			});

			// The plugin unloads (disabled, or Obsidian quits): the lock file goes, the port closes.
			plugin.unload();
			expect((await client.closed).code).toBe(1001);
			expect(existsSync(join(lockDirectory, lockName))).toBe(false);
			await expect(connectOrThrow(port, { token: lock.authToken })).rejects.toMatchObject({
				code: "ECONNREFUSED",
			});
		} finally {
			plugin.unload();
			await client?.close();
		}
	}, 30_000);
});

function file(app: App, path: string) {
	const found = app.vault.getFileByPath(path);
	if (!found) throw new Error(`no note ${path}`);
	return found;
}

function summary(notification: ReceivedNotification): string {
	const params = notification.params as {
		filePath: string;
		text: string;
		selection: { start: { line: number; character: number }; end: { line: number; character: number } };
	};
	const { start, end } = params.selection;
	return `${notification.method} ${params.filePath} ${JSON.stringify(params.text)} ${start.line}:${start.character}-${end.line}:${end.character}`;
}

function tick(): Promise<void> {
	return new Promise((resolveTick) => setTimeout(resolveTick, 0));
}

/** Polls until `find` answers (a guard against hanging, not a measure of speed). */
