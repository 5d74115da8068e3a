import type { MarkedRun, SuggestionPiece } from "../../shared/suggestions";

export type ChangeDecision = "accepted" | "rejected";

export interface SuggestionCallbacks {
	decisions: ReadonlyMap<number, ChangeDecision>;
	/** Fold keys the user opened. */
	expanded: ReadonlySet<string>;
	decide(id: number, decision: ChangeDecision | undefined): void;
	expand(key: string): void;
}

/** Unchanged lines kept visible on each side of a change; longer unchanged stretches fold into a button. */
const CONTEXT_LINES = 2;

/**
 * Draws the proposal as suggestions inside the note's own text: deletions struck through, additions underlined,
 * each change with its own accept and reject, named by its words. A decided change stays in view, marked
 * "Accepted" or "Rejected" in words, the text it drops struck through, with Undo. Text only (text nodes in spans):
 * nothing of the unaccepted text is rendered as Markdown, so no plugin code block runs and no remote image loads.
 * Returns each change's element by its id, in the text's order, for moving between changes by keyboard.
 */
export function renderSuggestions(
	parent: HTMLElement,
	pieces: readonly SuggestionPiece[],
	callbacks: SuggestionCallbacks,
): Map<number, HTMLElement> {
	const text = parent.createDiv({ cls: "ccb-suggest" });
	const changes = new Map<number, HTMLElement>();
	const total = pieces.filter((piece) => piece.kind === "change").length;
	if (total === 0)
		text.createDiv({ cls: "ccb-diff-empty", text: "No changes: the proposal is the same as the note." });
	pieces.forEach((piece, index) => {
		if (piece.kind === "same")
			renderUnchanged(text, piece.text, `piece ${index}`, index === 0, index === pieces.length - 1, callbacks);
		else changes.set(piece.id, renderChange(text, piece, total, callbacks));
	});
	return changes;
}

function renderChange(
	parent: HTMLElement,
	change: { id: number; removed: string; added: string },
	total: number,
	callbacks: SuggestionCallbacks,
): HTMLElement {
	const decision = callbacks.decisions.get(change.id);
	const what = describeChange(change);
	const span = parent.createSpan({
		cls: ["ccb-suggest-change", ...(decision ? [`is-${decision}`] : [])],
		attr: {
			tabindex: "-1",
			role: "group",
			"aria-label": `Change ${change.id} of ${total}: ${what}${decision ? `, ${decision}` : ""}`,
		},
	});
	if (decision === undefined) {
		renderSide(span, "del", "ccb-suggest-removed", change.removed);
		renderSide(span, "ins", "ccb-suggest-added", change.added);
		const controls = span.createSpan({ cls: "ccb-suggest-controls" });
		button(controls, "ccb-suggest-accept", "✓", `Accept: ${what}`, () => callbacks.decide(change.id, "accepted"));
		button(controls, "ccb-suggest-reject", "✕", `Reject: ${what}`, () => callbacks.decide(change.id, "rejected"));
		return span;
	}
	const accepted = decision === "accepted";
	renderSide(span, accepted ? "del" : "span", accepted ? "ccb-suggest-dropped" : "ccb-suggest-kept", change.removed);
	renderSide(span, accepted ? "span" : "del", accepted ? "ccb-suggest-kept" : "ccb-suggest-dropped", change.added);
	const status = span.createSpan({ cls: "ccb-suggest-status" });
	status.createSpan({ cls: "ccb-suggest-status-text", text: accepted ? "Accepted" : "Rejected" });
	button(status, "ccb-suggest-undo", "Undo", `Undo ${accepted ? "accepting" : "rejecting"}: ${what}`, () =>
		callbacks.decide(change.id, undefined),
	);
	return span;
}

/** One side of a change; a side of only spaces or line breaks gets a visible sign, or it could not be seen. */
function renderSide(parent: HTMLElement, tag: "del" | "ins" | "span", cls: string, text: string): void {
	if (text === "") return;
	const side = parent.createEl(tag, { cls });
	if (/^\s+$/.test(text))
		side.createSpan({
			cls: "ccb-suggest-sign",
			text: text.includes("\n") ? "¶" : "␣",
			attr: { "aria-hidden": "true" },
		});
	side.createSpan({ text });
}

/** How long a quoted change may run in a button's label before it is cut short. */
const MAX_QUOTE_CHARS = 40;

/** A change in words, for its buttons' labels: "'walk' for 'wander'", "deleting 'and'", "'a new line'". */
export function describeChange(change: { removed: string; added: string }): string {
	if (change.removed === "") return quote(change.added);
	if (change.added === "") return `deleting ${quote(change.removed)}`;
	return `${quote(change.added)} for ${quote(change.removed)}`;
}

function quote(text: string): string {
	const words = text.replace(/\s+/g, " ").trim();
	if (words === "") return text.includes("\n") ? "a line break" : "a space";
	const characters = [...words];
	if (characters.length <= MAX_QUOTE_CHARS) return `'${words}'`;
	const cut = characters.slice(0, MAX_QUOTE_CHARS - 1).join("");
	// Cut between words when a word ends in the second half.
	const space = cut.lastIndexOf(" ");
	return `'${space > cut.length / 2 ? cut.slice(0, space) : cut}…'`;
}

function renderUnchanged(
	parent: HTMLElement,
	text: string,
	key: string,
	first: boolean,
	last: boolean,
	callbacks: SuggestionCallbacks,
): void {
	const lines = text.split(/(?<=\n)/);
	const head = first ? 0 : CONTEXT_LINES;
	const tail = last ? 0 : CONTEXT_LINES;
	const hidden = lines.length - head - tail;
	if (hidden < 2 || callbacks.expanded.has(key)) {
		parent.createSpan({ text });
		return;
	}
	parent.createSpan({ text: lines.slice(0, head).join("") });
	button(parent, "ccb-suggest-fold", `${hidden} unchanged lines`, "Show the unchanged lines", () =>
		callbacks.expand(key),
	);
	parent.createSpan({ text: lines.slice(lines.length - tail).join("") });
}

/** The user's edits of the proposal over Claude's changes: Claude's marks, and "You" on the user's own. */
export function renderMarkedRuns(parent: HTMLElement, runs: readonly MarkedRun[]): void {
	const legend = parent.createDiv({ cls: "ccb-suggest-legend" });
	legend.createEl("ins", { cls: "ccb-suggest-added", text: "Claude" });
	legend.createEl("ins", { cls: "ccb-suggest-you", text: "You" });
	const text = parent.createDiv({ cls: "ccb-suggest" });
	for (const run of runs) {
		if (!run.claude && !run.you) {
			text.createSpan({ text: run.text });
			continue;
		}
		const removed = run.claude === "removed" || run.you === "removed";
		const cls = [...(run.claude ? [`ccb-suggest-${run.claude}`] : []), ...(run.you ? ["ccb-suggest-you"] : [])];
		if (run.you === "removed" && run.claude === undefined) cls.push("ccb-suggest-removed");
		text.createEl(removed ? "del" : "ins", { cls, text: run.text });
	}
}

function button(parent: HTMLElement, cls: string, text: string, label: string, onClick: () => void): HTMLElement {
	const element = parent.createEl("button", { cls, text });
	element.setAttribute("aria-label", label);
	element.addEventListener("click", onClick);
	return element;
}
