import { finalSuggestions } from "../../../src/agent/inline-edit/inline-proposal";
import { InlineEditPanel } from "../../../src/obsidian/editor/inline-edit-panel";
import type { InlineEdit } from "../../../src/obsidian/editor/inline-edit-state";
import { Platform } from "../../__mocks__/obsidian";
import { BrowserWindows } from "../harness/cm6-dom";

let windows: BrowserWindows;
beforeEach(() => (windows = BrowserWindows.install()));
afterEach(() => windows?.uninstall());

function panel(): { panel: InlineEditPanel; calls: string[] } {
	const calls: string[] = [];
	const built = new InlineEditPanel({
		ask: (words) => calls.push(`ask ${words}`),
		stop: () => calls.push("stop"),
		acceptAll: () => calls.push("accept all"),
		dismiss: () => calls.push("dismiss"),
		moveToChange: (step) => calls.push(`move ${step}`) > 0,
	});
	document.body.appendChild(built.element);
	return { panel: built, calls };
}

const shown = (root: HTMLElement): string[] =>
	[...root.querySelectorAll("button")]
		.filter((button) => !button.classList.contains("is-hidden"))
		.map((b) => b.textContent ?? "");
const keysOf = (root: HTMLElement): string =>
	[...root.querySelectorAll(".ccb-inline-key")].map((hint) => hint.textContent).join(" ");
const input = (root: HTMLElement): HTMLInputElement => root.querySelector("input") as HTMLInputElement;
const key = (target: HTMLElement, init: KeyboardEventInit): KeyboardEvent => {
	const event = new KeyboardEvent("keydown", { bubbles: true, cancelable: true, ...init });
	target.dispatchEvent(event);
	return event;
};
const at = (phase: InlineEdit["phase"], from = 0, to = 10): InlineEdit => ({ from, to, phase });

describe("the inline edit's panel", () => {
	it("asks for a request, sends it with Enter or Ask, and Escape dismisses", () => {
		const { panel: built, calls } = panel();
		built.render(at({ kind: "asking" }), false);
		expect(shown(built.element)).toEqual(["Ask", "Close"]);
		expect(keysOf(built.element)).toBe("Enter asks Esc closes");
		expect(input(built.element).placeholder).toContain("Ask Claude to change this passage");
		input(built.element).value = "  shorter ";
		expect(key(input(built.element), { key: "Enter" }).defaultPrevented).toBe(true);
		expect(input(built.element).value).toBe("");
		key(input(built.element), { key: "Enter" });
		key(input(built.element), { key: "Escape" });
		expect(calls).toEqual(["ask shorter", "dismiss"]);
		built.render(at({ kind: "asking" }, 4, 4), false);
		expect(input(built.element).placeholder).toContain("write here");
	});

	it("while Claude writes, Stop and Close; with a proposal, Accept all and Reject all, and the box refines it", () => {
		const { panel: built, calls } = panel();
		built.render(at({ kind: "writing", pieces: [], pending: "x" }), false);
		expect(shown(built.element)).toEqual(["Stop", "Close"]);
		expect(keysOf(built.element)).toBe("Esc closes");
		expect(input(built.element).disabled).toBe(true);
		const pieces = finalSuggestions("The cat sat on the mat.", "The old cat sat on the rug.");
		built.render(at({ kind: "proposed", pieces }), true);
		expect(shown(built.element)).toEqual(["Ask", "Accept all", "Reject all"]);
		expect(keysOf(built.element)).toBe("Ctrl+Enter accepts all Alt+↓ goes to the next change Esc rejects all");
		expect(built.element.querySelector(".ccb-inline-status")?.textContent).toBe(
			"2 changes: accept or reject each, or all at once.",
		);
		expect(input(built.element).placeholder).toContain("shorter");
		key(input(built.element), { key: "Enter", ctrlKey: true });
		key(input(built.element), { key: "ArrowDown", altKey: true });
		key(input(built.element), { key: "ArrowUp", altKey: true });
		expect(calls).toEqual(["accept all", "move 1", "move -1"]);
	});

	it("shows a message; a final one (a private note) offers nothing but Close", () => {
		const { panel: built } = panel();
		built.render(at({ kind: "said", message: "This note is private.", final: true }), false);
		expect(shown(built.element)).toEqual(["Close"]);
		expect(input(built.element).classList.contains("is-hidden")).toBe(true);
		expect(built.element.querySelector(".ccb-inline-status")?.textContent).toBe("This note is private.");
	});

	it("names the Mac's key on a Mac, where Cmd+Enter accepts all", () => {
		Platform.isMacOS = true;
		try {
			const { panel: built, calls } = panel();
			const pieces = finalSuggestions("a", "b");
			built.render(at({ kind: "proposed", pieces }), false);
			expect(keysOf(built.element)).toContain("⌘+Enter accepts all");
			key(input(built.element), { key: "Enter", ctrlKey: true });
			key(input(built.element), { key: "Enter", metaKey: true });
			expect(calls).toEqual(["accept all"]);
		} finally {
			Platform.isMacOS = false;
		}
	});
});
