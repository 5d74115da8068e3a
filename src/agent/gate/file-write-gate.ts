import type { EditReview } from "../../review/edit-proposal";
import type { ReviewNews, ToolUseDecision, ToolUseRequest } from "../agent-session";
import {
	applyCliEdits,
	cliView,
	editForAcceptedText,
	FILE_MISSING,
	newStringAsCliWritesIt,
	type CliEdit,
	type CliEditResult,
} from "./cli-edit";
import type { JournaledWrite, WriteJournal } from "../../journal/journal-writer";
import type { GateVault } from "./gate-ports";
import { applyNotebookEdit, type NotebookEditInput } from "./notebook-edit";

/** How a review names who proposes a write of the panel's Claude Code. */
export const PANEL_CLIENT = "Claude Code (agent panel)";
/** The reason Claude reads when the user rejects without saying why; their reason follows it when they give one. */
export const PANEL_REJECTED = "the user rejected the change in the review";
/** The reason given when the CLI withdrew its question before the user decided. */
export const PANEL_WITHDRAWN =
	"the question was withdrawn (the turn was interrupted) before the user decided; the review was closed";

/** Claude Code's own tools that write a file. */
export const FILE_WRITE_TOOLS: readonly string[] = ["Edit", "MultiEdit", "Write", "NotebookEdit"];

export interface FileWriteGateOptions {
	vault: GateVault;
	/** Where writes are reviewed: the bridge's pending reviews (the review view, or the headless `diff` commands). */
	review: EditReview;
	/** Where an accepted write is recorded; none: nothing is. */
	journal?: WriteJournal;
}

/** What a tool's input proposes for a file, computed as the CLI would from the file's text. */
interface Proposal {
	/** The file's text as the CLI edits it; undefined when there is no file. */
	current: string | undefined;
	/** The file holds CRLF line ends: the CLI edits it as LF and writes CRLF back. */
	crlf: boolean;
	result: CliEditResult;
}

/**
 * Every file write Claude Code's own tools attempt, reviewed before the file changes. The proposed text is computed
 * from the tool's input and the file on disk as the CLI computes it; the user's decision comes back as the input
 * the CLI then runs: unchanged, changed so that it writes exactly the accepted text, or refused with the reason.
 * Paths outside the vault and private notes are refused in the words of a missing file; a private note is never read.
 */
export class FileWriteGate {
	/** Writes allowed and not yet reported back by the CLI, by tool use id. */
	private readonly running = new Map<string, JournaledWrite>();
	private nextReview = 1;

	constructor(private readonly options: FileWriteGateOptions) {}

	async decide(
		request: ToolUseRequest,
		sessionId: string | undefined,
		signal?: AbortSignal,
		reviewing?: ReviewNews,
		/** The turn the write belongs to (its user message's id): recorded with it in the journal. */
		turn?: string,
	): Promise<ToolUseDecision> {
		const input = request.input;
		const given = request.toolName === "NotebookEdit" ? input.notebook_path : input.file_path;
		if (typeof given !== "string" || given === "") return deny(`${request.toolName} needs a file path.`);
		const located = await this.options.vault.locate(given);
		if (located.kind !== "visible") return deny(FILE_MISSING);
		const path = located.path;
		// Read once: the review shows this text, and the journal keeps these bytes as the write's pre-image.
		const file = await this.options.vault.readFile(path);
		const disk = file?.text;
		const proposal = propose(request, disk, path);
		if (!proposal.result.ok) return deny(proposal.result.message);
		// A CRLF file is shown as it is on disk and as the CLI will write it back (its LF text with CRLF line ends).
		const shown = (text: string): string => (proposal.crlf ? text.replaceAll("\n", "\r\n") : text);
		const toolUseId = request.toolUseId;
		if (toolUseId !== undefined) reviewing?.(toolUseId);
		const decision = await this.options.review.propose({
			note: path,
			before: disk === undefined ? undefined : shown(proposal.current ?? ""),
			after: shown(proposal.result.text),
			proposer: { surface: "panel", client: PANEL_CLIENT, tool: request.toolName },
			title: `Claude Code #${this.nextReview++}: ${request.toolName} ${path}`,
			hearsReason: true,
			signal: signal ?? new AbortController().signal,
		});
		if (toolUseId !== undefined && decision.kind !== "failed")
			reviewing?.(
				toolUseId,
				decision.kind === "accepted"
					? { kind: "accepted", edited: decision.edited }
					: decision.kind === "rejected"
						? { kind: "rejected", ...(decision.reason !== undefined && { reason: decision.reason }) }
						: { kind: "withdrawn" },
			);
		if (decision.kind === "rejected" || decision.kind === "withdrawn") {
			const reason =
				decision.kind === "withdrawn"
					? PANEL_WITHDRAWN
					: decision.reason === undefined
						? PANEL_REJECTED
						: `${PANEL_REJECTED}: ${decision.reason}`;
			return deny(`The user rejected this change to ${given}. Their reason: ${reason}. Nothing was written.`);
		}
		if (decision.kind === "failed") return deny(`This change to ${given} was not written: ${decision.reason}`);
		const accepted = proposal.crlf ? cliView(decision.text) : decision.text;
		const updatedInput =
			accepted === proposal.result.text ? { ...input } : inputForAcceptedText(request, proposal, accepted, path);
		if (typeof updatedInput === "string") return deny(updatedInput);
		await this.journal(request, path, given, { sessionId, turn }, file?.bytes);
		return { behavior: "allow", updatedInput };
	}

