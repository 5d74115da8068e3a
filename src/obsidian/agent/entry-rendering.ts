import type { ShellCommandFacts, ToolPermissionAnswer } from "../../agent/agent-session";
import { usageLine, type TranscriptEntry } from "../../agent/transcript/panel-transcript";
import {
	notDoneWords,
	noteName,
	toolErrorWords,
	toolWords,
	type ToVaultPath,
	type ToolWords,
} from "../../agent/transcript/tool-words";
import { drawPlanCard, type PlanCardContext } from "./plan-card";
import { renderReply } from "./reply-rendering";

/** What a row needs from its tab: links, the tool cards' open state, and the way to answer a permission question. */
export interface EntryContext extends PlanCardContext {
	isExpanded(id: number): boolean;
	toggleExpanded(id: number): void;
	/** The answer given in this panel, while the session has not settled the question yet. */
	answered(requestId: string): ToolPermissionAnswer | undefined;
	answer(requestId: string, answer: ToolPermissionAnswer): void;
	/** A path the CLI named, as a vault path the panel may link to (undefined outside the vault). */
	toVaultPath: ToVaultPath;
	/** Brings the review of an edit waiting for the user to the front. */
	openReview(toolUseId: string): void;
	/** Takes the conversation back to before this message of the user's (row id), after asking; absent: not offered. */
	rewind?(entryId: number): void;
	/** Starts a new tab with the conversation up to Claude's reply to this message (row id); absent: not offered. */
	fork?(entryId: number): void;
}

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
			const images = entry.images ?? [];
			if (entry.attachments.length > 0 || images.length > 0) {
				const attached = box.createDiv({ cls: "ccb-agent-attachments" });
				for (const attachment of entry.attachments) {
					const lines = attachment.lines ? ` (lines ${attachment.lines.from}–${attachment.lines.to})` : "";
					attached.createSpan({ cls: "ccb-agent-attachment", text: `${attachment.path}${lines}` });
				}
				for (const name of images)
					attached.createSpan({
						cls: ["ccb-agent-attachment", "ccb-agent-attachment-image"],
						text: `Image: ${name}`,
					});
			}
			for (const reason of entry.notSent ?? [])
				box.createDiv({ cls: "ccb-agent-not-sent", text: `Not sent: ${reason}` });
			if (entry.messageId !== undefined) drawTurnActions(box, entry.id, context);
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
			if (entry.request.toolName === "ExitPlanMode") drawPlanCard(element, entry, context);
			else drawPermissionCard(element, entry, context);
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

/** A message's own actions: go back to before it, or go on from it in a new tab. */
function drawTurnActions(box: HTMLElement, entryId: number, context: EntryContext): void {
	if (context.rewind === undefined && context.fork === undefined) return;
	const actions = box.createDiv({ cls: "ccb-agent-turn-actions" });
	if (context.rewind !== undefined)
		actions
			.createEl("button", {
				cls: ["clickable-icon", "ccb-agent-rewind"],
				text: "Rewind here",
				attr: {
					"aria-label":
						"Rewind here: go back to before this message and restore the notes Claude changed since",
				},
			})
			.addEventListener("click", () => context.rewind?.(entryId));
	if (context.fork !== undefined)
		actions
			.createEl("button", {
				cls: ["clickable-icon", "ccb-agent-fork"],
				text: "Fork from here",
				attr: {
					"aria-label":
						"Fork from here: a new tab with the conversation up to Claude's reply to this message",
				},
			})
			.addEventListener("click", () => context.fork?.(entryId));
}

function drawToolCard(
	element: HTMLElement,
	entry: Extract<TranscriptEntry, { kind: "tool" }>,
	context: EntryContext,
): void {
	const reviewing = entry.review?.state === "waiting";
	const card = element.createDiv({
		cls: [
			"ccb-agent-tool",
			`ccb-agent-tool-${reviewing ? "reviewing" : entry.asking === true ? "asking" : entry.status}`,
		],
	});
	const header = card.createDiv({ cls: "ccb-agent-tool-header" });
	const status = toolStatus(entry);
	if (status !== undefined) header.createSpan({ cls: "ccb-agent-tool-status", text: status });
	const words = toolWords(entry.toolName, entry.input, context.toVaultPath, entry.result);
	drawToolWords(
		header.createSpan({ cls: "ccb-agent-tool-summary" }),
		entry.status === "done" ? words : notDoneWords(words),
		context,
	);
	if (reviewing) {
		header
			.createEl("button", { cls: ["mod-cta", "ccb-agent-open-review"], text: "Open review" })
			.addEventListener("click", () => context.openReview(entry.toolUseId));
	}
	const expanded = context.isExpanded(entry.id);
	header
		.createEl("button", {
			cls: ["clickable-icon", "ccb-agent-tool-toggle"],
			text: expanded ? "Hide details" : "Details",
			attr: { "aria-expanded": String(expanded) },
		})
		.addEventListener("click", () => context.toggleExpanded(entry.id));
	if (entry.review?.state === "decided") card.createDiv({ cls: "ccb-agent-tool-decision", text: entry.review.words });
	else if (entry.status === "error" && entry.result !== undefined)
		card.createDiv({ cls: "ccb-agent-tool-problem", text: toolErrorWords(entry.result) });
	if (!expanded) return;
	card.createDiv({ cls: "ccb-agent-tool-name", text: entry.toolName });
	card.createEl("pre", { cls: "ccb-agent-tool-input", text: JSON.stringify(entry.input, null, 2) });
	if (entry.result !== undefined) card.createEl("pre", { cls: "ccb-agent-tool-result", text: entry.result });
}

