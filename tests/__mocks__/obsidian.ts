/**
 * A hand-written stand-in for the `obsidian` module, NOT Obsidian. Lifecycle behaviour (load/unload
 * cascading, register* cleanups) follows the real Component. Regions that model Obsidian's behaviour (the
 * workspace, leaves, views, vault) say where each behaviour comes from: obsidian.d.ts, Obsidian's developer
 * docs, or what Obsidian was observed to do. Anything marked "Test helper" does not exist in Obsidian.
 */

import {
	Compartment,
	EditorSelection,
	EditorState,
	StateField,
	findClusterBreak,
	type Extension,
} from "@codemirror/state";
import type { BlockCache, CachedMetadata, HeadingCache, LinkCache, ListItemCache, Loc } from "obsidian";
import { EditorView, keymap } from "@codemirror/view";

type Callback = () => void;

export class Component {
	private loaded = false;
	private readonly children: Component[] = [];
	private readonly cleanups: Callback[] = [];

	load(): void {
		if (this.loaded) return;
		this.loaded = true;
		const result: unknown = this.onload();
		if (result instanceof Promise) void result.then(() => this.children.forEach((child) => child.load()));
		else this.children.forEach((child) => child.load());
	}

	onload(): void | Promise<void> {}

	unload(): void {
		if (!this.loaded) return;
		this.loaded = false;
		while (this.children.length > 0) this.children.pop()?.unload();
		while (this.cleanups.length > 0) this.cleanups.pop()?.();
		this.onunload();
	}

	onunload(): void {}

	addChild<T extends Component>(child: T): T {
		this.children.push(child);
		if (this.loaded) child.load();
		return child;
	}

	removeChild<T extends Component>(child: T): T {
		const index = this.children.indexOf(child);
		if (index >= 0) {
			this.children.splice(index, 1);
			child.unload();
		}
		return child;
	}

	register(callback: Callback): void {
		this.cleanups.push(callback);
	}

	registerEvent(ref: EventRef): void {
		this.register(() => ref.detach());
	}

	registerInterval(id: number): number {
		this.register(() => clearInterval(id));
		return id;
	}

	/** obsidian.d.ts Component.registerDomEvent: "Registers an DOM event to be detached when unloading". */
	registerDomEvent(
		target: DomEventTarget,
		type: string,
		callback: (event: unknown) => unknown,
		options?: boolean | AddEventListenerOptions,
	): void {
		if (target instanceof FakeElement) {
			target.addEventListener(type, callback);
			this.register(() => target.removeEventListener(type, callback));
			return;
		}
		target.addEventListener(type, callback, options);
		this.register(() => target.removeEventListener(type, callback, options));
	}
}

/** A window, document or element (jsdom's), or the fake's FakeElement. */
type DomEventTarget =
	| FakeElement
	| {
			addEventListener(
				type: string,
				listener: (event: never) => unknown,
				options?: boolean | AddEventListenerOptions,
			): void;
			removeEventListener(
				type: string,
				listener: (event: never) => unknown,
				options?: boolean | AddEventListenerOptions,
			): void;
	  };

export interface EventRef {
	detach(): void;
}

export class Events {
	private readonly handlers = new Map<string, Set<(...args: unknown[]) => unknown>>();

	on(name: string, callback: (...args: unknown[]) => unknown): EventRef {
		const set = this.handlers.get(name) ?? new Set();
		set.add(callback);
		this.handlers.set(name, set);
		return { detach: () => set.delete(callback) };
	}

	trigger(name: string, ...args: unknown[]): void {
		for (const handler of this.handlers.get(name) ?? []) handler(...args);
	}

	/** Test-only inspection (Obsidian has no such method): how many handlers listen to `name` now. */
	listenerCount(name: string): number {
		return this.handlers.get(name)?.size ?? 0;
	}
}

/** obsidian.d.ts `DomElementInfo`, the parts the fake keeps. */
export interface FakeElementInfo {
	cls?: string | string[];
	text?: string;
	attr?: Record<string, string | number | boolean | null>;
	/** obsidian.d.ts `DomElementInfo.prepend`: put the new element first among its parent's children. */
	prepend?: boolean;
}

/** A status bar element with the HTMLElement helpers the plugin uses. */
export class FakeElement {
	text = "";
	readonly attributes = new Map<string, string>();
	readonly classes = new Set<string>();

	setText(text: string): void {
		this.text = text;
	}
	setAttribute(name: string, value: string): void {
		this.attributes.set(name, value);
	}
	/** `Element.getAttribute`: null when the attribute is not set. */
	getAttribute(name: string): string | null {
		return this.attributes.get(name) ?? null;
	}
	/** `HTMLElement.isContentEditable`, from its own `contenteditable` attribute (inheritance not modelled). */
	get isContentEditable(): boolean {
		const editable = this.attributes.get("contenteditable");
		return editable === "" || editable === "true" || editable === "plaintext-only";
	}
	addClass(name: string): void {
		this.classes.add(name);
	}
	toggleClass(name: string, on: boolean): void {
		if (on) this.classes.add(name);
		else this.classes.delete(name);
	}

	// A tiny element tree for views: Obsidian's createEl/createDiv/createSpan/empty and DOM events.
	tag = "div";
	value = "";
	/** The element's scroll position and its visible height (0 until a test lays it out). */
	scrollTop = 0;
	clientHeight = 0;
	/** obsidian.d.ts `setCssProps`: CSS custom properties set on the element. */
	readonly cssProps = new Map<string, string>();
	setCssProps(props: Record<string, string>): void {
		for (const [name, value] of Object.entries(props)) this.cssProps.set(name, value);
	}
	readonly children: FakeElement[] = [];
	/** The element this one was created in (undefined for a root). */
	parent: FakeElement | undefined;
	private readonly listeners = new Map<string, Set<(event: unknown) => void>>();

	createEl(tag: string, options?: FakeElementInfo): FakeElement {
		return this.appendChild(tag, options ?? {});
	}
	createDiv(options?: FakeElementInfo): FakeElement {
		return this.appendChild("div", options ?? {});
	}
	createSpan(options?: FakeElementInfo): FakeElement {
		return this.appendChild("span", options ?? {});
	}
	/** obsidian.d.ts `Node.appendText`: a text node at the end; here a child with the tag `#text`. */
	appendText(text: string): void {
		this.appendChild("#text", { text });
	}
	/** `Element.remove()`: leaves its parent. */
	remove(): void {
		const siblings = this.parent?.children;
		if (siblings && siblings.includes(this)) siblings.splice(siblings.indexOf(this), 1);
		this.parent = undefined;
		this.dropFocusWithin();
	}
	/** HTML's "focus fixup": a focused element taken out of the document leaves the focus to the body. */
	private dropFocusWithin(): void {
		for (let at = FakeElement.lastFocused; at; at = at.parent) {
			if (at !== this) continue;
			FakeElement.lastFocused = undefined;
			return;
		}
	}
	private appendChild(tag: string, options: FakeElementInfo): FakeElement {
		const element = new FakeElement();
		element.tag = tag;
		element.parent = this;
		for (const name of typeof options.cls === "string" ? [options.cls] : (options.cls ?? []))
			element.addClass(name);
		if (options.text !== undefined) element.setText(options.text);
		for (const [name, value] of Object.entries(options.attr ?? {}))
			if (value !== null) element.setAttribute(name, String(value));
		if (options.prepend) this.children.unshift(element);
		else this.children.push(element);
		return element;
	}
	empty(): void {
		for (const child of this.children) child.dropFocusWithin();
		for (const child of this.children) child.parent = undefined;
		this.children.length = 0;
		this.text = "";
	}
	/** `Element.tagName`: the tag in capitals, as for HTML elements. */
	get tagName(): string {
		return this.tag.toUpperCase();
	}
	/** `Node.contains`: this element or one below it (an emptied or removed element is below nothing). */
	contains(other: FakeElement | null): boolean {
		for (let at: FakeElement | undefined = other ?? undefined; at; at = at.parent) if (at === this) return true;
		return false;
	}
	hasClass(name: string): boolean {
		return this.classes.has(name);
	}
	addEventListener(type: string, listener: (event: unknown) => void): void {
		const set = this.listeners.get(type) ?? new Set();
		set.add(listener);
		this.listeners.set(type, set);
	}
	removeEventListener(type: string, listener: (event: unknown) => void): void {
		this.listeners.get(type)?.delete(listener);
	}
	/** Test helper: the DOM event types something listens for here. */
	get listenedTo(): string[] {
		return [...this.listeners].filter(([, set]) => set.size > 0).map(([type]) => type);
	}
	/** Test helper: the element `focus()` was last called on (the fake keeps no real focus). */
	static lastFocused: FakeElement | undefined;
	/** HTMLElement.focus: remembered in `FakeElement.lastFocused`. */
	focus(): void {
		FakeElement.lastFocused = this;
	}
	/** `Node.ownerDocument`: the main window's document (`activeDocument` while no popout has focus). */
	get ownerDocument(): unknown {
		return (globalThis as { activeDocument?: unknown }).activeDocument;
	}
	/** HTMLInputElement's selection, as `setSelectionRange` left it (null until then). */
	selectionStart: number | null = null;
	selectionEnd: number | null = null;
	setSelectionRange(start: number, end: number): void {
		this.selectionStart = start;
		this.selectionEnd = end;
	}
	/** HTMLElement.blur: the focus leaves this element (for the document's body, here `lastFocused` undefined). */
	blur(): void {
		if (FakeElement.lastFocused === this) FakeElement.lastFocused = undefined;
	}
	/** Test helper: fires a DOM event at this element; `init` adds the event's fields (key, shiftKey, dataTransfer …). */
	dispatch(type: string, init: Record<string, unknown> = {}): void {
		for (const listener of this.listeners.get(type) ?? [])
			listener({ type, preventDefault: () => undefined, ...init });
	}
	/** Test helper: the text of this element and everything below it. */
	get textContent(): string {
		return this.text + this.children.map((child) => child.textContent).join("");
	}
	/** Test helper: every element below this one that has the class. */
	findAll(name: string): FakeElement[] {
		return this.children.flatMap((child) => [...(child.hasClass(name) ? [child] : []), ...child.findAll(name)]);
	}
}

/**
 * Obsidian's `FileSystemAdapter` (obsidian.d.ts): the desktop adapter; only `getBasePath` is used here.
 */
export class FileSystemAdapter {
	constructor(private readonly basePath: string) {}
	getBasePath(): string {
		return this.basePath;
	}
}

// ---------------------------------------------------------------------------------------------
// Workspace region (helper B). A stand-in for Obsidian's workspace, NOT Obsidian: a flat list of
// tab groups instead of the real split tree. Each behaviour cites where it comes from.
// ---------------------------------------------------------------------------------------------

export type PaneType = "tab" | "split" | "window";

/** obsidian.d.ts `ViewState`. */
export interface ViewState {
	type: string;
	state?: Record<string, unknown>;
	active?: boolean;
	pinned?: boolean;
	group?: WorkspaceLeaf;
}

/** obsidian.d.ts `OpenViewState`. */
export interface OpenViewState {
	state?: Record<string, unknown>;
	eState?: Record<string, unknown>;
	active?: boolean;
	group?: WorkspaceLeaf;
}

