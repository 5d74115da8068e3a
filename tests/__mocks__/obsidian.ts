/**
 * A small hand-written stand-in for the `obsidian` module. It grows only when a test needs a symbol;
 * lifecycle behaviour (load/unload cascading, register* cleanups) follows the real Component.
 */

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

/** Obsidian's parsed-metadata index; the stub has parsed nothing. */
export class MetadataCache extends Events {
	getFileCache(_file: TFile): null {
		return null;
	}
	getFirstLinkpathDest(_linkpath: string, _sourcePath: string): TFile | null {
		return null;
	}
}

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
