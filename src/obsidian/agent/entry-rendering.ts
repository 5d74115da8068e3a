import type { ShellCommandFacts, ToolPermissionAnswer } from "../../agent/agent-session";
import { toolSummary, usageLine, type TranscriptEntry } from "../../agent/transcript/panel-transcript";
import { renderReply, type ReplyLinks } from "./reply-rendering";

/** What a row needs from its tab: links, the tool cards' open state, and the way to answer a permission question. */
export interface EntryContext extends ReplyLinks {
	isExpanded(id: number): boolean;
	toggleExpanded(id: number): void;
	/** The answer given in this panel, while the session has not settled the question yet. */
	answered(requestId: string): ToolPermissionAnswer | undefined;
	answer(requestId: string, answer: ToolPermissionAnswer): void;
}

const TOOL_STATUS: Record<"running" | "done" | "error", string> = { running: "Running", done: "Done", error: "Failed" };

/** Draws one transcript row into `element` (which the list owns and may redraw). */
export function drawEntry(element: HTMLElement, entry: TranscriptEntry, context: EntryContext): void {
	switch (entry.kind) {
		case "user": {
			// Drawn into a box of its own: the row element stays across redraws, its look must not.
			const box = element.createDiv({
				cls: ["ccb-agent-user", ...(entry.state === "queued" ? ["is-queued"] : [])],
			});
			if (entry.state === "queued")
				box.createDiv({ cls: "ccb-agent-queued", text: "Queued: sent when Claude finishes" });
			box.createDiv({ cls: "ccb-agent-user-text", text: entry.text });
			if (entry.attachments.length > 0) {
				const attached = box.createDiv({ cls: "ccb-agent-attachments" });
				for (const attachment of entry.attachments) {
					const lines = attachment.lines ? ` (lines ${attachment.lines.from}–${attachment.lines.to})` : "";
					attached.createSpan({ cls: "ccb-agent-attachment", text: `${attachment.path}${lines}` });
				}
			}
			return;
		}
		case "assistant":
			renderReply(
				element.createDiv({ cls: ["ccb-agent-reply", ...(entry.streaming ? ["is-streaming"] : [])] }),
				entry.text,
				context,
			);
			return;
		case "tool":
			drawToolCard(element, entry, context);
			return;
		case "permission":
			drawPermissionCard(element, entry, context);
			return;
		case "usage":
			element.createDiv({
				cls: ["ccb-agent-usage", `ccb-agent-outcome-${entry.outcome}`],
				text:
					entry.error !== undefined
						? `${usageLine(entry.usage, entry.outcome)}: ${entry.error}`
						: usageLine(entry.usage, entry.outcome),
			});
			return;
		case "notice":
			element.createDiv({ cls: ["ccb-agent-notice", `ccb-agent-notice-${entry.level}`], text: entry.text });
			return;
	}
}

function drawToolCard(
	element: HTMLElement,
	entry: Extract<TranscriptEntry, { kind: "tool" }>,
	context: EntryContext,
): void {
	const card = element.createDiv({ cls: ["ccb-agent-tool", `ccb-agent-tool-${entry.status}`] });
	const header = card.createDiv({ cls: "ccb-agent-tool-header" });
	header.setAttribute("role", "button");
	header.setAttribute("aria-expanded", String(context.isExpanded(entry.id)));
	header.createSpan({ cls: "ccb-agent-tool-status", text: TOOL_STATUS[entry.status] });
	header.createSpan({ cls: "ccb-agent-tool-name", text: entry.toolName });
	header.createSpan({ cls: "ccb-agent-tool-summary", text: toolSummary(entry.input) });
	header.addEventListener("click", () => context.toggleExpanded(entry.id));
	if (!context.isExpanded(entry.id)) return;
	card.createEl("pre", { cls: "ccb-agent-tool-input", text: JSON.stringify(entry.input, null, 2) });
	if (entry.result !== undefined) card.createEl("pre", { cls: "ccb-agent-tool-result", text: entry.result });
}

function drawPermissionCard(
	element: HTMLElement,
	entry: Extract<TranscriptEntry, { kind: "permission" }>,
	context: EntryContext,
): void {
	const { request } = entry;
	const card = element.createDiv({ cls: ["ccb-agent-permission", `ccb-agent-permission-${entry.status}`] });
	if (request.shell) drawShellQuestion(card, request.shell);
	else {
		card.createDiv({ cls: "ccb-agent-permission-question", text: `Claude wants to use ${request.toolName}` });
		card.createDiv({ cls: "ccb-agent-permission-summary", text: request.summary });
	}
	if (entry.status !== "pending") {
		card.createDiv({
			cls: "ccb-agent-permission-outcome",
			text: entry.status === "allowed" ? "Allowed" : "Denied",
		});
		return;
	}
	const given = context.answered(request.id);
	if (given) {
		card.createDiv({
			cls: "ccb-agent-permission-outcome",
			text: given.kind === "allow" ? "Allowing…" : "Denying…",
		});
		return;
	}
	const buttons = card.createDiv({ cls: "ccb-agent-permission-buttons" });
	const choice = (text: string, cls: string, answer: () => ToolPermissionAnswer): void => {
		buttons
			.createEl("button", { cls: ["ccb-agent-permission-choice", cls], text })
			.addEventListener("click", () => context.answer(request.id, answer()));
	};
	const offered = request.scopes ?? ["once", "session", "always"];
	choice("Allow once", "ccb-agent-allow-once", () => ({ kind: "allow", scope: "once" }));
	if (offered.includes("session"))
		choice("Allow for this session", "ccb-agent-allow-session", () => ({ kind: "allow", scope: "session" }));
	if (offered.includes("always"))
		choice("Always allow", "ccb-agent-allow-always", () => ({ kind: "allow", scope: "always" }));
	const reason = card.createEl("input", {
		cls: "ccb-agent-deny-reason",
		attr: { type: "text", placeholder: "Reason for Claude (optional)", "aria-label": "Reason for denying" },
	});
	choice("Deny", "ccb-agent-deny", () => {
		const text = reason.value.trim();
		return text === "" ? { kind: "deny" } : { kind: "deny", reason: text };
	});
}

/** A shell command in words: what Claude says it does, the command itself, where it runs, and what can reach it. */
function drawShellQuestion(card: HTMLElement, shell: ShellCommandFacts): void {
	card.createDiv({
		cls: "ccb-agent-permission-question",
		text:
			shell.description === undefined
				? "Claude wants to run a shell command"
				: `Claude wants to run a shell command: ${shell.description}`,
	});
	card.createEl("pre", { cls: "ccb-agent-permission-command", text: shell.command });
	card.createDiv({
		cls: "ccb-agent-permission-folder",
		text: `In ${shell.folder === "" ? "the vault's top folder" : shell.folder}`,
	});
	const sandbox = shell.sandboxed
		? shell.tagPrivateReadable === true
			? "Sandbox on: it cannot read private folders or the vault's settings folder, but it can read notes private by a tag, so it can only be allowed once."
			: "Sandbox on: it cannot read private folders, private notes or the vault's settings folder."
		: `Sandbox off${shell.unsandboxedBecause === undefined ? "" : ` (${shell.unsandboxedBecause})`}: it can read and change any file you can, private notes included, so it can only be allowed once.`;
	card.createDiv({
		cls: ["ccb-agent-permission-sandbox", shell.sandboxed ? "ccb-agent-sandbox-on" : "ccb-agent-sandbox-off"],
		text: sandbox,
	});
}
