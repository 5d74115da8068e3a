import { Notifier } from "../../../src/ide/notifier";
import type { SelectionSnapshot } from "../../../src/ide/workspace/selection";
import { VaultPaths } from "../../../src/vault/vault-paths";
import { EditorTracker } from "../../../src/obsidian/editor/editor-tracker";
import { App, MarkdownView, Plugin, TFile, WorkspaceWindow, type WorkspaceLeaf } from "../../__mocks__/obsidian";
import { BrowserWindows } from "../harness/cm6-dom";
import { EditorDriver, SecondaryEditor } from "../harness/cm6-editor";
import { privacyByPath } from "../../helpers/path-privacy";

const DEBOUNCE_MS = 100;
const NOTES: Record<string, string> = {
	"Notes/alpha.md": "# Alpha\nalpha body text\nlast line",
	"Notes/beta.md": "# Beta\nbeta body text",
	"Notes/gamma.md": "# Gamma\ngamma body",
	"Notes/crlf.md": "first\r\nsecond line\r\nthird",
	"Notes/emoji.md": "😀 emoji line\n👩‍💻 coder",
	"Notes/frontmatter.md": "---\ntags: [project]\naliases: [FM]\n---\n# Heading\nbody after frontmatter",
};

interface Sent {
	method: string;
	params: SelectionSnapshot;
}

/** The plugin's editor tracker in a realistic Obsidian: real CodeMirror editors in jsdom, the fake workspace, a real Notifier. */
class TrackerWorld {
	readonly app = new App("/vault", "Vault");
	plugin = new Plugin(this.app, { id: "claude-code-bridge", name: "Claude Code Bridge", version: "0" });
	readonly sent: Sent[] = [];
	readonly notifier = new Notifier({
		broadcast: (method, params) => this.sent.push({ method, params: params as SelectionSnapshot }),
		notifyClient: () => undefined,
		hasClients: () => true,
		currentSelection: () => undefined,
		privacy: privacyByPath(() => false),
		debounceMs: DEBOUNCE_MS,
		welcomeDelayMs: 0,
		maxQueuedMentions: 10,
		queuedMentionTtlMs: 60_000,
		queuedMentionSpacingMs: 10,
	});
	tracker: EditorTracker;
	private bridgeOn = true;
	private readonly paths = new VaultPaths("/vault");

	constructor() {
		for (const [path, text] of Object.entries(NOTES)) this.app.vault.contents.set(path, text);
		this.tracker = this.startTracker();
		this.app.workspace.finishLayout();
	}

	/** The plugin is disabled and enabled again (or updated) while the workspace stays as it is. */
	restartPlugin(): void {
		this.plugin.unload();
		this.plugin = new Plugin(this.app, this.plugin.manifest);
		this.tracker = this.startTracker();
	}

	private startTracker(): EditorTracker {
		const tracker = new EditorTracker(this.plugin as never, {
			paths: () => (this.bridgeOn ? this.paths : undefined),
			notifier: () => (this.bridgeOn ? this.notifier : undefined),
		});
		this.plugin.load();
		tracker.register();
		return tracker;
	}

	file(path: string): TFile {
		const file = this.app.vault.getFileByPath(path);
		if (!file) throw new Error(`no note ${path}`);
		return file;
	}

	/** Opens a note as the user does from the file explorer: in a leaf (a new tab unless told otherwise), made active. */
	async open(
		path: string,
		leaf: WorkspaceLeaf = this.app.workspace.getLeaf("tab"),
	): Promise<{ leaf: WorkspaceLeaf; view: MarkdownView; driver: EditorDriver }> {
		await leaf.openFile(this.file(path), { active: true });
		this.app.workspace.flushEvents();
		const view = leaf.view;
		if (!(view instanceof MarkdownView)) throw new Error("the leaf holds no Markdown view");
		return { leaf, view, driver: EditorDriver.of(view).focus() };
	}

	/** What clients received, as [file, text, start, end] (0-based line:character). */
	received(): string[] {
		return this.sent.map(({ method, params }) => {
			const { start, end } = params.selection;
			return `${method} ${params.filePath} ${JSON.stringify(params.text)} ${start.line}:${start.character}-${end.line}:${end.character}`;
		});
	}

