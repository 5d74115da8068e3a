import type { EditorView } from "@codemirror/view";
import { InlineEditRun, type AcceptedChange } from "../../../src/agent/inline-edit/inline-edit-run";
import type { InlineEditService } from "../../../src/agent/inline-edit/inline-edit-service";
import { InlineEditCommands } from "../../../src/obsidian/editor/inline-edit-commands";
import { App, MarkdownView, Plugin, type WorkspaceLeaf } from "../../__mocks__/obsidian";
import { FakeAgentSession } from "../../helpers/fake-agent-engine";
import { EditorDriver } from "../harness/cm6-editor";

export const COMMAND = "edit-with-claude";

/**
 * The inline edit's service as the editor sees it (NOT the real one, which tests/assembly/inline-edit-assembly.test.ts
 * and the e2e test cover): a refusal the test sets, a scripted Claude per inline edit, and a recorder that notes
 * what the disk held when an accepted change was recorded.
 */
export class FakeInlineEditService implements InlineEditService {
	refused: string | undefined;
	readonly sessions: FakeAgentSession[] = [];
	readonly recorded: { change: AcceptedChange; diskBefore: string | undefined; diskAfter: string | undefined }[] = [];

	constructor(private readonly app: App) {}

	refusal(): string | undefined {
		return this.refused;
	}

	start(): InlineEditRun {
		const session = new FakeAgentSession({ permissionMode: "default", textOnly: { systemPrompt: "test" } });
		this.sessions.push(session);
		return new InlineEditRun(session, async (change, write) => {
			const diskBefore = this.app.vault.contents.get(change.path);
			await write();
			this.recorded.push({ change, diskBefore, diskAfter: this.app.vault.contents.get(change.path) });
		});
	}

	/** The inline edit's Claude started last. */
	get claude(): FakeAgentSession {
		const session = this.sessions.at(-1);
		if (!session) throw new Error("no inline edit started");
		return session;
	}
}

/** A plugin with "Edit with Claude" registered, over the fake workspace, with real CodeMirror editors. */
export class InlineEditWorld {
	readonly app = new App("/vault", "Vault");
	readonly plugin = new Plugin(this.app, { id: "claude-code-bridge", name: "Claude Code Bridge", version: "0" });
	readonly service = new FakeInlineEditService(this.app);
	loads = 0;

	constructor(notes: Record<string, string>) {
		for (const [path, text] of Object.entries(notes)) this.app.vault.contents.set(path, text);
		new InlineEditCommands(this.plugin as never, () => {
			this.loads++;
			return Promise.resolve(this.service);
		}).register();
		this.plugin.load();
		this.app.workspace.finishLayout();
	}

	/** Opens a note in a new tab (or `leaf`) and focuses its editor. */
	async open(path: string, leaf: WorkspaceLeaf = this.app.workspace.getLeaf("tab")): Promise<NoteEditor> {
		const file = this.app.vault.getFileByPath(path);
		if (!file) throw new Error(`no note ${path}`);
		await leaf.openFile(file, { active: true });
		this.app.workspace.flushEvents();
		if (!(leaf.view instanceof MarkdownView)) throw new Error("no Markdown view");
		return new NoteEditor(leaf.view, EditorDriver.of(leaf.view).focus());
	}

	disk(path: string): string | undefined {
		return this.app.vault.contents.get(path);
	}
}

/** One note's editor with its inline edit, read from the editor's DOM as a user sees it. */
export class NoteEditor {
	constructor(
		readonly view: MarkdownView,
		readonly driver: EditorDriver,
	) {}

	get cm(): EditorView {
		return this.driver.cm;
	}

	get panel(): HTMLElement | null {
		return this.cm.dom.querySelector(".ccb-inline-panel");
	}

	get status(): string {
		return this.panel?.querySelector(".ccb-inline-status")?.textContent ?? "";
	}

	get input(): HTMLInputElement {
		const input = this.panel?.querySelector<HTMLInputElement>(".ccb-inline-input");
		if (!input) throw new Error("no request box");
		return input;
	}

	/** The struck and the underlined text in the note, in order. */
	get suggestions(): { removed: string[]; added: string[] } {
		const texts = (selector: string): string[] =>
			[...this.cm.contentDOM.querySelectorAll(selector)].map((element) => element.textContent ?? "");
		return { removed: texts(".ccb-suggest-removed"), added: texts("ins.ccb-suggest-added") };
	}

	/** Types a request into the box and presses Enter. */
	ask(words: string): void {
		this.input.value = words;
		this.key(this.input, "Enter");
	}

	/** A key pressed in the request box or on a change's button (`mod`: Ctrl here, as on Windows and Linux). */
	key(target: HTMLElement, key: string, mod = false, alt = false): void {
		const view = target.ownerDocument.defaultView;
		if (!view) throw new Error("no window");
		target.dispatchEvent(
			new view.KeyboardEvent("keydown", { key, ctrlKey: mod, altKey: alt, bubbles: true, cancelable: true }),
		);
	}

	/** The element that has the focus in the note's window. */
	get focused(): Element | null {
		return this.cm.dom.ownerDocument.activeElement;
	}

	/** Clicks a change's accept or reject button in the note. */
	decide(action: "accept" | "reject", change: number): void {
		const button = this.cm.contentDOM.querySelector<HTMLElement>(
			`[data-ccb-inline="${action}"][data-ccb-change="${change}"]`,
		);
		if (!button) throw new Error(`no ${action} button for change ${change}`);
		button.click();
	}

	button(text: string): HTMLButtonElement {
		const button = [...(this.panel?.querySelectorAll("button") ?? [])].find((each) =>
			each.textContent?.startsWith(text),
		);
		if (!button) throw new Error(`no button "${text}"`);
		return button;
	}

	visible(text: string): boolean {
		return !this.button(text).classList.contains("is-hidden");
	}
}

/** Lets promise work and queued microtasks finish (no real waiting). */
export async function settle(rounds = 10): Promise<void> {
	for (let round = 0; round < rounds; round++) await Promise.resolve();
}
