/**
 * What the panel hands Claude of a note or folder the user attached: read by the panel itself, through the
 * vault's privacy boundary, never by the CLI from an `@` mention (CLI 2.1.330 reads a mentioned file or folder
 * without asking anyone, and a quote in a name can split a quoted mention).
 */
import type { MessageAttachment } from "../agent-session";
import type { ImageRefusal } from "./image-content";

/** An attachment the privacy boundary allowed, as read at send time. */
export type ResolvedAttachment =
	/** A text note: its whole text (the selection's lines are cut from it when the prompt is built). */
	| { kind: "note"; path: string; lines?: { from: number; to: number }; text: string }
	/** A folder: the vault paths of the notes in it that Claude may see (private ones, and links into private places, left out). */
	| { kind: "folder"; path: string; notes: readonly string[]; complete: boolean }
	/** A file that is not text (an image, a PDF) or too large to hand over: named only; Claude reads it with its own tools, through the gate. */
	| { kind: "file"; path: string; reason: "not-text" | "too-large" };

/** An image of the vault as read at send time: its bytes, or why it may not be handed over. */
export type ResolvedImage =
	{ kind: "image"; bytes: Uint8Array } | { kind: "refused"; refusal: ImageRefusal; size?: number };

/** Reads an attachment through the privacy boundary; undefined when it may not be handed over (private, missing, outside). */
export interface AttachmentResolver {
	resolve(attachment: MessageAttachment): Promise<ResolvedAttachment | undefined>;
	/** Reads an image file of the vault (a vault path) through the same boundary; absent: no image is handed over. */
	resolveImage?(path: string): Promise<ResolvedImage>;
}
