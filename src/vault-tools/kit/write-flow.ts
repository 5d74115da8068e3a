import type { ToolCallContext } from "../../protocol/mcp-types";
import { ACCEPT_WITHOUT_REVIEW } from "../../review/edit-proposal";
import { REJECTED_BY_USER } from "./ports";
import type { VaultToolEnvironment } from "./tool-kit";
import { NoteChangedError } from "../../vault/notes/vault-index";
import { createdMeanwhile, isAlreadyExists, VaultToolError } from "../../vault/privacy/visible-vault";

export type WriteOutcome =
	{ kind: "written"; text: string; changedByUser: boolean } | { kind: "rejected"; reason: string };

/** Refuses when writes are off (e.g. the stdio server answers from the folder while Obsidian is closed). */
export function assertWritable(env: VaultToolEnvironment, tool: string): void {
	const reason = env.writesUnavailable();
	if (reason !== undefined) throw new VaultToolError(`${tool}: ${reason}`);
}

/** How a vault-tool review is named and who it says proposes. */
const VAULT_TOOLS_CLIENT = "Claude's vault tools";
let nextReview = 1;

/**
 * Shows the write for review (unless review is off) and writes what the user accepted, only if the note is still
 * what it was when the change was computed. A rejection, a cancelled call, or a note changed meanwhile writes
 * nothing. Callers hold the note's lock.
 */
export async function reviewAndWrite(
	env: VaultToolEnvironment,
	write: { path: string; oldText: string; newText: string; isNewNote: boolean; tool: string; conflict?: string },
	context: ToolCallContext,
): Promise<WriteOutcome> {
	const review = env.review();
	const decision = await (review ?? ACCEPT_WITHOUT_REVIEW).propose({
		note: write.path,
		// The text the tool read and computed the change from: shown as the original, and the write's base below.
		before: write.isNewNote ? undefined : write.oldText,
		after: write.newText,
		// Which transport carried the call (HTTP, the stdio relay) is not known here, and their session ids name no Claude session.
		proposer: { surface: "vault-tools", client: VAULT_TOOLS_CLIENT, tool: write.tool },
		// Unique per write, so one review never replaces another.
		title: `Vault tools #${nextReview++}: ${write.tool} ${write.path}`,
		...(write.conflict !== undefined ? { cannotApply: write.conflict } : {}),
		hearsReason: true,
		signal: context.signal,
	});
	if (decision.kind === "rejected")
		return {
			kind: "rejected",
			reason: decision.reason === undefined ? REJECTED_BY_USER : `${REJECTED_BY_USER}: ${decision.reason}`,
		};
	if (decision.kind === "withdrawn")
		return {
			kind: "rejected",
			reason: "the call was cancelled (or its client went away) before the user decided; the review was withdrawn",
		};
	if (decision.kind === "failed") throw new VaultToolError(decision.reason);
	if (context.signal.aborted)
		return { kind: "rejected", reason: "the call was cancelled before the change was written" };
	if (write.conflict !== undefined) {
		// Nothing can be written there. With a review the user saw why: answered as their Reject. Without one, as a
		// note that appeared there meanwhile (the answer the write below gives in that case).
		if (review) return { kind: "rejected", reason: REJECTED_BY_USER };
		throw createdMeanwhile(write.path, "written");
	}
	try {
		if (write.isNewNote) await env.vault.createNote(write.path, decision.text, context);
		else await env.vault.writeText(write.path, decision.text, write.oldText, context);
	} catch (error) {
		if (error instanceof NoteChangedError) {
			throw new VaultToolError(
				`${write.path} changed (outside the vault tools) before the change could be written; nothing was written. Read it again and redo the edit.`,
			);
		}
		if (isAlreadyExists(error)) throw createdMeanwhile(write.path, "written");
		throw error;
	}
	return { kind: "written", text: decision.text, changedByUser: decision.edited };
}

/** Lines added and removed, for a one-line summary of a change. */
export function lineDelta(before: string, after: string): string {
	const count = (text: string): number => (text === "" ? 0 : text.split(/\r\n|\r|\n/).length);
	const delta = count(after) - count(before);
	return `${count(after)} lines (${delta >= 0 ? "+" : ""}${delta})`;
}
