import type { ToolPermissionAnswer, ToolPermissionRequest } from "../../agent/agent-session";
import { renderReply, type ReplyLinks } from "./reply-rendering";

/** The user's work on one plan card, kept by the tab across redraws (the list redraws rows as they scroll by). */
export interface PlanEdit {
	/** The plan as the user edited it; undefined until they open the editor. */
	text?: string;
	/** The edit box is open (else the plan shows as prose). */
	editing: boolean;
	/** The edit box takes the focus when next drawn (it was just opened). */
	focus: boolean;
}

/** What a plan card needs from its tab. */
export interface PlanCardContext extends ReplyLinks {
	planEdit(requestId: string): PlanEdit;
	/** Draws this request's card again (the editor opened or closed). */
	redrawPermission(requestId: string): void;
	answered(requestId: string): ToolPermissionAnswer | undefined;
	answer(requestId: string, answer: ToolPermissionAnswer): void;
	isExpanded(id: number): boolean;
	toggleExpanded(id: number): void;
}

/** The plan the user approves when they answer now: their edited text, when they changed it. */
export function approvedPlan(request: ToolPermissionRequest, edit: PlanEdit): string | undefined {
	return edit.text !== undefined && edit.text !== request.plan ? edit.text : undefined;
}

/**
 * Claude asks to leave plan mode: the plan as readable prose (the replies' safe Markdown: text nodes only), an edit
 * box with its text to change before approving, "Approve plan" (the text as it stands then is what Claude follows)
 * and "Keep planning" with an optional note for Claude. Mod+Enter in the edit box approves. Once answered, one line
 * says how, and the plan stays readable behind "Show plan".
 */
export function drawPlanCard(
	element: HTMLElement,
	entry: { id: number; request: ToolPermissionRequest; status: "pending" | "allowed" | "denied" },
	context: PlanCardContext,
): void {
	const { request } = entry;
	const edit = context.planEdit(request.id);
	const given = context.answered(request.id);
	const card = element.createDiv({
		cls: ["ccb-agent-permission", "ccb-agent-plan-card", `ccb-agent-permission-${entry.status}`],
	});
	if (entry.status !== "pending" || given) {
		drawAnswered(card, entry, edit, given, context);
		return;
	}
	card.createDiv({ cls: "ccb-agent-permission-status", text: "Waiting for your answer" });
	card.createDiv({
		cls: "ccb-agent-permission-question",
		text:
			request.plan === undefined
				? "Claude asks to stop planning and start working."
				: "Claude's plan is ready. Read it, change it if you like, then approve it or ask Claude to keep planning.",
	});
	const approve = (): void => {
		const plan = approvedPlan(request, edit);
		context.answer(request.id, { kind: "allow", scope: "once", ...(plan !== undefined && { plan }) });
	};
	if (request.plan !== undefined) {
		const plan = request.plan;
		if (edit.editing) {
			const editor = card.createEl("textarea", {
				cls: "ccb-agent-plan-editor",
				attr: { rows: 12, "aria-label": "The plan, to change before approving it" },
			});
			editor.value = edit.text ?? plan;
			editor.addEventListener("input", () => (edit.text = editor.value));
			editor.addEventListener("keydown", (event: KeyboardEvent) => {
				if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) {
					event.preventDefault();
					approve();
				}
			});
			if (edit.focus) {
				edit.focus = false;
				editor.focus();
			}
		} else renderReply(card.createDiv({ cls: "ccb-agent-plan" }), edit.text ?? plan, context);
	}
	const buttons = card.createDiv({ cls: "ccb-agent-permission-buttons" });
	const button = (text: string, cls: string[], onClick: () => void): HTMLButtonElement => {
		const created = buttons.createEl("button", { cls: ["ccb-agent-permission-choice", ...cls], text });
		created.addEventListener("click", onClick);
		return created;
	};
	button("Approve plan", ["mod-cta", "ccb-agent-approve-plan"], approve);
	if (request.plan !== undefined)
		button(edit.editing ? "Preview plan" : "Edit plan", ["ccb-agent-edit-plan"], () => {
			edit.editing = !edit.editing;
			edit.focus = edit.editing;
			context.redrawPermission(request.id);
		}).setAttribute("aria-pressed", String(edit.editing));
	const note = buttons.createEl("input", {
		cls: "ccb-agent-deny-reason",
		attr: { type: "text", placeholder: "What should change (optional)", "aria-label": "Note for Claude" },
	});
	button("Keep planning", ["ccb-agent-keep-planning"], () => {
		const text = note.value.trim();
		context.answer(request.id, text === "" ? { kind: "deny" } : { kind: "deny", reason: text });
	});
}

function drawAnswered(
	card: HTMLElement,
	entry: { id: number; request: ToolPermissionRequest; status: "pending" | "allowed" | "denied" },
	edit: PlanEdit,
	given: ToolPermissionAnswer | undefined,
	context: PlanCardContext,
): void {
	card.addClass("is-collapsed");
	const { request } = entry;
	const approved = entry.status === "allowed" || (entry.status === "pending" && given?.kind === "allow");
	const edited = approved && approvedPlan(request, edit) !== undefined;
	const words =
		entry.status === "pending"
			? approved
				? "Approving the plan…"
				: "Asking Claude to keep planning…"
			: approved
				? edited
					? "Plan approved with your changes"
					: "Plan approved"
				: "You asked Claude to keep planning";
	const line = card.createDiv({ cls: "ccb-agent-permission-outcome", text: words });
	if (request.plan === undefined) return;
	const expanded = context.isExpanded(entry.id);
	line.createEl("button", {
		cls: ["clickable-icon", "ccb-agent-tool-toggle"],
		text: expanded ? "Hide plan" : "Show plan",
		attr: { "aria-expanded": String(expanded) },
	}).addEventListener("click", () => context.toggleExpanded(entry.id));
	if (expanded)
		renderReply(card.createDiv({ cls: "ccb-agent-plan" }), edited ? (edit.text ?? "") : request.plan, context);
}