	/** The CLI reported a tool's result: an allowed write is recorded as it is on disk now. */
	async toolFinished(toolUseId: string, isError: boolean): Promise<void> {
		const write = this.running.get(toolUseId);
		if (!write) return;
		this.running.delete(toolUseId);
		await write.finished(!isError);
	}

	private async journal(
		request: ToolUseRequest,
		path: string,
		given: string,
		{ sessionId, turn }: { sessionId: string | undefined; turn: string | undefined },
		before: Uint8Array | undefined,
	): Promise<void> {
		const journal = this.options.journal;
		if (!journal) return;
		const write = await journal.approved({
			path,
			tool: request.toolName,
			summary: `${request.toolName} ${given}`,
			...(sessionId !== undefined ? { sessionId } : {}),
			...(turn !== undefined ? { turn } : {}),
			before,
		});
		// Without an id the result cannot be matched to this write: what the CLI is about to write is recorded now.
		if (request.toolUseId === undefined) await write.finished(true);
		else this.running.set(request.toolUseId, write);
	}
}

function propose(request: ToolUseRequest, disk: string | undefined, path: string): Proposal {
	const input = request.input;
	const crlf = disk?.includes("\r\n") ?? false;
	const current = disk === undefined ? undefined : cliView(disk);
	const asWritten = (edit: CliEdit): CliEdit => ({
		...edit,
		new_string: newStringAsCliWritesIt(path, edit.new_string),
	});
	switch (request.toolName) {
		case "Write":
			return {
				current: disk,
				crlf: false,
				result:
					typeof input.content === "string"
						? { ok: true, text: input.content }
						: { ok: false, message: "Write needs the file's content." },
			};
		case "NotebookEdit":
			return { current: disk, crlf: false, result: notebookEdit(disk, input) };
		case "MultiEdit":
			return {
				current,
				crlf,
				result:
					Array.isArray(input.edits) && input.edits.every(isEdit)
						? applyCliEdits(current, input.edits.map(asWritten))
						: { ok: false, message: "MultiEdit needs a list of edits." },
			};
		default:
			return {
				current,
				crlf,
				result: isEdit(input)
					? applyCliEdits(current, [asWritten(input)])
					: { ok: false, message: "Edit needs old_string and new_string." },
			};
	}
}

/**
 * The input that makes the CLI write exactly `accepted`: Write's content, or one Edit whose old_string is a span of
 * the current file. A string when no input can (the user kept the file as it was; a notebook edited in the review).
 */
function inputForAcceptedText(
	request: ToolUseRequest,
	proposal: Proposal,
	accepted: string,
	path: string,
): Record<string, unknown> | string {
	const input = request.input;
	if (request.toolName === "Write") return { ...input, content: accepted };
	if (request.toolName === "NotebookEdit") {
		return "The user changed the notebook in the review, and NotebookEdit cannot write their version. Nothing was written; ask the user how to go on.";
	}
	const edit = editForAcceptedText(proposal.current ?? "", accepted);
	if (edit === undefined || (proposal.current !== undefined && accepted === proposal.current)) {
		return "The user reviewed this change and kept the file as it was. Nothing was written.";
	}
	if (newStringAsCliWritesIt(path, edit.new_string) !== edit.new_string) {
		return `The user's version keeps white space at the end of lines, which ${request.toolName} removes in a file that is not Markdown, so it cannot be written exactly. Nothing was written; ask the user how to go on.`;
	}
	const single = { old_string: edit.old_string, new_string: edit.new_string, replace_all: false };
	return request.toolName === "MultiEdit"
		? { file_path: input.file_path, edits: [single] }
		: { file_path: input.file_path, ...single };
}

function notebookEdit(disk: string | undefined, input: Readonly<Record<string, unknown>>): CliEditResult {
	if (typeof input.new_source !== "string" && input.edit_mode !== "delete")
		return { ok: false, message: "NotebookEdit needs new_source." };
	const mode = input.edit_mode === "insert" || input.edit_mode === "delete" ? input.edit_mode : "replace";
	const edit: NotebookEditInput = {
		new_source: typeof input.new_source === "string" ? input.new_source : "",
		edit_mode: mode,
		...(typeof input.cell_id === "string" ? { cell_id: input.cell_id } : {}),
		...(input.cell_type === "code" || input.cell_type === "markdown" ? { cell_type: input.cell_type } : {}),
	};
	return applyNotebookEdit(disk, edit);
}

function isEdit(value: unknown): value is CliEdit {
	if (typeof value !== "object" || value === null) return false;
	const edit = value as Record<string, unknown>;
	return (
		typeof edit.old_string === "string" &&
		typeof edit.new_string === "string" &&
		(edit.replace_all === undefined || typeof edit.replace_all === "boolean")
	);
}

function deny(message: string): ToolUseDecision {
	return { behavior: "deny", message };
}