	clear(): void {
		this.sent.length = 0;
	}

	turnBridgeOff(): void {
		this.bridgeOn = false;
	}

	dispose(): void {
		this.plugin.unload();
		this.notifier.dispose();
	}
}

describe("EditorTracker with real CodeMirror editors", () => {
	let windows: BrowserWindows;
	let world: TrackerWorld;

	beforeEach(() => {
		jest.useFakeTimers({ doNotFake: ["nextTick", "queueMicrotask", "setImmediate"] });
		windows = BrowserWindows.install();
		world = new TrackerWorld();
	});

	afterEach(() => {
		world?.dispose();
		windows?.uninstall();
		jest.useRealTimers();
	});

	describe("selection gestures", () => {
		it("sends a mouse selection when the button is released, not before", async () => {
			const { driver } = await world.open("Notes/alpha.md");
			world.clear();
			driver.dragOver("body");
			expect(world.received()).toEqual([]);
			driver.mouseUp();
			expect(world.received()).toEqual(['selection_changed /vault/Notes/alpha.md "body" 1:6-1:10']);
		});

		it("sends a keyboard selection (Shift+arrows through CodeMirror's keymap) when Shift is released", async () => {
			const { driver } = await world.open("Notes/alpha.md");
			driver.click(driver.offsetOf("alpha body"));
			world.clear();
			driver.shiftPress("ArrowRight", 5);
			expect(world.received()).toEqual([]);
			driver.keyUp("Shift");
			expect(world.received()).toEqual(['selection_changed /vault/Notes/alpha.md "alpha" 1:0-1:5']);
		});

		it("sends a selection that no gesture ends once the editor was quiet for the debounce", async () => {
			const { driver } = await world.open("Notes/alpha.md");
			world.clear();
			driver.dragOver("last");
			jest.advanceTimersByTime(DEBOUNCE_MS - 1);
			expect(world.received()).toEqual([]);
			driver.dragOver("last line");
			jest.advanceTimersByTime(DEBOUNCE_MS - 1);
			expect(world.received()).toEqual([]);
			jest.advanceTimersByTime(1);
			expect(world.received()).toEqual(['selection_changed /vault/Notes/alpha.md "last line" 2:0-2:9']);
		});

		it("reports the main selection of several cursors", async () => {
			const { driver } = await world.open("Notes/alpha.md");
			world.clear();
			driver
				.selectRanges(
					[
						[driver.offsetOf("Alpha"), driver.offsetOf("Alpha", true)],
						[driver.offsetOf("last"), driver.offsetOf("last", true)],
					],
					0,
				)
				.mouseUp();
			expect(world.received()).toEqual(['selection_changed /vault/Notes/alpha.md "Alpha" 0:2-0:7']);
		});

		it("counts lines of CRLF notes as the file's lines, characters in UTF-16 code units, and frontmatter as lines", async () => {
			const crlf = await world.open("Notes/crlf.md");
			world.clear();
			crlf.driver.dragOver("line").mouseUp();
			const emoji = await world.open("Notes/emoji.md");
			emoji.driver.dragOver("coder").mouseUp();
			const frontmatter = await world.open("Notes/frontmatter.md");
			frontmatter.driver.dragOver("body").mouseUp();
			expect(world.received()).toEqual([
				'selection_changed /vault/Notes/crlf.md "line" 1:7-1:11',
				'selection_changed /vault/Notes/emoji.md "" 0:0-0:0',
				'selection_changed /vault/Notes/emoji.md "coder" 1:6-1:11',
				'selection_changed /vault/Notes/frontmatter.md "" 0:0-0:0',
				'selection_changed /vault/Notes/frontmatter.md "body" 5:0-5:4',
			]);
		});

		it("reads the welcome selection from the active note's editor", async () => {
			const { driver } = await world.open("Notes/emoji.md");
			driver.dragOver("emoji line").mouseUp();
			expect(world.tracker.currentSelection()).toMatchObject({
				filePath: "/vault/Notes/emoji.md",
				text: "emoji line",
				selection: { start: { line: 0, character: 3 }, end: { line: 0, character: 13 } },
			});
		});
	});

	describe("note switches", () => {
		it("reports a note opened by a link in the same tab: file-open only, the state swapped in the same EditorView", async () => {
			const { view, driver } = await world.open("Notes/alpha.md");
			world.clear();
			// Obsidian loads the linked note into the same view and swaps the editor's state (`EditorView.setState`,
			// which no update listener sees); `file-open` is the event (obsidian.d.ts: "the file could be in a new leaf,
			// an existing leaf, or an embed"); the active leaf does not change.
			await view.setState({ file: "Notes/beta.md" }, { history: true });
			expect(EditorDriver.of(view).cm).toBe(driver.cm);
			expect(driver.text).toBe(NOTES["Notes/beta.md"]);
			world.app.workspace.trigger("file-open", world.file("Notes/beta.md"));
			expect(world.received()).toEqual(['selection_changed /vault/Notes/beta.md "" 0:0-0:0']);

			driver.dragOver("beta body").mouseUp();
			expect(world.received().at(-1)).toBe('selection_changed /vault/Notes/beta.md "beta body" 1:0-1:9');
		});

		it("reports a note at its start when file-open comes before the view holds it, and ignores a canvas", async () => {
			await world.open("Notes/alpha.md");
			world.clear();
			world.app.workspace.trigger("file-open", new TFile("Boards/plan.canvas"));
			world.app.workspace.trigger("file-open", null);
			world.app.workspace.trigger("file-open", world.file("Notes/gamma.md"));
			expect(world.received()).toEqual(['selection_changed /vault/Notes/gamma.md "" 0:0-0:0']);
		});

		it("reports a tab switch once, though both active-leaf-change and file-open fire", async () => {
			const alpha = await world.open("Notes/alpha.md");
			await world.open("Notes/beta.md");
			world.clear();
			world.app.workspace.setActiveLeaf(alpha.leaf);
			world.app.workspace.flushEvents();
			expect(world.received()).toEqual(['selection_changed /vault/Notes/alpha.md "" 0:0-0:0']);
		});

		it("drops a pending selection of the note the user left", async () => {
			const alpha = await world.open("Notes/alpha.md");
			alpha.driver.dragOver("alpha body");
			await world.open("Notes/beta.md");
			jest.advanceTimersByTime(DEBOUNCE_MS * 2);
			expect(world.received().filter((line) => line.includes("alpha body"))).toEqual([]);
		});

		it("reports nothing while the bridge is off", async () => {
			world.turnBridgeOff();
			const { driver } = await world.open("Notes/alpha.md");
			driver.dragOver("alpha").mouseUp();
			jest.advanceTimersByTime(DEBOUNCE_MS);
			expect(world.received()).toEqual([]);
		});
	});

	describe("which editor is the user's", () => {
		it("ignores selection changes in a note in another pane that the user is not in", async () => {
			const alpha = await world.open("Notes/alpha.md");
			const beta = await world.open("Notes/beta.md", world.app.workspace.getLeaf("split"));
			world.app.workspace.setActiveLeaf(alpha.leaf);
			world.app.workspace.flushEvents();
			alpha.driver.focus();
			world.clear();
			// Something other than the user moves the selection in the other pane (a plugin, Obsidian's own sync).
			beta.view.editor.setSelection({ line: 1, ch: 0 }, { line: 1, ch: 4 });
			jest.advanceTimersByTime(DEBOUNCE_MS);
			expect(world.received()).toEqual([]);

			// The user clicks into the other pane: it becomes active and focused, and its selections count.
			world.app.workspace.setActiveLeaf(beta.leaf);
			beta.driver.focus().dragOver("body").mouseUp();
			world.app.workspace.flushEvents();
			expect(world.received()).toEqual(['selection_changed /vault/Notes/beta.md "body" 1:5-1:9']);
		});

		it("ignores hover previews, embedded editors and canvas cards the user is not in", async () => {
			const alpha = await world.open("Notes/alpha.md");
			const hover = new SecondaryEditor(world.app, world.file("Notes/gamma.md"), NOTES["Notes/gamma.md"] ?? "");
			world.clear();
			hover.driver.drag(0, 7);
			jest.advanceTimersByTime(DEBOUNCE_MS);
			expect(world.received()).toEqual([]);

			// A canvas card has focus, but its file is the canvas, not a note.
			const card = new SecondaryEditor(world.app, new TFile("Boards/plan.canvas"), "card text");
			card.driver.focus().drag(0, 4).mouseUp();
			jest.advanceTimersByTime(DEBOUNCE_MS);
			expect(world.received()).toEqual([]);
			hover.close();
			card.close();
			alpha.driver.focus();
		});

		it("reports an embedded editor the user is typing in (it has focus)", async () => {
			await world.open("Notes/alpha.md");
			const embed = new SecondaryEditor(world.app, world.file("Notes/gamma.md"), NOTES["Notes/gamma.md"] ?? "");
			world.clear();
			embed.driver.focus().drag(0, 7).mouseUp();
			expect(world.received()).toEqual(['selection_changed /vault/Notes/gamma.md "# Gamma" 0:0-0:7']);
			embed.close();
		});

		it("reports a selection the active note gets while focus is elsewhere (the outline, a search result)", async () => {
			const { view, driver } = await world.open("Notes/alpha.md");
			driver.blur();
			world.clear();
			view.editor.setSelection({ line: 2, ch: 0 }, { line: 2, ch: 4 });
			jest.advanceTimersByTime(DEBOUNCE_MS);
			expect(world.received()).toEqual(['selection_changed /vault/Notes/alpha.md "last" 2:0-2:4']);
		});
	});

	describe("popout windows", () => {
		/**
		 * A note in a popout window (the fake workspace's `getLeaf("window")`, which fires `window-open`): the window
		 * is a jsdom window of its own, and the note's editor lives in its document.
		 */
		async function openInPopout(path: string) {
			world.app.workspace.createPopoutWindow = () => windows.openPopout();
			const opened = await world.open(path, world.app.workspace.getLeaf("window"));
			const container = opened.leaf.group.container;
			if (!(container instanceof WorkspaceWindow)) throw new Error("the leaf is not in a popout");
			const popoutDocument = opened.driver.cm.dom.ownerDocument;
			expect(popoutDocument).not.toBe(document);
			expect(popoutDocument).toBe(container.doc);
			return { ...opened, popout: container, popoutDocument };
		}

		it("ends mouse and keyboard selections in a popout window at once", async () => {
			const { driver } = await openInPopout("Notes/beta.md");
			world.clear();
			driver.dragOver("beta").mouseUp();
			expect(world.received()).toEqual(['selection_changed /vault/Notes/beta.md "beta" 1:0-1:4']);
			driver.click(0).shiftPress("ArrowRight", 2).keyUp("Shift");
			expect(world.received().at(-1)).toBe('selection_changed /vault/Notes/beta.md "# " 0:0-0:2');
		});

		it("listens to popout windows that were open before the plugin loaded", async () => {
			const { driver, view, popoutDocument } = await openInPopout("Notes/beta.md");
			// Obsidian's views live in their window's DOM; the fake's view element is not a DOM node, so it is told.
			Object.defineProperty(view.containerEl, "ownerDocument", { value: popoutDocument });
			world.restartPlugin();
			world.clear();
			driver.dragOver("body").mouseUp();
			expect(world.received()).toEqual(['selection_changed /vault/Notes/beta.md "body" 1:5-1:9']);
		});

		it("stops listening to a popout window when it closes", async () => {
			const { popout, popoutDocument } = await openInPopout("Notes/beta.md");
			const alpha = await world.open("Notes/alpha.md");
			world.app.workspace.closePopout(popout);
			world.clear();
			alpha.driver.dragOver("alpha");
			popoutDocument.dispatchEvent(
				new (popoutDocument.defaultView ?? window).MouseEvent("mouseup", { bubbles: true }),
			);
			expect(world.received()).toEqual([]);
			jest.advanceTimersByTime(DEBOUNCE_MS);
			expect(world.received()).toEqual(['selection_changed /vault/Notes/alpha.md "alpha" 1:0-1:5']);
		});
	});

	it("stops listening when the plugin unloads", async () => {
		const { driver } = await world.open("Notes/alpha.md");
		world.plugin.unload();
		world.clear();
		driver.dragOver("alpha").mouseUp();
		jest.advanceTimersByTime(DEBOUNCE_MS);
		expect(world.received()).toEqual([]);
	});
});