/** A popout window's `window`: a DOM event target with a `document` (a jsdom window fits). */
export interface PopoutWindow extends EventTarget {
	readonly document: EventTarget;
}

/** A document that is only a DOM event target (Node's EventTarget). */
export class FakeDocument extends EventTarget {
	/** `Document.activeElement`: the element focused last (null: the body, nothing focused). */
	get activeElement(): FakeElement | null {
		return FakeElement.lastFocused ?? null;
	}
}

/** The default popout window: real DOM event targets (Node's EventTarget), nothing more. */
export class FakeWindow extends EventTarget implements PopoutWindow {
	readonly document = new FakeDocument();
}

/** obsidian.d.ts `WorkspaceWindow`: a popout window (`win`, `doc`). */
export class WorkspaceWindow {
	constructor(readonly win: PopoutWindow) {}
	get doc(): EventTarget {
		return this.win.document;
	}
}

/** A tab group: one leaf shows (the current tab), the others are in the background. */
export class WorkspaceTabs {
	readonly children: WorkspaceLeaf[] = [];
	current: WorkspaceLeaf | undefined;
	constructor(
		/** "root" (main area), "sidebar", or the popout window it lives in. */
		readonly container: "root" | "sidebar" | WorkspaceWindow,
	) {}
}

/** A view type Obsidian can build (`Plugin.registerView` adds to it; obsidian.d.ts `ViewCreator`). */
export type ViewCreator = (leaf: WorkspaceLeaf) => View;

export class Workspace extends Events {
	/** obsidian.d.ts: "If the layout of the app has been successfully initialized." */
	layoutReady = false;
	/** obsidian.d.ts: deprecated "currently focused leaf"; the plugin must not read it (tests may). */
	activeLeaf: WorkspaceLeaf | null = null;
	/** Legacy test override: when set, `getActiveViewOfType` answers from it instead of the active leaf. */
	activeView: unknown = null;
	/** Legacy test override: when set, `getActiveFile` answers it. */
	activeFile: TFile | null = null;
	/** Tab groups: the root's first, then sidebars and popout windows in creation order. */
	readonly tabGroups: WorkspaceTabs[] = [new WorkspaceTabs("root")];
	private lastActiveFile: TFile | null = null;
	private mostRecentRootLeaf: WorkspaceLeaf | null = null;
	private activeLeafEventsTimer: ReturnType<typeof setTimeout> | undefined;
	private layoutChangeTimer: ReturnType<typeof setTimeout> | undefined;
	private readonly readyCallbacks: Callback[] = [];

	constructor(readonly app: App) {
		super();
	}

	/**
	 * obsidian.d.ts: "A component managing the current editor. This can be null if the active view has no
	 * editor." The active MarkdownView is its own MarkdownFileInfo.
	 */
	get activeEditor(): MarkdownView | null {
		return this.getActiveViewOfType(MarkdownView);
	}

	getActiveViewOfType<T>(type: abstract new (...args: never[]) => T): T | null {
		if (this.activeView !== null) return this.activeView instanceof type ? this.activeView : null;
		const view = this.activeLeaf?.view;
		return view instanceof type ? view : null;
	}

	/**
	 * obsidian.d.ts `getMostRecentLeaf(root?)`: "Get the most recently active leaf in a given workspace root. Useful
	 * for interacting with the leaf in the root split while a sidebar leaf might be active." Without `root`, the
	 * main area's (rootSplit). A leaf that was closed since is not returned.
	 */
	getMostRecentLeaf(): WorkspaceLeaf | null {
		const leaf = this.mostRecentRootLeaf;
		return leaf && leaf.group.children.includes(leaf) ? leaf : null;
	}

	/** obsidian.d.ts: "the file for the current view if it's a FileView. Otherwise ... the most recently active file." */
	getActiveFile(): TFile | null {
		if (this.activeFile !== null) return this.activeFile;
		const view = this.activeLeaf?.view;
		if (view instanceof MarkdownView) return view.file;
		return this.lastActiveFile;
	}

	onLayoutReady(callback: Callback): void {
		if (this.layoutReady) callback();
		else this.readyCallbacks.push(callback);
	}

	/** Test helper: what Obsidian does once the workspace is ready. */
	finishLayout(): void {
		this.layoutReady = true;
		while (this.readyCallbacks.length > 0) this.readyCallbacks.shift()?.();
	}

	/** obsidian.d.ts: "Iterate through all leaves, including main area leaves, floating leaves, and sidebar leaves." */
	iterateAllLeaves(callback: (leaf: WorkspaceLeaf) => unknown): void {
		for (const group of this.tabGroups) for (const leaf of [...group.children]) callback(leaf);
	}

	/** obsidian.d.ts: "Iterate through all leaves in the main area of the workspace." */
	iterateRootLeaves(callback: (leaf: WorkspaceLeaf) => unknown): void {
		for (const group of this.tabGroups)
			if (group.container === "root") for (const leaf of [...group.children]) callback(leaf);
	}

	/**
	 * obsidian.d.ts "Get all leaves of a given type". Deferred leaves count under their real type: the docs
	 * ("Understanding deferred views") warn that `getLeavesOfType` returns leaves whose view is not yet the type's class.
	 */
	getLeavesOfType(viewType: string): WorkspaceLeaf[] {
		const leaves: WorkspaceLeaf[] = [];
		this.iterateAllLeaves((leaf) => {
			if (leaf.view.getViewType() === viewType) leaves.push(leaf);
		});
		return leaves;
	}

	/** Test helper: the link texts `openLinkText` was asked to open, in order. */
	readonly openedLinks: string[] = [];

	/** obsidian.d.ts `openLinkText(linktext, sourcePath, newLeaf?)`: opens the note the link resolves to. */
	async openLinkText(linktext: string, sourcePath: string, newLeaf?: PaneType | boolean): Promise<void> {
		this.openedLinks.push(linktext);
		const file =
			this.app.metadataCache.getFirstLinkpathDest(linktext.split("#")[0] ?? "", sourcePath) ??
			this.app.vault.getFileByPath(linktext);
		if (file) await this.getLeaf(newLeaf).openFile(file);
	}

	detachLeavesOfType(viewType: string): void {
		for (const leaf of this.getLeavesOfType(viewType)) leaf.detach();
	}

	/**
	 * obsidian.d.ts `getLeaf`: false/undefined → "an existing leaf which can be navigated is returned, or a new
	 * leaf will be created"; true/'tab' → a new leaf in the root split; 'split' → a new leaf next to the active
	 * one; 'window' → a popout window with a new leaf. d.ts does not say the new leaf becomes active: the fake
	 * leaves activation to `openFile`/`setViewState` (`active`) and `setActiveLeaf`.
	 */
	/** obsidian.d.ts `getRightLeaf`: a leaf in the right sidebar; the fake has no sidebars, so it is a new split. */
	getRightLeaf(_split: boolean): WorkspaceLeaf | null {
		return this.getLeaf("split");
	}
	getLeaf(newLeaf?: PaneType | boolean): WorkspaceLeaf {
		if (newLeaf === "window") return this.openPopoutLeaf();
		const root = this.rootGroup();
		if (newLeaf === undefined || newLeaf === false) {
			const active = this.activeLeaf;
			if (active && active.group.container === "root" && active.view.navigation && !active.pinned) return active;
			const reusable = root.current;
			if (reusable && reusable.view.navigation && !reusable.pinned) return reusable;
		}
		const group = newLeaf === "split" ? this.addTabGroup("root") : root;
		return this.createLeafIn(group);
	}

	/** obsidian.d.ts `openPopoutLeaf`: a popout window with one new leaf; Obsidian fires `window-open` with it. */
	/** Test hook: builds the `window` of each new popout (e.g. a jsdom window); a bare event target by default. */
	createPopoutWindow: () => PopoutWindow = () => new FakeWindow();

	openPopoutLeaf(): WorkspaceLeaf {
		const popout = new WorkspaceWindow(this.createPopoutWindow());
		const group = this.addTabGroup(popout);
		const leaf = this.createLeafIn(group);
		this.trigger("window-open", popout, popout.win);
		return leaf;
	}

	/** Test helper: the user closes a popout window; its leaves detach, then `window-close` fires. */
	closePopout(popout: WorkspaceWindow): void {
		const group = this.tabGroups.find((candidate) => candidate.container === popout);
		if (!group) return;
		for (const leaf of [...group.children]) leaf.detach();
		this.tabGroups.splice(this.tabGroups.indexOf(group), 1);
		this.trigger("window-close", popout, popout.win);
	}

	/**
	 * obsidian.d.ts: "Bring a given leaf to the foreground ... `await` this function to ensure your view has
	 * been fully loaded and is not deferred" (async since 1.7.2, docs "Understanding deferred views").
	 */
	async revealLeaf(leaf: WorkspaceLeaf): Promise<void> {
		leaf.group.current = leaf;
		this.setActiveLeaf(leaf, { focus: true });
		await leaf.loadIfDeferred();
	}

	/**
	 * obsidian.d.ts `setActiveLeaf`. Showing a leaf loads it if deferred (docs "Understanding deferred views":
	 * "Once a view is visible on screen ... switched out to the correct View"). The events follow through a
	 * 0 ms debounce, as in Obsidian (`requestActiveLeafEvents`; observed in app.js, see `activeLeafEvents`).
	 */
	setActiveLeaf(leaf: WorkspaceLeaf, _params?: { focus?: boolean }): void {
		if (this.activeLeaf === leaf) return;
		this.activeLeaf = leaf;
		if (leaf.group.container === "root") this.mostRecentRootLeaf = leaf;
		leaf.group.current = leaf;
		void leaf.loadIfDeferred();
		this.requestActiveLeafEvents();
	}

	/** Obsidian's (undocumented) `requestActiveLeafEvents`: coalesces into one `activeLeafEvents` on the next tick. */
	requestActiveLeafEvents(): void {
		if (this.activeLeafEventsTimer !== undefined) return;
		this.activeLeafEventsTimer = setTimeout(() => this.activeLeafEvents(), 0);
	}

	/**
	 * Obsidian's `activeLeafEvents`, as read from app.js by obsidian-typings contributors and other faithful
	 * mocks: nothing before layout ready; then `active-leaf-change` with the active leaf, then `file-open` only
	 * when the active file differs from the last one announced. So a tab switch gives both events in that
	 * order; loading another note into the active tab (a link, the quick switcher) re-requests them too
	 * (FileView.loadFile → `requestActiveLeafEvents` when the leaf is active). obsidian-api#37 (lishid):
	 * "`file-open` is always triggered for the `Workspace.activeLeaf`"; obsidian-api#133: `active-leaf-change`
	 * means focus moved, not that a file opened.
	 */
	activeLeafEvents(): void {
		clearTimeout(this.activeLeafEventsTimer);
		this.activeLeafEventsTimer = undefined;
		if (!this.layoutReady) return;
		this.trigger("active-leaf-change", this.activeLeaf);
		const file = this.getActiveFile();
		if (file === this.lastActiveFile) return;
		this.lastActiveFile = file;
		this.trigger("file-open", file);
	}

