import type { FakeElement } from "../__mocks__/obsidian";

/** Elements the keyboard reaches by Tab and activates with Enter or Space, as browsers do. */
const FOCUSABLE_TAGS = new Set(["button", "a", "input", "select", "textarea", "summary"]);

/**
 * Every element below `root` that a mouse can click but the keyboard cannot reach: it listens for `click` or
 * `mousedown` and is neither a focusable element nor given `tabindex="0"` with a role. An `option` of a listbox is
 * reached with the arrow keys from the field that owns it, so it counts as reachable.
 */
export function unreachableByKeyboard(root: FakeElement): string[] {
	const found: string[] = [];
	const visit = (element: FakeElement): void => {
		const clickable = element.listenedTo.some((type) => type === "click" || type === "mousedown");
		const reachable =
			FOCUSABLE_TAGS.has(element.tag) ||
			(element.attributes.get("tabindex") === "0" && element.attributes.has("role")) ||
			element.attributes.get("role") === "option";
		if (clickable && !reachable) found.push(`<${element.tag} class="${[...element.classes].join(" ")}">`);
		for (const child of element.children) visit(child);
	};
	visit(root);
	return found;
}