/** Words for where the call stands; none once it is done (the sentence says what it did). */
function toolStatus(entry: Extract<TranscriptEntry, { kind: "tool" }>): string | undefined {
	if (entry.review?.state === "waiting") return "Waiting for your review";
	if (entry.asking === true) return "Waiting for your answer";
	if (entry.status === "running") return "Running";
	if (entry.status === "error" && entry.review === undefined) return "Did not run";
	return undefined;
}

/** The sentence, with the note it names as a link that opens it. */
function drawToolWords(parent: HTMLElement, words: ToolWords, context: EntryContext): void {
	parent.appendText(words.verb);
	if (words.note !== undefined) {
		parent.appendText(" ");
		const link = parent.createEl("a", {
			cls: ["internal-link", "ccb-agent-tool-note"],
			text: noteName(words.note),
			attr: { href: words.note, "aria-label": `Open ${words.note}` },
		});
		link.addEventListener("click", (event) => {
			event.preventDefault();
			context.openInternal(words.note ?? "");
		});
	}
	if (words.rest !== undefined && words.rest !== "") parent.appendText(` ${words.rest}`);
	if (words.outcome !== undefined) parent.createSpan({ cls: "ccb-agent-tool-outcome", text: ` · ${words.outcome}` });
}

function drawPermissionCard(
	element: HTMLElement,
	entry: Extract<TranscriptEntry, { kind: "permission" }>,
	context: EntryContext,
): void {
	const { request } = entry;
	const given = context.answered(request.id);
	const settled = entry.status !== "pending";
	const card = element.createDiv({
		cls: ["ccb-agent-permission", `ccb-agent-permission-${entry.status}`, ...(settled ? ["is-collapsed"] : [])],
	});
	const question = permissionQuestion(request);
	if (settled || given) {
		// Answered: one line, so the conversation reads on.
		const outcome = settled
			? entry.status === "allowed"
				? "Allowed"
				: "Denied"
			: given?.kind === "allow"
				? "Allowing…"
				: "Denying…";
		card.createDiv({ cls: "ccb-agent-permission-outcome", text: `${outcome}: ${question}` });
		return;
	}
	card.createDiv({ cls: "ccb-agent-permission-status", text: "Waiting for your answer" });
	if (request.shell) drawShellQuestion(card, request.shell);
	else {
		card.createDiv({ cls: "ccb-agent-permission-question", text: question });
		if (request.summary !== "") card.createDiv({ cls: "ccb-agent-permission-summary", text: request.summary });
	}
	const buttons = card.createDiv({ cls: "ccb-agent-permission-buttons" });
	const choice = (text: string, cls: string[], answer: () => ToolPermissionAnswer): void => {
		buttons
			.createEl("button", { cls: ["ccb-agent-permission-choice", ...cls], text })
			.addEventListener("click", () => context.answer(request.id, answer()));
	};
	const offered = request.scopes ?? ["once", "session", "always"];
	choice("Allow once", ["mod-cta", "ccb-agent-allow-once"], () => ({ kind: "allow", scope: "once" }));
	if (offered.includes("session"))
		choice("Allow for this session", ["ccb-agent-allow-session"], () => ({ kind: "allow", scope: "session" }));
	if (offered.includes("always"))
		choice("Always allow", ["ccb-agent-allow-always"], () => ({ kind: "allow", scope: "always" }));
	const reason = card.createEl("input", {
		cls: "ccb-agent-deny-reason",
		attr: { type: "text", placeholder: "Reason for Claude (optional)", "aria-label": "Reason for denying" },
	});
	choice("Deny", ["ccb-agent-deny"], () => {
		const text = reason.value.trim();
		return text === "" ? { kind: "deny" } : { kind: "deny", reason: text };
	});
}

/** The question in words: a shell command by what Claude says it does, another tool by what it would do. */
function permissionQuestion(request: Extract<TranscriptEntry, { kind: "permission" }>["request"]): string {
	if (request.shell)
		return request.shell.description === undefined
			? "Run a shell command"
			: `Run a shell command: ${request.shell.description}`;
	return `Claude wants to use ${request.toolName.replace(/^mcp__obsidian__/, "the vault tool ")}`;
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