	/** Obsidian's `requestLayoutChangeEvents`: `layout-change` after a 10 ms debounce, only once the layout is ready. */
	requestLayoutChange(): void {
		if (this.layoutChangeTimer !== undefined) return;
		this.layoutChangeTimer = setTimeout(() => this.layoutChangeEvents(), 10);
	}

	layoutChangeEvents(): void {
		clearTimeout(this.layoutChangeTimer);
		this.layoutChangeTimer = undefined;
		if (this.layoutReady) this.trigger("layout-change");
	}

	/** Test helper: fires the debounced workspace events now (active-leaf-change, file-open, layout-change). */
	flushEvents(): void {
		if (this.activeLeafEventsTimer !== undefined) this.activeLeafEvents();
		if (this.layoutChangeTimer !== undefined) this.layoutChangeEvents();
	}

	/** Test helper: a new leaf (holding the empty view) at the end of a tab group. */
	createLeafIn(group: WorkspaceTabs): WorkspaceLeaf {
		const leaf = new WorkspaceLeaf(this.app, group);
		group.children.push(leaf);
		group.current ??= leaf;
		this.requestLayoutChange();
		return leaf;
	}

	/** Test helper: a new, empty tab group (a split in the root, a sidebar, or a popout window). */
	addTabGroup(container: WorkspaceTabs["container"]): WorkspaceTabs {
		const group = new WorkspaceTabs(container);
		this.tabGroups.push(group);
		return group;
	}

	/** The leaf left the workspace: it is no longer active or current anywhere. */
	forgetLeaf(leaf: WorkspaceLeaf): void {
		const group = leaf.group;
		const index = group.children.indexOf(leaf);
		if (index >= 0) group.children.splice(index, 1);
		if (group.current === leaf) group.current = group.children[Math.min(index, group.children.length - 1)];
		if (this.activeLeaf === leaf) {
			// Obsidian re-picks the active leaf after a detach (the most recent one); the fake takes the group's current tab.
			this.activeLeaf = null;
			const next = group.current ?? this.rootGroup().current;
			if (next) this.setActiveLeaf(next);
			else this.requestActiveLeafEvents();
		}
		this.requestLayoutChange();
	}

	private rootGroup(): WorkspaceTabs {
		const root = this.tabGroups.find((group) => group.container === "root");
		if (!root) throw new Error("the fake workspace lost its root tab group");
		return root;
	}
}

/**
 * Obsidian's `Vault` (obsidian.d.ts), over an in-memory map of path → text that stands for the disk. One
 * TFile per path, as in Obsidian (the same object every lookup). Writes fire the vault events d.ts names:
 * `create`, `modify`, `delete`, `rename` (file, oldPath).
 */
export class Vault extends Events {
	/**
	 * obsidian.d.ts `Vault.configDir`: "Gets the path to the config folder. This value is typically `.obsidian` but it
	 * could be different." Tests here use a renamed one, so nothing may assume the usual name.
	 */
	configDir = ".vault-config";
	constructor(
		readonly adapter: FileSystemAdapter,
		private readonly name: string,
	) {
		super();
	}
	getName(): string {
		return this.name;
	}

	/** Test helper: vault contents by path (the disk). Prefer `writeExternally`, which also fires `modify`. */
	readonly contents = new Map<string, string>();
	private readonly files = new Map<string, TFile>();
	/** Folders made with `createFolder` (others exist because a file is inside them). */
	private readonly folders = new Set<string>();
	/** A clock for `stat.mtime` that only moves forward, so every write has a newer mtime. */
	private clock = 1_700_000_000_000;

	getFiles(): TFile[] {
		return [...this.contents.keys()].map((path) => this.fileWithStat(path));
	}
	getMarkdownFiles(): TFile[] {
		return this.getFiles().filter((file) => file.extension === "md");
	}
	/** obsidian.d.ts (since 1.5.7): "Returns `null` if the file does not exist." Paths are taken as given (not normalised). */
	getFileByPath(path: string): TFile | null {
		return this.contents.has(path) ? this.fileWithStat(path) : null;
	}
	/** obsidian.d.ts: a file or a folder (TFolder) at this path, or null. A folder exists when created or when a file is inside it. */
	getAbstractFileByPath(path: string): TFile | TFolder | null {
		const file = this.getFileByPath(path);
		if (file) return file;
		if (
			path === "" ||
			this.folders.has(path) ||
			[...this.contents.keys()].some((each) => each.startsWith(`${path}/`))
		)
			return new TFolder(path);
		return null;
	}
	/** obsidian.d.ts `createFolder`: fails when something exists at the path ("Folder already exists."). */
	createFolder(path: string): Promise<TFolder> {
		if (this.getAbstractFileByPath(path)) return Promise.reject(new Error("Folder already exists."));
		this.folders.add(path);
		return Promise.resolve(new TFolder(path));
	}
	/** obsidian.d.ts: "Read the content of a plaintext file ... Use this if you only want to display the content". */
	cachedRead(file: TFile): Promise<string> {
		return this.read(file);
	}
	/** Rejects for a file that is gone, like the adapter's ENOENT. */
	read(file: TFile): Promise<string> {
		const text = this.contents.get(file.path);
		return text === undefined
			? Promise.reject(new Error(`ENOENT: no such file, open '${file.path}'`))
			: Promise.resolve(text);
	}
	readBinary(file: TFile): Promise<ArrayBuffer> {
		const bytes = Buffer.from(this.contents.get(file.path) ?? "", "utf8");
		return Promise.resolve(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
	}
	/**
	 * obsidian.d.ts `getResourcePath`: "Returns an URI for the browser engine to use, for example to embed an image."
	 * Obsidian's desktop answers `app://<id>/<absolute path>?<mtime>`; the fake names the file the same way.
	 */
	getResourcePath(file: TFile): string {
		return `app://local/${this.adapter.getBasePath()}/${file.path}?${file.stat.mtime}`;
	}
	/** obsidian.d.ts `modifyBinary`: the fake keeps text, so the bytes are stored as UTF-8 (invalid bytes become U+FFFD). */
	modifyBinary(file: TFile, data: ArrayBuffer): Promise<void> {
		return this.modify(file, new TextDecoder().decode(data));
	}
	/** obsidian.d.ts `create`: fails when the file exists ("File already exists."); fires `create`. */
	create(path: string, data: string): Promise<TFile> {
		if (this.contents.has(path)) return Promise.reject(new Error("File already exists."));
		this.contents.set(path, data);
		const file = this.fileWithStat(path);
		this.trigger("create", file);
		return Promise.resolve(file);
	}
	/** obsidian.d.ts `modify`: "Modify the contents of a plaintext file"; fires `modify`. */
	modify(file: TFile, data: string): Promise<void> {
		if (!this.contents.has(file.path))
			return Promise.reject(new Error(`ENOENT: no such file, open '${file.path}'`));
		this.write(file.path, data);
		return Promise.resolve();
	}
	/** obsidian.d.ts `process` (since 1.1.0): "Atomically read, modify, and save the contents of a note." */
	async process(file: TFile, fn: (data: string) => string): Promise<string> {
		const data = fn(await this.read(file));
		await this.modify(file, data);
		return data;
	}
	/** obsidian.d.ts `delete`; fires `delete` with the file. */
	delete(file: TFile): Promise<void> {
		this.contents.delete(file.path);
		this.files.delete(file.path);
		this.trigger("delete", file);
		return Promise.resolve();
	}
	/** obsidian.d.ts `rename`; fires `rename` (file, oldPath). The fake hands out a new TFile for the new path. */
	rename(file: TFile, newPath: string): Promise<void> {
		const text = this.contents.get(file.path);
		if (text === undefined) return Promise.reject(new Error(`ENOENT: no such file, rename '${file.path}'`));
		if (this.contents.has(newPath)) return Promise.reject(new Error("Destination file already exists!"));
		this.contents.delete(file.path);
		this.files.delete(file.path);
		this.contents.set(newPath, text);
		this.trigger("rename", this.fileWithStat(newPath), file.path);
		return Promise.resolve();
	}
	/**
	 * Test helper: the file changes on disk without Obsidian's editor (sync, another app, the Claude Code CLI).
	 * Obsidian's file watcher reports such a change as a vault `modify` event.
	 */
	writeExternally(path: string, data: string): TFile {
		const existed = this.contents.has(path);
		this.write(path, data, !existed);
		return this.fileWithStat(path);
	}

	private write(path: string, data: string, created = false): void {
		this.contents.set(path, data);
		this.clock += 1000;
		const file = this.fileWithStat(path);
		file.stat = { ...file.stat, mtime: this.clock };
		this.trigger(created ? "create" : "modify", file);
	}

	private fileWithStat(path: string): TFile {
		let file = this.files.get(path);
		if (!file) {
			file = new TFile(path);
			file.stat = { size: 0, mtime: this.clock, ctime: this.clock };
			this.files.set(path, file);
		}
		file.stat = { ...file.stat, size: Buffer.byteLength(this.contents.get(path) ?? "") };
		return file;
	}
}

// ---- MetadataCache region (owner: diagnostics helper; harness: tests/obsidian/harness/metadata-*.ts) ----

/** The parts of a vault the fake metadata cache reads: its files, their text, and its file events. */
interface IndexedVault {
	getFiles(): TFile[];
	/** Optional: the file at a path, so a few notes parsed need no list of every file (a 100k-note vault). */
	getFileByPath?(path: string): TFile | null;
	read(file: TFile): Promise<string>;
	on(name: string, callback: (...args: never[]) => unknown): EventRef;
}

/** Turns a note's text into its cache: the fake's "parser" (tests/obsidian/harness/metadata-parser.ts provides one). */
export type MetadataParser = (text: string) => CachedMetadata;

/**
 * Obsidian's metadata index (obsidian.d.ts `MetadataCache`), lagging behind the disk the way the real one does.
 * Obsidian parses a note some time after the vault reports it (obsidian.d.ts `changed`: "called when a file has
 * been indexed, and its (updated) cache is now available"; the vault learns of external writes from its file
 * watcher), so `getFileCache` keeps returning the old entry, or null
 * for a note never indexed, until the parse has run. Here that moment is in the test's hands: vault `create` and
 * `modify` events only queue the path, and `parsePending()` is the parser catching up. Unattached (as `App` builds
 * it), it has indexed nothing and every lookup answers null.
 */
export class MetadataCache extends Events {
	/** obsidian.d.ts: source path → destination path → link count, for links that resolve. */
	resolvedLinks: Record<string, Record<string, number>> = {};
	/** obsidian.d.ts: source path → link path as written → count, for links that do not. */
	unresolvedLinks: Record<string, Record<string, number>> = {};
	/** Test helper: files the parser has not caught up with yet (created or modified since their last parse). */
	readonly pending = new Set<string>();
	/** Test helper: how many notes the parser has parsed. */
	parses = 0;
	protected readonly caches = new Map<string, CachedMetadata>();
	protected vault: IndexedVault | undefined;
	private nameIndex: { paths: Map<string, TFile>; names: Map<string, TFile[]> } | undefined;

	/** Typed per event in obsidian.d.ts; here any listener's own argument types are accepted. */
	override on(name: string, callback: (...args: never[]) => unknown): EventRef {
		return super.on(name, callback as (...args: unknown[]) => unknown);
	}
	private parser: MetadataParser | undefined;

