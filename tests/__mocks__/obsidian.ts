/**
 * A small hand-written stand-in for the `obsidian` module. It grows only when a test needs a symbol;
 * lifecycle behaviour (load/unload cascading, register* cleanups) follows the real Component.
 */

import type { BlockCache, CachedMetadata, HeadingCache, ListItemCache, Loc } from "obsidian";

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
}

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
	readonly children: FakeElement[] = [];
	private readonly listeners = new Map<string, Set<(event: unknown) => void>>();

	createEl(tag: string, options?: { cls?: string | string[]; text?: string }): FakeElement {
		return this.appendChild(tag, options ?? {});
	}
	createDiv(options?: { cls?: string | string[]; text?: string }): FakeElement {
		return this.appendChild("div", options ?? {});
	}
	createSpan(options?: { cls?: string | string[]; text?: string }): FakeElement {
		return this.appendChild("span", options ?? {});
	}
	private appendChild(tag: string, options: { cls?: string | string[]; text?: string }): FakeElement {
		const element = new FakeElement();
		element.tag = tag;
		for (const name of typeof options.cls === "string" ? [options.cls] : (options.cls ?? [])) element.addClass(name);
		if (options.text !== undefined) element.setText(options.text);
		this.children.push(element);
		return element;
	}
	empty(): void {
		this.children.length = 0;
		this.text = "";
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
	/** Test helper: fires a DOM event at this element. */
	dispatch(type: string): void {
		for (const listener of this.listeners.get(type) ?? []) listener({ type });
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

export class FileSystemAdapter {
	constructor(private readonly basePath: string) {}
	getBasePath(): string {
		return this.basePath;
	}
}

export class Workspace extends Events {
	layoutReady = false;
	/** Test helper: the view getActiveViewOfType returns when it is of the asked type. */
	activeView: unknown = null;
	activeFile: TFile | null = null;

	getActiveViewOfType<T>(type: abstract new (...args: never[]) => T): T | null {
		return this.activeView instanceof type ? this.activeView : null;
	}

	getActiveFile(): TFile | null {
		return this.activeFile;
	}

	getLeavesOfType(_type: string): WorkspaceLeaf[] {
		return [];
	}
	private readonly readyCallbacks: Callback[] = [];

	onLayoutReady(callback: Callback): void {
		if (this.layoutReady) callback();
		else this.readyCallbacks.push(callback);
	}

	/** Test helper: what Obsidian does once the workspace is ready. */
	finishLayout(): void {
		this.layoutReady = true;
		while (this.readyCallbacks.length > 0) this.readyCallbacks.shift()?.();
	}
}

export class Vault extends Events {
	constructor(readonly adapter: FileSystemAdapter, private readonly name: string) {
		super();
	}
	getName(): string {
		return this.name;
	}

	/** Test helper: vault contents by path. */
	readonly contents = new Map<string, string>();

	getFiles(): TFile[] {
		return [...this.contents.keys()].map((path) => this.fileWithStat(path));
	}
	getMarkdownFiles(): TFile[] {
		return this.getFiles().filter((file) => file.extension === "md");
	}
	getFileByPath(path: string): TFile | null {
		return this.contents.has(path) ? this.fileWithStat(path) : null;
	}
	getAbstractFileByPath(path: string): TFile | null {
		return this.getFileByPath(path);
	}
	cachedRead(file: TFile): Promise<string> {
		return Promise.resolve(this.contents.get(file.path) ?? "");
	}
	read(file: TFile): Promise<string> {
		return this.cachedRead(file);
	}
	readBinary(file: TFile): Promise<ArrayBuffer> {
		const bytes = Buffer.from(this.contents.get(file.path) ?? "", "utf8");
		return Promise.resolve(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
	}

	private fileWithStat(path: string): TFile {
		const file = new TFile(path);
		file.stat = { size: Buffer.byteLength(this.contents.get(path) ?? ""), mtime: 0, ctime: 0 };
		return file;
	}
}

// ---- MetadataCache region (owner: diagnostics helper; harness: tests/obsidian/harness/metadata-*.ts) ----

/** The parts of a vault the fake metadata cache reads: its files, their text, and its file events. */
interface IndexedVault {
	getFiles(): TFile[];
	read(file: TFile): Promise<string>;
	on(name: string, callback: (...args: never[]) => unknown): EventRef;
}

/** Turns a note's text into its cache: the fake's "parser" (tests/obsidian/harness/metadata-parser.ts provides one). */
export type MetadataParser = (text: string) => CachedMetadata;

/**
 * Obsidian's metadata index (obsidian.d.ts `MetadataCache`), lagging behind the disk the way the real one does.
 * Obsidian parses a note some time after the vault reports it (the vault learns of external writes from a file
 * watcher, then queues the note for its parser worker), so `getFileCache` keeps returning the old entry, or null
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
	private readonly caches = new Map<string, CachedMetadata>();
	private vault: IndexedVault | undefined;

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
		vault.on("create", queue);
		vault.on("modify", queue);
		vault.on("delete", (file: TFile) => {
			// obsidian.d.ts `deleted`: "a best-effort previous version of the cached metadata is presented".
			const previous = this.caches.get(file.path) ?? null;
			this.forget(file.path);
			if (file.extension === "md") this.trigger("deleted", file, previous);
			this.resolveAll();
		});
		vault.on("rename", (file: TFile, oldPath: string) => {
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
		const files = new Map(vault.getFiles().map((file) => [file.path, file]));
		for (const path of paths ?? [...this.pending]) {
			if (!this.pending.delete(path)) continue;
			const file = files.get(path);
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
	 * obsidian.d.ts: "Get the best match for a linkpath". Obsidian's help (Internal links) and observed behaviour:
	 * case-insensitive; `.md` may be left out; a path relative to the source's folder or from the vault root wins,
	 * otherwise a file whose path ends with the link path, the one beside the source first, then the shortest path.
	 */
	getFirstLinkpathDest(linkpath: string, sourcePath: string): TFile | null {
		const files = this.vault?.getFiles() ?? [];
		if (linkpath === "") return files.find((file) => file.path === sourcePath) ?? null;
		const wanted = linkpath.toLowerCase().replace(/^\/+/, "");
		const keys = (file: TFile): string[] => {
			const lower = file.path.toLowerCase();
			return file.extension === "md" ? [lower, lower.slice(0, -3)] : [lower];
		};
		const folder = sourcePath.includes("/") ? sourcePath.slice(0, sourcePath.lastIndexOf("/") + 1).toLowerCase() : "";
		const exact = files.filter((file) => keys(file).includes(wanted));
		if (exact.length > 0) return exact[0] ?? null;
		const beside = files.filter((file) => keys(file).includes(folder + wanted));
		if (beside.length > 0) return beside[0] ?? null;
		const ending = files.filter((file) => keys(file).some((key) => key.endsWith(`/${wanted}`)));
		ending.sort((a, b) => Number(!a.path.toLowerCase().startsWith(folder)) - Number(!b.path.toLowerCase().startsWith(folder)) || a.path.length - b.path.length);
		return ending[0] ?? null;
	}

	private forget(path: string): void {
		this.caches.delete(path);
		this.pending.delete(path);
		delete this.resolvedLinks[path];
		delete this.unresolvedLinks[path];
	}

	private resolveFile(path: string, cache: CachedMetadata): void {
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
 * Observed behaviour of Obsidian 1.8: `#^id` finds `cache.blocks` by lower-cased id (with the list item ending
 * there, if any); `#A#B` finds heading A, then B after it; headings compare case-insensitively, with the
 * characters Obsidian cannot keep in links (`# | ^ : [ ] \` and `%%`) read as spaces and runs of white space as one.
 * Footnote subpaths (`#[^1]`) are not modelled: they answer null.
 */
export function resolveSubpath(cache: CachedMetadata, subpath: string): SubpathMatch | null {
	const body = subpath.startsWith("#") ? subpath.slice(1) : subpath;
	if (body.startsWith("^")) {
		const block = cache.blocks?.[body.slice(1).toLowerCase()];
		if (!block) return null;
		const list = cache.listItems?.find((item) => item.position.end.line === block.position.end.line);
		return list ? { type: "block", block, list, start: block.position.start, end: block.position.end } : { type: "block", block, start: block.position.start, end: block.position.end };
	}
	const key = (text: string): string => text.replace(/%%|[#|^:[\]\\]/g, " ").replace(/\s+/g, " ").trim().toLowerCase();
	const parts = body.split("#").map(key).filter((part) => part !== "");
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

export class App {
	readonly workspace = new Workspace();
	readonly metadataCache = new MetadataCache();
	readonly vault: Vault;
	constructor(basePath: string, name: string) {
		this.vault = new Vault(new FileSystemAdapter(basePath), name);
	}
}

export interface PluginManifest {
	id: string;
	name: string;
	version: string;
}

export interface Command {
	id: string;
	name: string;
	callback?: () => unknown;
}

export class Plugin extends Component {
	data: unknown = null;
	readonly commands: Command[] = [];
	readonly statusBarItems: FakeElement[] = [];
	readonly settingTabs: PluginSettingTab[] = [];
	readonly editorExtensions: unknown[] = [];
	readonly domEvents: { type: string; callback: (event: never) => unknown }[] = [];

	constructor(readonly app: App, readonly manifest: PluginManifest) {
		super();
	}
	loadData(): Promise<unknown> {
		return Promise.resolve(this.data);
	}
	saveData(data: unknown): Promise<void> {
		this.data = data;
		return Promise.resolve();
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
	readonly viewTypes = new Map<string, (leaf: WorkspaceLeaf) => unknown>();
	registerView(type: string, creator: (leaf: WorkspaceLeaf) => unknown): void {
		this.viewTypes.set(type, creator);
	}
	addSettingTab(tab: PluginSettingTab): void {
		this.settingTabs.push(tab);
	}
	registerEditorExtension(extension: unknown): void {
		this.editorExtensions.push(extension);
	}
	registerDomEvent(_target: unknown, type: string, callback: (event: never) => unknown): void {
		this.domEvents.push({ type, callback });
	}
}

export class PluginSettingTab {
	readonly containerEl = new FakeElement();
	constructor(readonly app: App, readonly plugin: Plugin) {}
	hide(): void {}
}

type ChangeHandler<T> = (value: T) => unknown;

/** A toggle, text field or text area of a Setting; `change` plays the user's input. */
export class FakeInput<T> {
	value: T | undefined;
	placeholder = "";
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
	private handler: (() => unknown) | undefined;
	setButtonText(text: string): this {
		this.text = text;
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

/** Obsidian's settings row; every instance is recorded in `Setting.created` for tests to inspect. */
export class Setting {
	static created: Setting[] = [];
	name = "";
	desc = "";
	isHeading = false;
	readonly toggles: FakeInput<boolean>[] = [];
	readonly texts: FakeInput<string>[] = [];
	readonly buttons: FakeButton[] = [];

	constructor(readonly containerEl: FakeElement) {
		Setting.created.push(this);
	}
	setName(name: string): this {
		this.name = name;
		return this;
	}
	setDesc(desc: string): this {
		this.desc = desc;
		return this;
	}
	setHeading(): this {
		this.isHeading = true;
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
		return this.addText(build);
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
		return this.path.split("/").pop() ?? "";
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

/** Stands in for the CodeMirror state field that maps an editor to its file. */
export const editorInfoField = { name: "editorInfoField" };

export class MarkdownView {
	file: TFile | null = null;
	editor: unknown = null;
}

export function getAllTags(cache: { tags?: { tag: string }[]; frontmatter?: { tags?: string[] } }): string[] {
	return [...(cache.tags ?? []).map((entry) => entry.tag), ...(cache.frontmatter?.tags ?? []).map((tag) => `#${tag}`)];
}

export const notices: string[] = [];

export class Notice {
	constructor(message: string) {
		notices.push(message);
	}
}

export function normalizePath(path: string): string {
	return path.replace(/\\/g, "/").replace(/\/+/g, "/").replace(/^\/|\/$/g, "");
}

// Obsidian runs plugins in a browser window: `window` is the global object there, `activeDocument` the focused document.
const globals = globalThis as { window?: unknown; activeDocument?: unknown };
if (globals.window === undefined) globals.window = globalThis;
if (globals.activeDocument === undefined) globals.activeDocument = {};

export interface ViewStateResult {
	history: boolean;
}

export class WorkspaceLeaf {
	view: unknown = null;
	detached = false;
	constructor(readonly app: App) {}
	detach(): void {
		this.detached = true;
	}
}

/** The parts of ItemView the review view uses; `contentEl` is a FakeElement tree. */
export class ItemView extends Component {
	readonly app: App;
	readonly containerEl = new FakeElement();
	readonly contentEl = new FakeElement();
	constructor(readonly leaf: WorkspaceLeaf) {
		super();
		this.app = leaf.app;
	}
	getState(): Record<string, unknown> {
		return {};
	}
	setState(_state: unknown, _result: ViewStateResult): Promise<void> {
		return Promise.resolve();
	}
	registerDomEvent(element: FakeElement, type: string, callback: (event: unknown) => void): void {
		element.addEventListener(type, callback);
		this.register(() => element.removeEventListener(type, callback));
	}
}

/** Records what was rendered; the markdown goes into the element as text. */
export const MarkdownRenderer = {
	rendered: [] as { markdown: string; sourcePath: string }[],
	render(_app: App, markdown: string, element: FakeElement, sourcePath: string, _component: Component): Promise<void> {
		MarkdownRenderer.rendered.push({ markdown, sourcePath });
		element.setText(markdown);
		return Promise.resolve();
	},
};

export { parse as parseYaml } from "yaml";
