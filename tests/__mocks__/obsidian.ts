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
}

export class FileSystemAdapter {
	constructor(private readonly basePath: string) {}
	getBasePath(): string {
		return this.basePath;
	}
}

export class Workspace extends Events {
	layoutReady = false;
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
}

export class App {
	readonly workspace = new Workspace();
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

// Obsidian runs plugins in a browser window: `window` is the global object there.
const globals = globalThis as { window?: unknown };
if (globals.window === undefined) globals.window = globalThis;
