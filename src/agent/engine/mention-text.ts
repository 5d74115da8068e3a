/**
 * What the CLI receives of a user's message. The CLI (2.1.330) expands `@path` and `@"path"` in a user message's
 * text by reading the file or listing the folder itself, with no tool call and no question, so no such mention
 * may reach it: every `@` it would take for a mention is neutralised, and what the user attached goes as
 * `document` blocks the panel filled from the privacy boundary (the CLI passes those through unread and
 * unexpanded, and their text reaches the model byte for byte, so an Edit can quote it).
 */
import type { PromptBlock, PromptContent, UserMessage } from "../agent-session";
import type { ResolvedAttachment } from "./attachment-resolver";

/** The most characters of one note handed over; past that, whole lines up to it, and Claude is told to read the rest. */
export const MAX_ATTACHED_CHARS = 100_000;

/** U+2060 WORD JOINER: invisible, and not whitespace to the CLI's pattern, so an `@` after it starts no mention. */
const MENTION_BREAK = "\u2060";

/**
 * Where the CLI sees a mention: an `@` at the start or after whitespace (JavaScript's `\s`) or the CJK
 * punctuation it also counts as a separator (。、？！). Measured with CLI 2.1.330.
 */
const MENTION_START = /(^|[\s\u3002\u3001\uFF1F\uFF01])@/gu;

/** The text with every `@` the CLI would expand made inert (the model still reads the `@`). */
export function neutraliseMentions(text: string): string {
	return text.replace(MENTION_START, `$1${MENTION_BREAK}@`);
}

/** The text as the user wrote it (the breaks taken out again), for the panel's own history. */
export function withoutMentionBreaks(text: string): string {
	return text.split(`${MENTION_BREAK}@`).join("@");
}

/** The content the CLI receives: the one the panel built with its attachments, or the typed text alone (never an attachment the panel did not read). */
export function promptText(message: UserMessage): PromptContent {
	return message.prompt ?? neutraliseMentions(message.text);
}

/**
 * The images (before the words, as the Messages API advises), the typed text, then one document per attachment; the
 * typed text alone when nothing is attached. An empty text makes no block (the API refuses an empty one).
 */
export function promptContent(
	text: string,
	attachments: readonly ResolvedAttachment[],
	images: readonly PromptBlock[] = [],
): PromptContent {
	const typed = neutraliseMentions(text);
	if (attachments.length === 0 && images.length === 0) return typed;
	return [
		...images,
		...(typed.trim() === "" ? [] : [{ type: "text" as const, text: typed }]),
		...attachments.map(attachmentBlock),
	];
}

function attachmentBlock(attachment: ResolvedAttachment): PromptBlock {
	switch (attachment.kind) {
		case "note":
			return noteBlock(attachment);
		case "folder":
			return document(
				attachment.path,
				`A folder the user attached from the vault (${quoted(attachment.path)}). This is the panel's list of the notes in it you may read, one vault path a line${attachment.complete ? "" : "; there are more than these"}.`,
				attachment.notes.length === 0
					? "(The folder holds no notes you may read.)"
					: attachment.notes.join("\n"),
			);
		case "file":
			return document(
				attachment.path,
				`A file the user attached from the vault (${quoted(attachment.path)}). It is ${attachment.reason === "not-text" ? "not text" : "too large to hand over here"}; read it with your own tools if you need it. This line is the panel's, not the file's.`,
				"(Not attached.)",
			);
	}
}

function noteBlock(note: Extract<ResolvedAttachment, { kind: "note" }>): PromptBlock {
	const all = note.text.split("\n");
	const from = note.lines === undefined ? 1 : Math.max(1, Math.min(note.lines.from, all.length));
	const to = note.lines === undefined ? all.length : Math.max(from, Math.min(note.lines.to, all.length));
	const wanted = note.lines === undefined ? all : all.slice(from - 1, to);
	const shown = linesWithin(wanted, MAX_ATTACHED_CHARS);
	const part = note.lines === undefined ? "the whole note" : `lines ${from} to ${to} of ${all.length}`;
	const cut =
		shown.length < wanted.length
			? ` Only its first ${shown.length} lines fit here: read the rest with the Read tool.`
			: "";
	const text = shown.join("\n");
	if (text.trim() === "")
		return document(
			note.path,
			`A note the user attached from the vault (${quoted(note.path)}), ${part}. It is empty; this line is the panel's, not the note's.`,
			"(Empty.)",
		);
	return document(
		note.path,
		`A note the user attached from the vault (${quoted(note.path)}), ${part}, exactly as it is on disk.${cut}`,
		text,
	);
}

/** As many whole lines as fit in `limit` characters (at least the start of the first). */
function linesWithin(lines: readonly string[], limit: number): string[] {
	const kept: string[] = [];
	let size = 0;
	for (const line of lines) {
		if (size + line.length + 1 > limit) {
			if (kept.length === 0) kept.push(line.slice(0, limit));
			break;
		}
		kept.push(line);
		size += line.length + 1;
	}
	return kept;
}

/** The title is the exact vault path (the CLI does not expand a document's fields; the context is neutralised all the same). */
function document(title: string, context: string, data: string): PromptBlock {
	return {
		type: "document",
		title,
		context: neutraliseMentions(context),
		source: { type: "text", media_type: "text/plain", data },
	};
}

/** A vault path inside a sentence: JSON-quoted, so a quote or line break in a name cannot end the sentence's quote. */
function quoted(path: string): string {
	return JSON.stringify(path);
}
