import type { ToolCallContext } from "../../protocol/mcp-types";
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
	const outcome = review
		? await review.propose({ ...write, signal: context.signal })
		: { kind: "accepted" as const, finalText: write.newText };
	if (outcome.kind === "rejected") return { kind: "rejected", reason: outcome.reason ?? REJECTED_BY_USER };
	if (outcome.kind === "failed") throw new VaultToolError(outcome.reason);
	if (context.signal.aborted)
		return { kind: "rejected", reason: "the call was cancelled before the change was written" };
	if (write.conflict !== undefined) {
		// Nothing can be written there. With a review the user saw why: answered as their Reject. Without one, as a
		// note that appeared there meanwhile (the answer the write below gives in that case).
		if (review) return { kind: "rejected", reason: REJECTED_BY_USER };
		throw createdMeanwhile(write.path, "written");
	}
	try {
		if (write.isNewNote) await env.vault.createNote(write.path, outcome.finalText, context);
		else await env.vault.writeText(write.path, outcome.finalText, write.oldText, context);
	} catch (error) {
		if (error instanceof NoteChangedError) {
			throw new VaultToolError(
				`${write.path} changed (outside the vault tools) before the change could be written; nothing was written. Read it again and redo the edit.`,
			);
		}
		if (isAlreadyExists(error)) throw createdMeanwhile(write.path, "written");
		throw error;
	}
	return { kind: "written", text: outcome.finalText, changedByUser: outcome.finalText !== write.newText };
}

/** Lines added and removed, for a one-line summary of a change. */
export function lineDelta(before: string, after: string): string {
	const count = (text: string): number => (text === "" ? 0 : text.split(/\r\n|\r|\n/).length);
	const delta = count(after) - count(before);
	return `${count(after)} lines (${delta >= 0 ? "+" : ""}${delta})`;
}
