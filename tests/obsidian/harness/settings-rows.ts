import type { FakeElement } from "../../__mocks__/obsidian";

/** The rows a user sees on opening a settings tab: every `.setting-item` not inside a closed `<details>` (its summary shows). */
export function visibleRows(element: FakeElement, folded = false): FakeElement[] {
	return element.children.flatMap((child) => {
		const hidden = folded && child.tag !== "summary";
		const rows = child.hasClass("setting-item") && !hidden ? [child] : [];
		return [...rows, ...visibleRows(child, hidden || (child.tag === "details" && !child.attributes.has("open")))];
	});
}

/** A row's name as shown. */
export function rowName(row: FakeElement): string {
	return row.findAll("setting-item-name")[0]?.text ?? "";
}

/** The text a user reads on opening a settings tab: every element's own text, but inside a closed `<details>` only its summary's. */
export function visibleText(element: FakeElement, folded = false): string[] {
	return element.children.flatMap((child) => {
		const hidden = folded && child.tag !== "summary";
		const own = !hidden && child.text !== "" ? [child.text] : [];
		return [...own, ...visibleText(child, hidden || (child.tag === "details" && !child.attributes.has("open")))];
	});
}
