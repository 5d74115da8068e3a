import Module from "node:module";
import type { DOMWindow, JSDOM as JSDOMClass } from "jsdom";
import { installObsidianDom } from "./obsidian-dom";

// jsdom 29 loads ES-module-only dependencies, which Jest's module system cannot require on Node 20 (Jest intercepts
// `createRequire` as well); Node's own loader can (require(esm), Node 20.19+). So jsdom is loaded by Node's loader
// (`Module._load`, which Jest's stand-in for `node:module` passes through), outside Jest's module registry.
const nodeLoader = Module as unknown as { _load(request: string, parent: null, isMain: boolean): unknown };
const { JSDOM } = nodeLoader._load(require.resolve("jsdom"), null, false) as { JSDOM: typeof JSDOMClass };

/**
 * A browser for CodeMirror 6 in Node: jsdom windows whose globals (`document`, `window`, `MutationObserver`, …)
 * are installed while a test runs and restored afterwards. Obsidian's own globals `activeWindow`/`activeDocument`
 * point at the main window, and each window has Obsidian's DOM helpers (obsidian-dom.ts). jsdom does no layout, so text ranges measure as empty rectangles (CodeMirror then
 * works on its estimated heights); selections, focus, transactions and DOM events are real.
 */
const GLOBAL_NAMES = [
	"window",
	"document",
	"navigator",
	"Node",
	"Element",
	"HTMLElement",
	"Text",
	"Range",
	"MutationObserver",
	"getComputedStyle",
	"requestAnimationFrame",
	"cancelAnimationFrame",
	"Event",
	"KeyboardEvent",
	"MouseEvent",
	"FocusEvent",
	"InputEvent",
	"activeWindow",
	"activeDocument",
	// Obsidian's global DOM helpers (obsidian-dom.ts), which create elements in the main window's document.
	"createEl",
	"createDiv",
	"createSpan",
	"createFragment",
] as const;

type GlobalName = (typeof GLOBAL_NAMES)[number];

export class BrowserWindows {
	readonly main: DOMWindow;
	private readonly windows: JSDOMClass[] = [];
	private readonly saved = new Map<GlobalName, PropertyDescriptor | undefined>();

	private constructor() {
		const main = this.open();
		this.main = main;
		const scope = globalThis as Record<string, unknown>;
		for (const name of GLOBAL_NAMES) {
			this.saved.set(name, Object.getOwnPropertyDescriptor(globalThis, name));
			const value =
				name === "window" || name === "activeWindow"
					? main
					: name === "activeDocument"
						? main.document
						: (main as unknown as Record<string, unknown>)[name];
			Object.defineProperty(scope, name, {
				value:
					typeof value === "function" && /^[a-z]/.test(name)
						? (value as (...args: unknown[]) => unknown).bind(main)
						: value,
				configurable: true,
				writable: true,
			});
		}
	}

	/** Installs the main window's globals; call `uninstall()` when the test is done. */
	static install(): BrowserWindows {
		return new BrowserWindows();
	}

	/** Another window, as Obsidian opens for a popout: its own document and DOM classes (hence Obsidian's `instanceOf`). */
	openPopout(): DOMWindow {
		return this.open();
	}

	/** Closes every window and puts the globals back as they were. */
	uninstall(): void {
		for (const [name, descriptor] of this.saved) {
			if (descriptor) Object.defineProperty(globalThis, name, descriptor);
			else delete (globalThis as Record<string, unknown>)[name];
		}
		this.saved.clear();
		while (this.windows.length > 0) {
			const { window } = this.windows.pop() ?? {};
			if (!window) continue;
			// Pending animation frames (CodeMirror's measuring) would still run after close(), in a window whose
			// document is gone, and jsdom then crashes the process while reporting their error. Handles count up
			// from 1 per window, so every pending one is cancelled.
			const last = window.requestAnimationFrame(() => undefined);
			for (let handle = 1; handle <= last; handle++) window.cancelAnimationFrame(handle);
			window.close();
			// An editor still alive (a test that overran its time) must not schedule new frames in the dead window.
			window.requestAnimationFrame = () => 0;
		}
	}

	private open(): DOMWindow {
		const dom = new JSDOM("<!doctype html><html><body></body></html>", { pretendToBeVisual: true });
		const emptyRect = () => dom.window.document.body.getBoundingClientRect();
		// jsdom has no layout: a text range has no boxes, like text that is not rendered.
		Object.assign(dom.window.Range.prototype, { getClientRects: () => [], getBoundingClientRect: emptyRect });
		installObsidianDom(dom.window);
		this.windows.push(dom);
		return dom.window;
	}
}
