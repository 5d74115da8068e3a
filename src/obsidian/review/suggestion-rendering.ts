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
 * each change with its own accept and reject. Text only (text nodes in spans): nothing of the unaccepted text is
 * rendered as Markdown, so no plugin code block runs and no remote image loads.
 */
export function renderSuggestions(
	parent: HTMLElement,
	pieces: readonly SuggestionPiece[],
	callbacks: SuggestionCallbacks,
): void {
	const text = parent.createDiv({ cls: "ccb-suggest" });
	if (!pieces.some((piece) => piece.kind === "change"))
		text.createDiv({ cls: "ccb-diff-empty", text: "No changes: the proposal is the same as the note." });
	pieces.forEach((piece, index) => {
		if (piece.kind === "same")
			renderUnchanged(text, piece.text, `piece ${index}`, index === 0, index === pieces.length - 1, callbacks);
		else renderChange(text, piece, callbacks);
	});
}

function renderChange(
	parent: HTMLElement,
	change: { id: number; removed: string; added: string },
	callbacks: SuggestionCallbacks,
): void {
	const decision = callbacks.decisions.get(change.id);
	const span = parent.createSpan({ cls: ["ccb-suggest-change", ...(decision ? [`is-${decision}`] : [])] });
	if (decision === "rejected") span.createSpan({ cls: "ccb-suggest-kept", text: change.removed });
	else {
		if (decision === undefined && change.removed !== "")
			span.createEl("del", { cls: "ccb-suggest-removed", text: change.removed });
		if (change.added !== "") span.createEl("ins", { cls: "ccb-suggest-added", text: change.added });
	}
	const controls = span.createSpan({ cls: "ccb-suggest-controls" });
	if (decision === undefined) {
		button(controls, "ccb-suggest-accept", "✓", "Accept this change", () =>
			callbacks.decide(change.id, "accepted"),
		);
		button(controls, "ccb-suggest-reject", "✕", "Reject this change", () =>
			callbacks.decide(change.id, "rejected"),
		);
	} else
		button(
			controls,
			"ccb-suggest-undo",
			"Undo",
			decision === "accepted" ? "Undo accepting this change" : "Undo rejecting this change",
			() => callbacks.decide(change.id, undefined),
		);
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
