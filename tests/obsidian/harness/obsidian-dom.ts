import type { DOMWindow } from "jsdom";

/**
 * The DOM helpers Obsidian adds to every window it runs plugins in (obsidian.d.ts, its `declare global` block:
 * `Node.createEl`/`createDiv`/`createSpan`/`empty`/`appendText`, `Element.setText`/`addClass`/`removeClass`/`toggleClass`/
 * `hasClass`/`setAttr`/`getText`, and the global `createEl`/`createDiv`/`createSpan`/`createFragment`), on a jsdom
 * window, so code that draws into a real CodeMirror editor runs here as in Obsidian. Only what that code uses, with
 * the `DomElementInfo` fields obsidian.d.ts documents: `cls` (a string with spaces, or a list), `text`, `attr`,
 * `title`, `value`, `type`, `placeholder`, `href`, `parent`, `prepend`.
 */
interface DomElementInfo {
	cls?: string | string[];
	text?: string;
	attr?: Record<string, string | number | boolean | null>;
	title?: string;
	value?: string;
	type?: string;
	placeholder?: string;
	href?: string;
	parent?: Node;
	prepend?: boolean;
}

type Info = DomElementInfo | string | undefined;

const HTML_NAMESPACE = "http://www.w3.org/1999/xhtml";

export function installObsidianDom(window: DOMWindow): void {
	const document = window.document;
	const make = (tag: string, info: Info, callback?: (element: HTMLElement) => void): HTMLElement => {
		// By namespace: the same HTML element as createElement gives in an HTML document.
		const element = document.createElementNS(HTML_NAMESPACE, tag);
		const options: DomElementInfo = typeof info === "string" ? { text: info } : (info ?? {});
		const classes = typeof options.cls === "string" ? options.cls.split(" ") : (options.cls ?? []);
		for (const name of classes.filter((each) => each !== "")) element.classList.add(name);
		if (options.text !== undefined) element.textContent = options.text;
		for (const [name, value] of Object.entries(options.attr ?? {})) setAttribute(element, name, value);
		for (const name of ["title", "value", "type", "placeholder", "href"] as const)
			if (options[name] !== undefined) element.setAttribute(name, options[name] ?? "");
		if (options.parent) attach(options.parent, element, options.prepend === true);
		callback?.(element);
		return element;
	};
	const attach = (parent: Node, child: Node, prepend: boolean): void => {
		if (prepend) parent.insertBefore(child, parent.firstChild);
		else parent.appendChild(child);
	};
	const nodeHelpers = {
		createEl(this: Node, tag: string, info?: Info, callback?: (element: HTMLElement) => void): HTMLElement {
			const element = make(tag, info, callback);
			const options = typeof info === "object" ? info : {};
			if (!options.parent) attach(this, element, options.prepend === true);
			return element;
		},
		createDiv(this: Node, info?: Info, callback?: (element: HTMLElement) => void): HTMLElement {
			return nodeHelpers.createEl.call(this, "div", info, callback);
		},
		createSpan(this: Node, info?: Info, callback?: (element: HTMLElement) => void): HTMLElement {
			return nodeHelpers.createEl.call(this, "span", info, callback);
		},
		empty(this: Node): void {
			while (this.firstChild) this.removeChild(this.firstChild);
		},
		appendText(this: Node, text: string): void {
			this.appendChild(document.createTextNode(text));
		},
	};
	const elementHelpers = {
		setText(this: Element, text: string): void {
			this.textContent = text;
		},
		getText(this: Element): string {
			return this.textContent ?? "";
		},
		addClass(this: Element, ...classes: string[]): void {
			this.classList.add(...classes);
		},
		removeClass(this: Element, ...classes: string[]): void {
			this.classList.remove(...classes);
		},
		toggleClass(this: Element, classes: string | string[], value: boolean): void {
			for (const name of typeof classes === "string" ? [classes] : classes) this.classList.toggle(name, value);
		},
		hasClass(this: Element, name: string): boolean {
			return this.classList.contains(name);
		},
		setAttr(this: Element, name: string, value: string | number | boolean | null): void {
			setAttribute(this, name, value);
		},
	};
	Object.assign(window.Node.prototype, nodeHelpers);
	Object.assign(window.Element.prototype, elementHelpers);
	Object.assign(window, {
		createEl: (tag: string, info?: Info, callback?: (element: HTMLElement) => void) => make(tag, info, callback),
		createDiv: (info?: Info, callback?: (element: HTMLElement) => void) => make("div", info, callback),
		createSpan: (info?: Info, callback?: (element: HTMLElement) => void) => make("span", info, callback),
		createFragment: (callback?: (fragment: DocumentFragment) => void) => {
			const fragment = new window.DocumentFragment();
			callback?.(fragment);
			return fragment;
		},
	});
}

/** An attribute as `setAttr` and `attr` take it: null removes it, anything else is written as text. */
function setAttribute(element: Element, name: string, value: string | number | boolean | null): void {
	if (value === null) element.removeAttribute(name);
	else element.setAttribute(name, String(value));
}