	/** Test helper: index this vault's notes with this parser from now on; every note present is queued. */
	attach(vault: IndexedVault, parser: MetadataParser): void {
		this.vault = vault;
		this.parser = parser;
		for (const file of vault.getFiles()) if (file.extension === "md") this.pending.add(file.path);
		const queue = (file: TFile): void => {
			if (file.extension === "md") this.pending.add(file.path);
		};
		vault.on("create", (file: TFile) => {
			this.nameIndex = undefined;
			queue(file);
		});
		vault.on("modify", queue);
		vault.on("delete", (file: TFile) => {
			this.nameIndex = undefined;
			// obsidian.d.ts `deleted`: "a best-effort previous version of the cached metadata is presented".
			const previous = this.caches.get(file.path) ?? null;
			this.forget(file.path);
			if (file.extension === "md") this.trigger("deleted", file, previous);
			this.resolveAll();
		});
		vault.on("rename", (file: TFile, oldPath: string) => {
			this.nameIndex = undefined;
			// obsidian.d.ts `changed`: "not called when a file is renamed for performance reasons": the entry moves.
			const cache = this.caches.get(oldPath);
			const wasPending = this.pending.has(oldPath);
			this.forget(oldPath);
			if (cache) this.caches.set(file.path, cache);
			if (wasPending) this.pending.add(file.path);
			this.resolveAll();
		});
	}

	/**
	 * Test helper: the parser catches up with the queued notes (all, or those given), reading each note's text as
	 * it is now. Per note it stores the new cache and fires `changed` (file, data, cache), then `resolve` (file)
	 * once its links are resolved; `resolved` follows when nothing is left in the queue (obsidian.d.ts events).
	 */
	async parsePending(paths?: readonly string[]): Promise<void> {
		const { vault, parser } = this;
		if (!vault || !parser) throw new Error("MetadataCache.parsePending: attach a vault and a parser first");
		let files: Map<string, TFile> | undefined;
		const fileAt = (path: string): TFile | undefined =>
			vault.getFileByPath
				? (vault.getFileByPath(path) ?? undefined)
				: (files ??= new Map(vault.getFiles().map((file) => [file.path, file]))).get(path);
		for (const path of paths ?? [...this.pending]) {
			if (!this.pending.delete(path)) continue;
			const file = fileAt(path);
			if (!file) continue;
			const data = await vault.read(file);
			const cache = parser(data);
			this.caches.set(path, cache);
			this.parses++;
			this.trigger("changed", file, data, cache);
			this.resolveFile(path, cache);
			this.trigger("resolve", file);
		}
		if (this.pending.size === 0) this.trigger("resolved");
	}

	/** obsidian.d.ts: the cache of an indexed file; null until the parser has seen it. */
	getFileCache(file: TFile): CachedMetadata | null {
		return this.caches.get(file.path) ?? null;
	}

	getCache(path: string): CachedMetadata | null {
		return this.caches.get(path) ?? null;
	}

	/**
	 * obsidian.d.ts: "Get the best match for a linkpath". The rules are those Obsidian's help (Internal links) gives
	 * and the project's headless resolver (src/vault/notes/link-resolver.ts) follows: case-insensitive;
	 * `.md` may be left out; a path starting with `./` or `../` leads only to the file it names from the source's
	 * folder; a path from the vault root or relative to the source's folder wins, otherwise a file
	 * whose path ends with the link path, the one beside the source first, then the shortest path. Written apart
	 * from that resolver so the DiagnosticsNotes contract compares two implementations.
	 */
	getFirstLinkpathDest(linkpath: string, sourcePath: string): TFile | null {
		const byName = this.filesByName();
		if (linkpath === "") return byName.paths.get(sourcePath) ?? null;
		const folder = sourcePath.includes("/")
			? sourcePath.slice(0, sourcePath.lastIndexOf("/") + 1).toLowerCase()
			: "";
		const keys = (file: TFile): string[] => {
			const lower = file.path.toLowerCase();
			return lower.endsWith(".md") ? [lower, lower.slice(0, -3)] : [lower];
		};
		// A path starting with ./ or ../ is relative to the source's folder (the help's "Relative path to file" link
		// format writes such paths): only the file it names, if any.
		if (/^\.\.?\//.test(linkpath)) {
			const parts: string[] = [];
			for (const part of `${folder}${linkpath.toLowerCase()}`.split("/")) {
				if (part === "..") {
					if (parts.pop() === undefined) return null;
				} else if (part !== "." && part !== "") parts.push(part);
			}
			const path = parts.join("/");
			return byName.names.get(parts.at(-1) ?? "")?.find((file) => keys(file).includes(path)) ?? null;
		}
		const wanted = linkpath.toLowerCase().replace(/^\/+/, "");
		const files = byName.names.get(wanted.slice(wanted.lastIndexOf("/") + 1)) ?? [];
		const exact = files.filter((file) => keys(file).includes(wanted));
		if (exact.length > 0) return exact[0] ?? null;
		const beside = files.filter((file) => keys(file).includes(folder + wanted));
		if (beside.length > 0) return beside[0] ?? null;
		const ending = files.filter((file) => keys(file).some((key) => key.endsWith(`/${wanted}`)));
		ending.sort(
			(a, b) =>
				Number(!a.path.toLowerCase().startsWith(folder)) - Number(!b.path.toLowerCase().startsWith(folder)) ||
				a.path.length - b.path.length,
		);
		return ending[0] ?? null;
	}

	/** The vault's files by path and by lower-cased name (notes also without `.md`), rebuilt when files come or go. */
	private filesByName(): { paths: Map<string, TFile>; names: Map<string, TFile[]> } {
		if (this.nameIndex) return this.nameIndex;
		const paths = new Map<string, TFile>();
		const names = new Map<string, TFile[]>();
		for (const file of this.vault?.getFiles() ?? []) {
			paths.set(file.path, file);
			const name = file.name.toLowerCase();
			for (const key of file.extension === "md" ? [name, name.slice(0, -3)] : [name])
				names.set(key, [...(names.get(key) ?? []), file]);
		}
		this.nameIndex = { paths, names };
		return this.nameIndex;
	}

	private forget(path: string): void {
		this.caches.delete(path);
		this.pending.delete(path);
		delete this.resolvedLinks[path];
		delete this.unresolvedLinks[path];
	}

	protected resolveFile(path: string, cache: CachedMetadata): void {
		const resolved: Record<string, number> = {};
		const unresolved: Record<string, number> = {};
		for (const link of [...(cache.links ?? []), ...(cache.embeds ?? [])]) {
			const linkpath = link.link.split("#")[0] ?? "";
			if (linkpath === "") continue;
			const target = this.getFirstLinkpathDest(linkpath, path);
			if (target) resolved[target.path] = (resolved[target.path] ?? 0) + 1;
			else unresolved[linkpath] = (unresolved[linkpath] ?? 0) + 1;
		}
		this.resolvedLinks[path] = resolved;
		this.unresolvedLinks[path] = unresolved;
	}

	/** A file appeared, went or moved: every note's links are resolved again, as Obsidian does. */
	private resolveAll(): void {
		for (const [path, cache] of this.caches) this.resolveFile(path, cache);
		if (this.pending.size === 0) this.trigger("resolved");
	}
}

/** obsidian.d.ts `HeadingSubpathResult` and `BlockSubpathResult`; `next` is absent after the last heading. */
export type SubpathMatch =
	| { type: "heading"; current: HeadingCache; next: HeadingCache | undefined; start: Loc; end: Loc | null }
	| { type: "block"; block: BlockCache; list?: ListItemCache; start: Loc; end: Loc | null };

/**
 * obsidian.d.ts `resolveSubpath(cache, subpath)`, `subpath` starting with `#` as `parseLinktext` returns it.
 * The matching rules are Obsidian's as the project's core matcher documents them (src/vault/markdown/
 * subpath-match.ts), not read from Obsidian's code: `#^id` finds `cache.blocks` by lower-cased id (with the list
 * item ending there, if any); `#A#B` finds heading A, then B after it; headings compare case-insensitively, with
 * the characters Obsidian cannot keep in links (`# | ^ : [ ] \` and `%%`) read as spaces and runs of white space
 * as one. Footnote subpaths (`#[^1]`) are not modelled: they answer null.
 */
export function resolveSubpath(cache: CachedMetadata, subpath: string): SubpathMatch | null {
	const body = subpath.startsWith("#") ? subpath.slice(1) : subpath;
	if (body.startsWith("^")) {
		const block = cache.blocks?.[body.slice(1).toLowerCase()];
		if (!block) return null;
		const list = cache.listItems?.find((item) => item.position.end.line === block.position.end.line);
		return list
			? { type: "block", block, list, start: block.position.start, end: block.position.end }
			: { type: "block", block, start: block.position.start, end: block.position.end };
	}
	const key = (text: string): string =>
		text
			.replace(/%%|[#|^:[\]\\]/g, " ")
			.replace(/\s+/g, " ")
			.trim()
			.toLowerCase();
	const parts = body
		.split("#")
		.map(key)
		.filter((part) => part !== "");
	const headings = cache.headings ?? [];
	if (parts.length === 0) return null;
	let index = -1;
	for (const part of parts) {
		index = headings.findIndex((heading, at) => at > index && key(heading.heading) === part);
		if (index < 0) return null;
	}
	const current = headings[index];
	if (!current) return null;
	const next = headings.slice(index + 1).find((heading) => heading.level <= current.level);
	return { type: "heading", current, next, start: current.position.start, end: next ? next.position.start : null };
}

// ---- end of the MetadataCache region ----

/**
 * obsidian.d.ts `FileManager.renameFile`: "Rename or move a file safely, and update all links to it depending on the
 * user's preferences." Which links Obsidian finds is its metadata cache's business, so the fake rewrites the links
 * and embeds the cache knows of (a note the cache has not parsed yet keeps its old links), each to the shortest
 * link text that leads to the file (Obsidian's default "Shortest path when possible"), keeping the subpath and
 * the alias. Links in properties and the moved note's own relative links are not modelled.
 */
export class FileManager {
	/** Stands for Obsidian's "Automatically update internal links" option (Settings → Files and links). */
	autoUpdateLinks = true;
	/** Test helper: how many times renameFile ran. */
	renames = 0;

	constructor(private readonly app: App) {}

	async renameFile(file: TAbstractFile, newPath: string): Promise<void> {
		this.renames++;
		const { vault, metadataCache } = this.app;
		const oldPath = file.path;
		const linking: { source: string; links: LinkCache[] }[] = [];
		for (const source of this.autoUpdateLinks ? vault.getMarkdownFiles() : []) {
			const cache = metadataCache.getFileCache(source);
			const links = [...(cache?.links ?? []), ...(cache?.embeds ?? [])].filter((link) => {
				const linkpath = link.link.split("#")[0] ?? "";
				return linkpath !== "" && metadataCache.getFirstLinkpathDest(linkpath, source.path)?.path === oldPath;
			});
			if (links.length > 0) linking.push({ source: source.path, links });
		}
		if (!(file instanceof TFile)) throw new Error("the fake FileManager renames files only");
		await vault.rename(file, newPath);
		for (const { source, links } of linking) {
			const path = source === oldPath ? newPath : source;
			let text = vault.contents.get(path);
			if (text === undefined) continue;
			for (const link of [...links].sort((a, b) => b.position.start.offset - a.position.start.offset)) {
				const { offset: start } = link.position.start;
				if (text.slice(start, start + link.original.length) !== link.original) continue;
				text = text.slice(0, start) + this.relink(link, newPath) + text.slice(start + link.original.length);
			}
			const target = vault.getFileByPath(path);
			if (target) await vault.modify(target, text);
		}
	}

	/** obsidian.d.ts `trashFile`: removes the file "according to the user's preferred 'trash' options"; here it is deleted. */
	trashFile(file: TAbstractFile): Promise<void> {
		if (!(file instanceof TFile)) return Promise.reject(new Error("the fake FileManager trashes files only"));
		// The fake has no trash: the vault's own deletion, which fires `delete` as Obsidian's trashing does.
		const { vault } = this.app;
		const remove = vault.delete.bind(vault);
		return remove(file);
	}

	private relink(link: LinkCache, newPath: string): string {
		const hash = link.link.indexOf("#");
		const subpath = hash < 0 ? "" : link.link.slice(hash);
		const bang = link.original.startsWith("!") ? "!" : "";
		if (!link.original.startsWith(`${bang}[[`))
			return `${bang}[${link.displayText ?? ""}](${encodeURI(newPath)}${encodeURI(subpath)})`;
		const name = newPath.slice(newPath.lastIndexOf("/") + 1).replace(/\.md$/i, "");
		const sameName = this.app.vault
			.getMarkdownFiles()
			.filter((each) => each.basename.toLowerCase() === name.toLowerCase());
		const linktext = sameName.length === 1 ? name : newPath.replace(/\.md$/i, "");
		const alias = link.original.includes("|") ? `|${link.displayText ?? ""}` : "";
		return `${bang}[[${linktext}${subpath}${alias}]]`;
	}
}

/** obsidian.d.ts `App`: the workspace, the vault and the metadata cache of one vault. */
/**
 * obsidian.d.ts `KeymapEventListener`: called with the key's `KeyboardEvent` (its `target` is the focused element,
 * as a `keydown` is fired at the focused element) and a `KeymapContext`; "return `false` to automatically
 * preventDefault".
 */
type KeymapEventListener = (
	event: FakeKeyboardEvent,
	context: { modifiers: string; key: string; vkey: string },
) => unknown;

/** The fields of a `KeyboardEvent` a key handler reads here. */
export interface FakeKeyboardEvent {
	readonly type: "keydown";
	readonly key: string;
	readonly altKey: boolean;
	readonly ctrlKey: boolean;
	readonly metaKey: boolean;
	readonly shiftKey: boolean;
	/** The focused element when the key was pressed (null: nothing focused, `document.body` in a browser). */
	readonly target: FakeElement | null;
	defaultPrevented: boolean;
	preventDefault(): void;
}

/** obsidian.d.ts `KeymapEventHandler`: what `Scope.register` returns. */
export interface KeymapEventHandler {
	scope: Scope;
	modifiers: string[] | null;
	key: string | null;
	func: KeymapEventListener;
}

/**
 * obsidian.d.ts `Scope`: key handlers of a part of the app. Obsidian's keymap hands a key press to the focused
 * view's scope, else to its parent; the first handler that matches takes the key.
 */
export class Scope {
	private readonly handlers: KeymapEventHandler[] = [];
	constructor(readonly parent?: Scope) {}
	register(modifiers: string[] | null, key: string | null, func: KeymapEventListener): KeymapEventHandler {
		const handler = { scope: this, modifiers, key, func };
		this.handlers.push(handler);
		return handler;
	}
	unregister(handler: KeymapEventHandler): void {
		this.handlers.splice(this.handlers.indexOf(handler), 1);
	}
	/**
	 * Test helper: a key press in this scope, at `target` (the focused element; `FakeElement.lastFocused` unless
	 * given). True when a handler took it; the event (`App.lastKeyEvent`) says whether it prevented the default.
	 */
	press(modifiers: string[], key: string, target: FakeElement | null = FakeElement.lastFocused ?? null): boolean {
		return this.handle(keyboardEvent(modifiers, key, target), modifiers);
	}
	private handle(event: FakeKeyboardEvent, modifiers: string[]): boolean {
		lastKeyEvent = event;
		const same = (wanted: string[] | null): boolean =>
			wanted === null || [...wanted].sort().join("+") === [...modifiers].sort().join("+");
		for (const handler of this.handlers) {
			if ((handler.key === null || handler.key === event.key) && same(handler.modifiers)) {
				const context = { modifiers: modifiers.join(","), key: event.key, vkey: event.key };
				if (handler.func(event, context) === false) event.preventDefault();
				return true;
			}
		}
		return this.parent?.handle(event, modifiers) ?? false;
	}
}

let lastKeyEvent: FakeKeyboardEvent | undefined;

function keyboardEvent(modifiers: string[], key: string, target: FakeElement | null): FakeKeyboardEvent {
	// `Mod` is Ctrl off macOS (obsidian.d.ts `Modifier`); the stand-in is not a Mac.
	const has = (...names: string[]): boolean => names.some((name) => modifiers.includes(name));
	const event: FakeKeyboardEvent = {
		type: "keydown",
		key,
		altKey: has("Alt"),
		ctrlKey: has("Ctrl", "Mod"),
		metaKey: has("Meta"),
		shiftKey: has("Shift"),
		target,
		defaultPrevented: false,
		preventDefault: () => {
			event.defaultPrevented = true;
		},
	};
	return event;
}

export class App {
	/** obsidian.d.ts `App.scope`: the app's global key scope. */
	readonly scope = new Scope();
	/**
	 * Test helper: a key press with the active leaf focused: its view's scope, else the app's; the event's target is
	 * the element focused last (`FakeElement.lastFocused`).
	 */
	pressKey(modifiers: string[], key: string): boolean {
		return (this.workspace.activeLeaf?.view.scope ?? this.scope).press(modifiers, key);
	}
	/** Test helper: the event of the last key press (did a handler prevent its default?). */
	get lastKeyEvent(): FakeKeyboardEvent | undefined {
		return lastKeyEvent;
	}
	readonly workspace: Workspace = new Workspace(this);
	readonly metadataCache = new MetadataCache();
	readonly fileManager: FileManager = new FileManager(this);
	readonly vault: Vault;
	/** Test helper: what `saveLocalStorage` holds (Obsidian keeps it in the browser's localStorage, per vault). */
	readonly localStorage = new Map<string, unknown>();
	/** obsidian.d.ts `loadLocalStorage`: "Retrieve value from localStorage for this vault"; null when unset. */
	loadLocalStorage(key: string): unknown {
		return this.localStorage.has(key) ? this.localStorage.get(key) : null;
	}
	/** obsidian.d.ts `saveLocalStorage`: `null` removes the entry. */
	saveLocalStorage(key: string, data: unknown): void {
		if (data === null) this.localStorage.delete(key);
		else this.localStorage.set(key, data);
	}
	/** Obsidian's view registry (not in obsidian.d.ts): type → creator; `Plugin.registerView` adds to it. */
	readonly viewRegistry = new Map<string, ViewCreator>([
		["empty", (leaf) => new EmptyView(leaf)],
		["markdown", (leaf) => new MarkdownView(leaf)],
	]);
	constructor(basePath: string, name: string) {
		this.vault = new Vault(new FileSystemAdapter(basePath), name);
	}
}

export interface PluginManifest {
	id: string;
	name: string;
	version: string;
	/** obsidian.d.ts: the plugin's folder, vault-relative (set by Obsidian for installed plugins). */
	dir?: string;
}

/** obsidian.d.ts `MenuItem` (the parts plugins here use); `click()` is the user's click. */
export class MenuItem {
	title = "";
	icon = "";
	private handler: ((event: unknown) => unknown) | undefined;
	setTitle(title: string): this {
		this.title = title;
		return this;
	}
	setIcon(icon: string): this {
		this.icon = icon;
		return this;
	}
	onClick(handler: (event: unknown) => unknown): this {
		this.handler = handler;
		return this;
	}
	click(): void {
		this.handler?.({ type: "click" });
	}
}

/** obsidian.d.ts `Menu`: `addItem` builds an item; the items are kept in order. */
export class Menu {
	readonly items: MenuItem[] = [];
	addItem(build: (item: MenuItem) => unknown): this {
		const item = new MenuItem();
		build(item);
		this.items.push(item);
		return this;
	}
}

/** obsidian.d.ts `Command` (the parts plugins here use). */
export interface Command {
	id: string;
	name: string;
	callback?: () => unknown;
	/** obsidian.d.ts: "Returning false or undefined causes the command to be hidden from the command palette." */
	checkCallback?: (checking: boolean) => boolean | void;
	hotkeys?: { modifiers: string[]; key: string }[];
}

export class Plugin extends Component {
	data: unknown = null;
	readonly commands: Command[] = [];
	readonly statusBarItems: FakeElement[] = [];
	readonly settingTabs: PluginSettingTab[] = [];
	/** What the plugin registered with registerEditorExtension; the CodeMirror harness builds editors with it. */
	readonly editorExtensions: Extension[] = [];
	readonly domEvents: { type: string; callback: (event: never) => unknown }[] = [];

	constructor(
		readonly app: App,
		readonly manifest: PluginManifest,
	) {
		super();
	}
	loadData(): Promise<unknown> {
		return Promise.resolve(this.data);
	}
	saveData(data: unknown): Promise<void> {
		this.data = data;
		return Promise.resolve();
	}
	/** What addRibbonIcon added: icon, title and the click callback (`click()` below stands for the user's click). */
	readonly ribbonIcons: { icon: string; title: string; click: () => unknown }[] = [];
	addRibbonIcon(icon: string, title: string, callback: (event: unknown) => unknown): FakeElement {
		this.ribbonIcons.push({ icon, title, click: () => callback({ type: "click" }) });
		return new FakeElement();
	}
	addStatusBarItem(): FakeElement {
		const element = new FakeElement();
		this.statusBarItems.push(element);
		return element;
	}
	addCommand(command: Command): Command {
		this.commands.push(command);
		return command;
	}
	/**
	 * Test helper: what the command palette and a hotkey do (docs "Commands": `checkCallback` runs with
	 * `checking` true to decide whether the command is available, then with false to perform it). Returns
	 * whether the command was available; with `checkOnly` it is not run.
	 */
	runCommand(id: string, checkOnly = false): boolean {
		const command = this.commands.find((candidate) => candidate.id === id);
		if (!command) throw new Error(`no command ${id}`);
		if (command.checkCallback) {
			if (!command.checkCallback(true)) return false;
			if (!checkOnly) command.checkCallback(false);
			return true;
		}
		if (!checkOnly) command.callback?.();
		return command.callback !== undefined;
	}
	readonly viewTypes = new Map<string, (leaf: WorkspaceLeaf) => unknown>();
	registerView(type: string, creator: (leaf: WorkspaceLeaf) => unknown): void {
		this.viewTypes.set(type, creator);
		// Obsidian builds leaves of this type through its view registry from now on (and forgets the type on unload).
		this.app.viewRegistry.set(type, creator as ViewCreator);
		this.register(() => this.app.viewRegistry.delete(type));
	}
	addSettingTab(tab: PluginSettingTab): void {
		this.settingTabs.push(tab);
	}
	/**
	 * obsidian.d.ts `registerMarkdownCodeBlockProcessor`: "Register a special post processor that handles fenced code
	 * given a language"; Obsidian's Markdown rendering calls it for every such block (the fake's MarkdownRenderer does).
	 */
	registerMarkdownCodeBlockProcessor(language: string, handler: FakeCodeBlockProcessor): void {
		markdownCodeBlockProcessors.set(language, handler);
		this.register(() => markdownCodeBlockProcessors.delete(language));
	}
	/** Obsidian applies a registered extension to every editor and removes it when the plugin unloads. */
	registerEditorExtension(extension: Extension): void {
		this.editorExtensions.push(extension);
		pluginEditorExtensions.push(extension);
		reconfigurePluginExtensions();
		this.register(() => {
			this.editorExtensions.splice(this.editorExtensions.indexOf(extension), 1);
			pluginEditorExtensions.splice(pluginEditorExtensions.indexOf(extension), 1);
			reconfigurePluginExtensions();
		});
	}
	override registerDomEvent(
		target: DomEventTarget,
		type: string,
		callback: (event: unknown) => unknown,
		options?: boolean | AddEventListenerOptions,
	): void {
		this.domEvents.push({ type, callback });
		super.registerDomEvent(target, type, callback, options);
	}
}

/**
 * obsidian.d.ts `Modal`: "open(): Show the modal on the active window"; `onOpen`/`onClose` are called as it opens
 * and closes; `titleEl`, `contentEl` and `setTitle` as declared there. Test helper: `Modal.opened` lists the modals
 * on screen, newest last.
 */
export class Modal {
	static readonly opened: Modal[] = [];
	readonly containerEl = new FakeElement();
	readonly modalEl = this.containerEl.createDiv({ cls: "modal" });
	readonly titleEl = this.modalEl.createDiv({ cls: "modal-title" });
	readonly contentEl = this.modalEl.createDiv({ cls: "modal-content" });
	constructor(readonly app: App) {}
	open(): void {
		Modal.opened.push(this);
		this.onOpen();
	}
	close(): void {
		const index = Modal.opened.indexOf(this);
		if (index < 0) return;
		Modal.opened.splice(index, 1);
		this.onClose();
	}
	onOpen(): void {}
	onClose(): void {}
	setTitle(title: string): this {
		this.titleEl.setText(title);
		return this;
	}
}

export class PluginSettingTab {
	readonly containerEl = new FakeElement();
	constructor(
		readonly app: App,
		readonly plugin: Plugin,
	) {}
	hide(): void {}
}

type ChangeHandler<T> = (value: T) => unknown;

/** A toggle, text field or text area of a Setting; `change` plays the user's input. */
export class FakeInput<T> {
	value: T | undefined;
	placeholder = "";
	/** Test helper: added with addTextArea (several lines) rather than addText. */
	isTextArea = false;
	private handler: ChangeHandler<T> | undefined;
	setValue(value: T): this {
		this.value = value;
		return this;
	}
	setPlaceholder(placeholder: string): this {
		this.placeholder = placeholder;
		return this;
	}
	onChange(handler: ChangeHandler<T>): this {
		this.handler = handler;
		return this;
	}
	async change(value: T): Promise<void> {
		this.value = value;
		await this.handler?.(value);
	}
}

export class FakeButton {
	text = "";
	disabled = false;
	/** obsidian.d.ts `ButtonComponent.setCta`: the call-to-action look. */
	cta = false;
	private handler: (() => unknown) | undefined;
	setButtonText(text: string): this {
		this.text = text;
		return this;
	}
	setCta(): this {
		this.cta = true;
		return this;
	}
	setDisabled(disabled: boolean): this {
		this.disabled = disabled;
		return this;
	}
	onClick(handler: () => unknown): this {
		this.handler = handler;
		return this;
	}
	async click(): Promise<void> {
		await this.handler?.();
	}
}

/**
 * Obsidian's settings row; every instance is recorded in `Setting.created` for tests to inspect. As Obsidian's does,
 * it adds its row to the container (`div.setting-item`, with `setting-item-heading` for a heading), the name and
 * description as text below it, so tests can count rows and read what the tab shows.
 */
export class Setting {
	static created: Setting[] = [];
	name = "";
	desc = "";
	isHeading = false;
	readonly toggles: FakeInput<boolean>[] = [];
	readonly texts: FakeInput<string>[] = [];
	readonly buttons: FakeButton[] = [];
	readonly settingEl: FakeElement;
	readonly nameEl: FakeElement;
	readonly descEl: FakeElement;

	constructor(readonly containerEl: FakeElement) {
		Setting.created.push(this);
		this.settingEl = containerEl.createDiv({ cls: "setting-item" });
		const info = this.settingEl.createDiv({ cls: "setting-item-info" });
		this.nameEl = info.createDiv({ cls: "setting-item-name" });
		this.descEl = info.createDiv({ cls: "setting-item-description" });
	}
	setName(name: string): this {
		this.name = name;
		this.nameEl.setText(name);
		return this;
	}
	setDesc(desc: string): this {
		this.desc = desc;
		this.descEl.empty();
		this.descEl.setText(desc);
		return this;
	}
	setHeading(): this {
		this.isHeading = true;
		this.settingEl.addClass("setting-item-heading");
		return this;
	}
	addToggle(build: (toggle: FakeInput<boolean>) => unknown): this {
		const toggle = new FakeInput<boolean>();
		build(toggle);
		this.toggles.push(toggle);
		return this;
	}
	addText(build: (text: FakeInput<string>) => unknown): this {
		const text = new FakeInput<string>();
		build(text);
		this.texts.push(text);
		return this;
	}
	addTextArea(build: (area: FakeInput<string>) => unknown): this {
		return this.addText((area) => {
			area.isTextArea = true;
			return build(area);
		});
	}
	addButton(build: (button: FakeButton) => unknown): this {
		const button = new FakeButton();
		build(button);
		this.buttons.push(button);
		return this;
	}
}

export class TAbstractFile {
	constructor(readonly path: string) {}
	get name(): string {
		return this.path.slice(this.path.lastIndexOf("/") + 1);
	}
}

export class TFile extends TAbstractFile {
	stat = { size: 0, mtime: 0, ctime: 0 };
	get extension(): string {
		const dot = this.name.lastIndexOf(".");
		return dot >= 0 ? this.name.slice(dot + 1) : "";
	}
	get basename(): string {
		const dot = this.name.lastIndexOf(".");
		return dot >= 0 ? this.name.slice(0, dot) : this.name;
	}
}

export class TFolder extends TAbstractFile {}

// ---- View and ItemView (workspace region, helper B; declared here because MarkdownView extends them) ----

/** obsidian.d.ts `View`: `onOpen`/`onClose` are protected there; public here so the leaf can call them. */
export abstract class View extends Component {
	readonly app: App;
	icon = "lucide-file";
	/** obsidian.d.ts: "Whether or not the view is intended for navigation." */
	navigation = false;
	/** obsidian.d.ts `View.scope`: the view's own key scope, active while the view has focus. */
	scope: Scope | null = null;
	readonly containerEl = new FakeElement();
	constructor(readonly leaf: WorkspaceLeaf) {
		super();
		this.app = leaf.app;
	}
	onOpen(): Promise<void> {
		return Promise.resolve();
	}
	onClose(): Promise<void> {
		return Promise.resolve();
	}
	abstract getViewType(): string;
	abstract getDisplayText(): string;
	getState(): Record<string, unknown> {
		return {};
	}
	setState(_state: unknown, _result: ViewStateResult): Promise<void> {
		return Promise.resolve();
	}
	getEphemeralState(): Record<string, unknown> {
		return {};
	}
	setEphemeralState(_state: unknown): void {}
	getIcon(): string {
		return this.icon;
	}
}

/** obsidian.d.ts `ItemView`; `contentEl` is a FakeElement tree. */
export abstract class ItemView extends View {
	readonly contentEl = new FakeElement();
}

// ---- Editor region (owner: CodeMirror harness, tests/obsidian/harness/cm6-editor.ts) ----

/** What plugins registered with `registerEditorExtension`: Obsidian applies it to every editor, open or opened later. */
const pluginEditorExtensions: Extension[] = [];
const pluginExtensionSlot = new Compartment();
const liveEditors = new Set<EditorView>();

function reconfigurePluginExtensions(): void {
	for (const cm of liveEditors)
		cm.dispatch({ effects: pluginExtensionSlot.reconfigure([...pluginEditorExtensions]) });
}

/** A slice of Obsidian's default keymap: Shift+Arrow extends the main selection by a character. */
const selectionKeys = keymap.of([
	{ key: "Shift-ArrowRight", run: (cm) => extendSelection(cm, 1) },
	{ key: "Shift-ArrowLeft", run: (cm) => extendSelection(cm, -1) },
]);

/** Moves the main selection's head one character (a whole grapheme, as CodeMirror's selectCharLeft/Right do). */
function extendSelection(cm: EditorView, by: 1 | -1): boolean {
	const { doc } = cm.state;
	const main = cm.state.selection.main;
	const line = doc.lineAt(main.head);
	const atLineEdge = by > 0 ? main.head === line.to : main.head === line.from;
	const head = atLineEdge
		? Math.min(Math.max(main.head + by, 0), doc.length)
		: line.from + findClusterBreak(line.text, main.head - line.from, by > 0);
	cm.dispatch({
		selection: cm.state.selection.replaceRange(EditorSelection.range(main.anchor, head)),
		userEvent: "select",
	});
	return true;
}

/**
 * The extensions of an editor Obsidian builds for `info` (a note's MarkdownView, or an embed's, hover preview's or
 * canvas card's MarkdownFileInfo): the info field, multiple cursors (Obsidian allows them), the keymap slice, and
 * the plugins' extensions.
 */
export function editorExtensionsFor(info: MarkdownFileInfo): Extension[] {
	return [
		editorInfoField.init(() => info),
		EditorState.allowMultipleSelections.of(true),
		selectionKeys,
		pluginExtensionSlot.of([...pluginEditorExtensions]),
	];
}

/** A CodeMirror editor attached to `ownerDocument` (the main window's by default), as Obsidian builds one. */
export function createEditorView(
	info: MarkdownFileInfo,
	text: string,
	ownerDocument: Document = globalThis.document,
): EditorView {
	const cm = new EditorView({
		state: EditorState.create({ doc: text, extensions: editorExtensionsFor(info) }),
		parent: ownerDocument.body,
	});
	liveEditors.add(cm);
	return cm;
}

function isDomDocument(target: EventTarget): target is Document {
	return "body" in target && "createElement" in target;
}

export function destroyEditorView(cm: EditorView): void {
	liveEditors.delete(cm);
	cm.destroy();
}

/** obsidian.d.ts `MarkdownFileInfo`: what `editorInfoField` holds for an editor. */
export interface MarkdownFileInfo {
	app: App;
	readonly file: TFile | null;
	editor?: Editor;
}

/**
 * obsidian.d.ts: `editorInfoField: StateField<MarkdownFileInfo>` ("information about this Markdown editor, such as
 * the associated file"). Obsidian gives it its value when it builds an editor: the MarkdownView for a note's editor,
 * another MarkdownFileInfo for embeds, hover previews and canvas cards ("may be a MarkdownView but not necessarily").
 * So the field has no value of its own here either: an editor state gets it through `editorInfoField.init(() => info)`.
 */
export const editorInfoField: StateField<MarkdownFileInfo> = StateField.define<MarkdownFileInfo>({
	create: () => {
		throw new Error(
			"editorInfoField: the editor that owns this state provides its MarkdownFileInfo (editorInfoField.init)",
		);
	},
	update: (info) => info,
});

/** obsidian.d.ts `EditorPosition`: 0-based line, `ch` in UTF-16 code units of that line. */
export interface EditorPosition {
	line: number;
	ch: number;
}

/**
 * Obsidian's `Editor` over CodeMirror 6 (obsidian.d.ts: "a common interface that bridges the gap between CodeMirror 5
 * and CodeMirror 6"): every call reads or writes the real EditorView `cm`, as Obsidian's does. Positions outside the
 * document are clamped, as CodeMirror 5's were.
 */
export class Editor {
	constructor(readonly cm: EditorView) {}

	getValue(): string {
		return this.cm.state.doc.toString();
	}
	setValue(content: string): void {
		this.cm.dispatch({ changes: { from: 0, to: this.cm.state.doc.length, insert: content } });
	}
	lineCount(): number {
		return this.cm.state.doc.lines;
	}
	lastLine(): number {
		return this.cm.state.doc.lines - 1;
	}
	getLine(line: number): string {
		return this.cm.state.doc.line(this.clampLine(line) + 1).text;
	}
	/** The main selection's text. */
	getSelection(): string {
		const { from, to } = this.cm.state.selection.main;
		return this.cm.state.sliceDoc(from, to);
	}
	/** CodeMirror 5's `somethingSelected`: whether any range (not only the main one) is non-empty. */
	somethingSelected(): boolean {
		return this.cm.state.selection.ranges.some((range) => !range.empty);
	}
	getRange(from: EditorPosition, to: EditorPosition): string {
		const [start, end] = [this.posToOffset(from), this.posToOffset(to)].sort((a, b) => a - b) as [number, number];
		return this.cm.state.sliceDoc(start, end);
	}
	/** The main selection's end: `head` by default, as in CodeMirror 5. */
	getCursor(which: "from" | "to" | "head" | "anchor" = "head"): EditorPosition {
		const main = this.cm.state.selection.main;
		return this.offsetToPos(main[which]);
	}
	listSelections(): { anchor: EditorPosition; head: EditorPosition }[] {
		return this.cm.state.selection.ranges.map((range) => ({
			anchor: this.offsetToPos(range.anchor),
			head: this.offsetToPos(range.head),
		}));
	}
	setCursor(pos: EditorPosition): void {
		this.setSelection(pos, pos);
	}
	setSelection(anchor: EditorPosition, head: EditorPosition = anchor): void {
		this.cm.dispatch({
			selection: EditorSelection.single(this.posToOffset(anchor), this.posToOffset(head)),
			userEvent: "select",
		});
	}
	replaceRange(replacement: string, from: EditorPosition, to: EditorPosition = from): void {
		this.cm.dispatch({ changes: { from: this.posToOffset(from), to: this.posToOffset(to), insert: replacement } });
	}
	replaceSelection(replacement: string): void {
		this.cm.dispatch(this.cm.state.replaceSelection(replacement));
	}
	scrollIntoView(range: { from: EditorPosition; to: EditorPosition }, center = false): void {
		const target = EditorSelection.range(this.posToOffset(range.from), this.posToOffset(range.to));
		this.cm.dispatch({ effects: EditorView.scrollIntoView(target, { y: center ? "center" : "nearest" }) });
	}
	hasFocus(): boolean {
		return this.cm.hasFocus;
	}
	focus(): void {
		this.cm.focus();
	}
	blur(): void {
		this.cm.contentDOM.blur();
	}
	posToOffset(pos: EditorPosition): number {
		const line = this.cm.state.doc.line(this.clampLine(pos.line) + 1);
		return line.from + Math.min(Math.max(pos.ch, 0), line.length);
	}
	offsetToPos(offset: number): EditorPosition {
		const clamped = Math.min(Math.max(offset, 0), this.cm.state.doc.length);
		const line = this.cm.state.doc.lineAt(clamped);
		return { line: line.number - 1, ch: clamped - line.from };
	}
	private clampLine(line: number): number {
		return Math.min(Math.max(line, 0), this.cm.state.doc.lines - 1);
	}
}

/**
 * obsidian.d.ts `MarkdownView` as a view (TextFileView → FileView → ItemView; the editor part is separate).
 * `setState({ file })` loads the note (a note switch inside the same tab keeps the view); the text it holds is
 * CodeMirror's document, whose line breaks are "\n" whatever the file uses (@codemirror/state: the document is
 * split on "\r\n", "\r" and "\n" unless `lineSeparator` is set), so `getViewData()` of a CRLF note never equals
 * the file. `requestSave` saves 2 s after the last change (d.ts: "Debounced save in 2 seconds from now"). When
 * the file changes on disk and the view has nothing unsaved, the view reloads it (observed); unsaved typing is
 * kept (Obsidian's merge of conflicting changes is not modelled).
 */
export class MarkdownView extends ItemView {
	file: TFile | null = null;
	// ---- the editor part of MarkdownView (Editor region) ----
	/** The CodeMirror view behind `editor`, built once there is a DOM (tests/obsidian/harness/cm6-dom.ts). */
	private cm: EditorView | undefined;
	private editorWrapper: Editor | undefined;
	/** The file the editor's state was built for: loading another file swaps the state (`EditorView.setState`). */
	private editorFile: TFile | null = null;
	/** The document while there is no DOM (tests that never touch the editor). */
	private textWithoutEditor = "";

	/** obsidian.d.ts `MarkdownView.editor`: Obsidian's Editor over this view's CodeMirror editor. */
	get editor(): Editor {
		const cm = this.editorView();
		if (!cm)
			throw new Error(
				"MarkdownView.editor needs a DOM: install one first (BrowserWindows, tests/obsidian/harness/cm6-dom.ts)",
			);
		this.editorWrapper ??= new Editor(cm);
		return this.editorWrapper;
	}

	/**
	 * The editor's document, which the view part below reads and writes. Loading another file into the view swaps
	 * the editor's whole state in the same EditorView (no update listener sees it), as Obsidian does when a link, the
	 * quick switcher or back/forward opens a note in the same tab; other writes are ordinary transactions.
	 */
	private get data(): string {
		return this.cm ? this.cm.state.doc.toString() : this.textWithoutEditor;
	}
	private set data(text: string) {
		const cm = this.editorView();
		if (!cm) {
			this.textWithoutEditor = text;
			this.editorFile = this.file;
		} else if (this.editorFile !== this.file) {
			this.editorFile = this.file;
			cm.setState(EditorState.create({ doc: text, extensions: editorExtensionsFor(this) }));
		} else if (cm.state.doc.toString() !== text) {
			cm.dispatch({ changes: { from: 0, to: cm.state.doc.length, insert: text } });
		}
	}

	private editorView(): EditorView | undefined {
		if (this.cm || typeof globalThis.document === "undefined") return this.cm;
		const cm = createEditorView(this, this.textWithoutEditor, this.windowDocument());
		this.cm = cm;
		this.register(() => destroyEditorView(cm));
		return cm;
	}

	/** The document of the window the view's leaf is in: a popout's own when it is a DOM document, else the main one. */
	private windowDocument(): Document {
		const container = this.leaf.group.container;
		const doc = container instanceof WorkspaceWindow ? container.doc : undefined;
		return doc && isDomDocument(doc) ? doc : globalThis.document;
	}

	// ---- the view part of MarkdownView (workspace region, helper B) ----
	override navigation = true;
	/** The document as last loaded from or written to disk. */
	private savedData = "";
	private saveTimer: ReturnType<typeof setTimeout> | undefined;

	/** The leaf is optional for older tests that build a bare view; such a view lives outside any workspace. */
	constructor(leaf?: WorkspaceLeaf) {
		super(leaf ?? new WorkspaceLeaf(new App("/", "Vault")));
	}

	override onload(): void {
		this.registerEvent(
			this.app.vault.on("modify", (...args: unknown[]) => {
				const [file] = args;
				if (file instanceof TFile) void this.reloadIfClean(file);
			}),
		);
		this.register(() => clearTimeout(this.saveTimer));
	}

	getViewType(): string {
		return "markdown";
	}
	/** obsidian.d.ts `MarkdownView.getMode`: "source" while editing (Live Preview or Source mode), "preview" in Reading view. */
	getMode(): "source" | "preview" {
		return this.mode;
	}
	/** Test helper: Reading view (`preview`) or editing (`source`, the default). */
	mode: "source" | "preview" = "source";
	getDisplayText(): string {
		return this.file?.basename ?? "No file";
	}
	override getState(): Record<string, unknown> {
		return this.file ? { file: this.file.path } : {};
	}
	override async setState(state: unknown, _result: ViewStateResult): Promise<void> {
		const path =
			typeof state === "object" && state !== null && "file" in state && typeof state.file === "string"
				? state.file
				: undefined;
		if (path === undefined || path === this.file?.path) return;
		const file = this.app.vault.getFileByPath(path);
		if (!file) throw new Error(`File not found: ${path}`);
		if (this.file && this.data !== this.savedData) await this.save();
		const text = toEditorText(await this.app.vault.read(file));
		this.file = file;
		this.data = text;
		this.savedData = text;
	}
	getViewData(): string {
		return this.data;
	}
	/** Sets the editor's text (line breaks normalised, as CodeMirror does); the change is saved after 2 s. */
	setViewData(data: string, _clear: boolean): void {
		this.data = toEditorText(data);
		this.requestSave();
		this.editorChanged();
	}
	requestSave(): void {
		clearTimeout(this.saveTimer);
		this.saveTimer = setTimeout(() => void this.save(), 2000);
	}
	/** obsidian.d.ts `TextFileView.save`: writes the editor's text to the file. */
	async save(): Promise<void> {
		clearTimeout(this.saveTimer);
		const file = this.file;
		if (!file) return;
		const data = this.data;
		this.savedData = data;
		await this.app.vault.modify(file, data);
	}
	/** Test helper: the user types; the view now holds `text`, unsaved until the 2 s autosave. */
	type(text: string): void {
		this.setViewData(text, false);
	}
	/**
	 * obsidian.d.ts `editor-change`: "Triggered when changes to an editor has been applied, either programmatically
	 * or from a user event" (editor, info). Without a DOM there is no editor to pass (tests that never use it).
	 */
	private editorChanged(): void {
		const editor = typeof globalThis.document === "undefined" ? undefined : this.editor;
		this.app.workspace.trigger("editor-change", editor, this);
	}
	/** Test helper: whether the editor holds changes not yet written to disk. */
	get hasUnsavedChanges(): boolean {
		return this.data !== this.savedData;
	}

	private async reloadIfClean(file: TFile): Promise<void> {
		if (file !== this.file || this.data !== this.savedData) return;
		const text = toEditorText(await this.app.vault.read(file));
		if (file !== this.file || this.data !== this.savedData || text === this.data) return;
		this.data = text;
		this.savedData = text;
		this.editorChanged();
	}
}

// ---- end of the Editor region ----

/** obsidian.d.ts `getAllTags`: the body's tags, then the frontmatter's (`parseFrontMatterTags`), each with `#`. */
export function getAllTags(cache: { tags?: { tag: string }[]; frontmatter?: Record<string, unknown> }): string[] {
	return [...(cache.tags ?? []).map((entry) => entry.tag), ...(parseFrontMatterTags(cache.frontmatter) ?? [])];
}

/**
 * obsidian.d.ts `parseFrontMatterTags`: the `tags` property, or the older `tag`, whatever the key's case
 * (help.obsidian.md/tags, "Tags in properties"), as a list or as one string of tags separated by commas or
 * spaces; each tag gets a leading `#`. Null without such a property.
 */
export function parseFrontMatterTags(frontmatter: Record<string, unknown> | null | undefined): string[] | null {
	if (!frontmatter) return null;
	const key = Object.keys(frontmatter).find((name) => /^tags?$/i.test(name));
	if (key === undefined) return null;
	const value = frontmatter[key];
	const items: unknown[] = Array.isArray(value) ? value : [value];
	return items
		.filter((item): item is string | number => typeof item === "string" || typeof item === "number")
		.flatMap((item) => String(item).split(/[,\s]+/))
		.map((tag) => tag.replace(/^#+/, ""))
		.filter((tag) => tag !== "")
		.map((tag) => `#${tag}`);
}

export const notices: string[] = [];

/**
 * obsidian.d.ts `Platform`: what the app runs on. The stand-in is the desktop app on Linux (where the tests run);
 * a test may set `isMacOS` and put it back.
 */
export const Platform = {
	isDesktop: true,
	isMobile: false,
	isDesktopApp: true,
	isMobileApp: false,
	isIosApp: false,
	isAndroidApp: false,
	isPhone: false,
	isTablet: false,
	isMacOS: false,
	isWin: false,
	isLinux: true,
	isSafari: false,
	resourcePathPrefix: "app://local/",
};

export class Notice {
	constructor(message: string) {
		notices.push(message);
	}
}

export function normalizePath(path: string): string {
	return path
		.replace(/\\/g, "/")
		.replace(/\/+/g, "/")
		.replace(/^\/|\/$/g, "");
}

// Obsidian runs plugins in a browser window: `window` is the global object there, `activeDocument` the focused document.
const globals = globalThis as { window?: unknown; activeDocument?: unknown };
if (globals.window === undefined) globals.window = globalThis;
// Without a DOM (tests/obsidian/harness/cm6-dom.ts installs one), the main document is a bare event target.
if (globals.activeDocument === undefined) globals.activeDocument = new FakeDocument();

/** obsidian.d.ts `ViewStateResult`. */
export interface ViewStateResult {
	history: boolean;
}

/**
 * obsidian.d.ts `WorkspaceLeaf`: holds one view. A new leaf shows the empty view ("New tab").
 * `setViewState` builds the view its type names through the app's view registry (what `Plugin.registerView`
 * fills), keeps the view when the type is unchanged and only passes it the state, and rejects when building,
 * opening or setting the state of the view throws (Obsidian's handling there is not documented; a caller must
 * survive a rejection). `detach()` closes the view: `onClose` runs, then the view unloads.
 */
export class WorkspaceLeaf extends Events {
	view: View;
	pinned = false;
	/** Test helper: true once `detach()` ran. */
	detached = false;
	readonly group: WorkspaceTabs;
	private loading: Promise<void> | undefined;

	constructor(
		readonly app: App,
		group?: WorkspaceTabs,
	) {
		super();
		// Without a group the leaf stands outside the layout (a test of one view on its own).
		this.group = group ?? new WorkspaceTabs("root");
		this.view = new EmptyView(this);
		this.view.load();
	}

	/** obsidian.d.ts (since 1.7.2): "true if this leaf is currently deferred because it is in the background". */
	get isDeferred(): boolean {
		return this.view instanceof DeferredView;
	}

	/** obsidian.d.ts (since 1.7.2): "If this view is currently deferred, load it and await that it has fully loaded." */
	loadIfDeferred(): Promise<void> {
		const view = this.view;
		if (!(view instanceof DeferredView)) return this.loading ?? Promise.resolve();
		this.loading ??= this.replaceView(view.savedState).finally(() => (this.loading = undefined));
		return this.loading;
	}

	/** Test helper: what Obsidian does to a background tab restored at startup (docs "Understanding deferred views"). */
	deferTo(viewState: ViewState): void {
		const old = this.view;
		this.view = new DeferredView(this, viewState);
		this.view.load();
		void closeView(old);
	}

	/** A deferred leaf answers with the state it was saved with (its `state.file` names the note). */
	getViewState(): ViewState {
		return { type: this.view.getViewType(), state: this.view.getState(), ...(this.pinned ? { pinned: true } : {}) };
	}

	async setViewState(viewState: ViewState, _eState?: unknown): Promise<void> {
		if (viewState.type === this.view.getViewType() && !this.isDeferred)
			await this.view.setState(viewState.state ?? {}, { history: true });
		else await this.replaceView(viewState);
		if (viewState.pinned !== undefined) this.pinned = viewState.pinned;
		const workspace = this.app.workspace;
		if (viewState.active) workspace.setActiveLeaf(this);
		// FileView.loadFile asks for the active-leaf events again when its leaf is the active one (see Workspace.activeLeafEvents).
		else if (workspace.activeLeaf === this) workspace.requestActiveLeafEvents();
		workspace.requestLayoutChange();
	}

	/** obsidian.d.ts `openFile`: opens the file in this leaf (a Markdown view for `.md`). */
	async openFile(file: TFile, openState?: OpenViewState): Promise<void> {
		if (file.extension !== "md") throw new Error(`The fake workspace opens Markdown notes only, not ${file.path}`);
		await this.setViewState(
			{ type: "markdown", state: { ...openState?.state, file: file.path }, active: openState?.active },
			openState?.eState,
		);
	}

	detach(): void {
		if (this.detached) return;
		this.detached = true;
		const view = this.view;
		this.app.workspace.forgetLeaf(this);
		void closeView(view);
	}

	getDisplayText(): string {
		return this.view.getDisplayText();
	}

	getIcon(): string {
		return this.view.getIcon();
	}

	private async replaceView(viewState: ViewState): Promise<void> {
		const old = this.view;
		this.view = new EmptyView(this);
		await closeView(old);
		const creator = this.app.viewRegistry.get(viewState.type);
		if (!creator) throw new Error(`No view is registered for the type "${viewState.type}"`);
		const view = creator(this);
		view.load();
		this.view = view;
		await view.onOpen();
		await view.setState(viewState.state ?? {}, { history: false });
	}
}

/** View.close in Obsidian: `onClose`, then the view's component unloads. */
async function closeView(view: View): Promise<void> {
	try {
		await view.onClose();
	} finally {
		view.unload();
	}
}

/** Obsidian's "New tab" page (type `empty`, not in obsidian.d.ts); it can be navigated, so `getLeaf(false)` reuses it. */
export class EmptyView extends ItemView {
	override navigation = true;
	getViewType(): string {
		return "empty";
	}
	getDisplayText(): string {
		return "New tab";
	}
}

/**
 * Obsidian's placeholder for a background tab restored at startup (not in obsidian.d.ts; docs "Understanding
 * deferred views": since 1.7.2 "all views are created as instances of DeferredView" until shown). It reports the
 * real view type (the docs call `leaf.view.getViewType() === 'my-view'` followed by a cast "Bad" for this reason)
 * and the saved state, but it is not an instance of the real view class.
 */
export class DeferredView extends View {
	constructor(
		leaf: WorkspaceLeaf,
		readonly savedState: ViewState,
	) {
		super(leaf);
	}
	getViewType(): string {
		return this.savedState.type;
	}
	override getState(): Record<string, unknown> {
		return { ...this.savedState.state };
	}
	getDisplayText(): string {
		const file = this.savedState.state?.file;
		return typeof file === "string" ? (file.split("/").pop() ?? file).replace(/\.md$/, "") : this.savedState.type;
	}
}

/**
 * obsidian.d.ts `MarkdownRenderer.render`. The fake renders nothing: it records each call (spy on it or read
 * `rendered`) and puts the markdown into the element as text. Real rendering runs every plugin's code-block
 * processors and loads images, which is why the review view never passes it unaccepted text.
 */
export const MarkdownRenderer = {
	rendered: [] as { markdown: string; sourcePath: string }[],
	render(
		_app: App,
		markdown: string,
		element: FakeElement,
		sourcePath: string,
		_component: Component,
	): Promise<void> {
		MarkdownRenderer.rendered.push({ markdown, sourcePath });
		element.setText(markdown);
		// As Obsidian's renderer does: each fenced block whose language a plugin registered goes to that processor.
		for (const match of markdown.matchAll(/^(`{3,}|~{3,})\s*([^\s`]+)[^\n]*\n([\s\S]*?)^\1/gm)) {
			const processor = markdownCodeBlockProcessors.get(match[2] ?? "");
			void processor?.(match[3] ?? "", element.createDiv(), { sourcePath });
		}
		return Promise.resolve();
	},
};

/** obsidian.d.ts `MarkdownPostProcessorContext`, the part the fake passes. */
export type FakeCodeBlockProcessor = (source: string, element: FakeElement, context: { sourcePath: string }) => unknown;

/** The code block processors plugins registered (Dataview's `dataviewjs`, Templater's …), by language. */
const markdownCodeBlockProcessors = new Map<string, FakeCodeBlockProcessor>();

/** obsidian.d.ts `Debouncer`. */
export interface Debouncer<T extends unknown[], V> {
	(...args: [...T]): Debouncer<T, V>;
	cancel(): Debouncer<T, V>;
	run(): V | void;
}

/**
 * obsidian.d.ts `debounce(cb, timeout = 0, resetTimer)`: calls `cb` with the latest arguments once `timeout` ms
 * have passed; with `resetTimer` each call restarts the wait. Uses `setTimeout`, so Jest fake timers drive it.
 */
export function debounce<T extends unknown[], V>(
	cb: (...args: [...T]) => V,
	timeout = 0,
	resetTimer = false,
): Debouncer<T, V> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	let latest: [...T] | undefined;
	const run = (): V | void => {
		clearTimeout(timer);
		timer = undefined;
		const args = latest;
		latest = undefined;
		return args === undefined ? undefined : cb(...args);
	};
	const debounced = ((...args: [...T]) => {
		latest = args;
		if (timer !== undefined && !resetTimer) return debounced;
		clearTimeout(timer);
		timer = setTimeout(run, timeout);
		return debounced;
	}) as Debouncer<T, V>;
	debounced.cancel = () => {
		clearTimeout(timer);
		timer = undefined;
		latest = undefined;
		return debounced;
	};
	debounced.run = run;
	return debounced;
}

function toEditorText(text: string): string {
	return text.replace(/\r\n?/g, "\n");
}

export { parse as parseYaml, stringify as stringifyYaml } from "yaml";
