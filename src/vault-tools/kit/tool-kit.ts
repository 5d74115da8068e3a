import { createHash } from "node:crypto";
import type { JsonObject } from "../../protocol/json-rpc";
import {
	textResult,
	toolError,
	type ToolAnnotations,
	type ToolCallContext,
	type ToolDefinition,
	type ToolResult,
} from "../../protocol/mcp-types";
import { ToolArgumentError } from "../../protocol/tool-arguments";
import { KeyedMutex } from "../../shared/keyed-mutex";
import type { EditReview } from "../../review/edit-proposal";
import type { ActiveNoteSource } from "./ports";
import type { RegexScanner } from "../regex/regex-scanner";
import { TargetError } from "../text/edit-targets";
import { VaultToolError, type VisibleVault } from "../../vault/privacy/visible-vault";
import type { YamlCodec } from "../../shared/yaml-codec";
import type { FrontmatterNeed } from "../../vault/notes/notes";

export const DEFAULT_LIST_LIMIT = 20;
export const MAX_LIST_LIMIT = 100;
export const DEFAULT_TEXT_CAP = 24_000;

/** What every vault tool works with. */
export interface VaultToolEnvironment {
	vault: VisibleVault;
	/** The YAML of the notes' frontmatter. */
	yaml: YamlCodec;
	/** Serialises writes per note. */
	writes: KeyedMutex;
	/** The review to use for this write; `undefined` = apply directly (review off). */
	review: () => EditReview | undefined;
	/** When it returns a reason, write tools answer it as an error and change nothing (e.g. Obsidian not running). */
	writesUnavailable: () => string | undefined;
	activeNote?: ActiveNoteSource;
	textCap: number;
	/** Where regex search runs: worker threads with a hard stop. */
	regex: RegexScanner;
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

export interface VaultToolSpec {
	name: string;
	description: string;
	properties: JsonObject;
	required?: string[];
	annotations: ToolAnnotations;
	/**
	 * What of the notes' frontmatter the call reads (`Notes.refresh`), from its arguments as given (not checked
	 * yet); every note's when absent.
	 */
	frontmatter?(args: JsonObject): FrontmatterNeed;
	/** `started` is when the call came (`performance.now()`), before the vault was brought up to date. */
	run(args: JsonObject, env: VaultToolEnvironment, context: ToolCallContext, started: number): Promise<ToolResult>;
}

/** A ToolDefinition for the registry: brings the vault up to date first, and answers bad input as a clear error. */
export function defineVaultTool(spec: VaultToolSpec, env: VaultToolEnvironment): ToolDefinition {
	const inputSchema: JsonObject = { type: "object", properties: spec.properties, additionalProperties: false };
	if (spec.required) inputSchema.required = spec.required;
	return {
		name: spec.name,
		description: spec.description,
		inputSchema,
		annotations: spec.annotations,
		async call(args: JsonObject, context: ToolCallContext): Promise<ToolResult> {
			const started = performance.now();
			try {
				const unknown = Object.keys(args).filter((key) => !(key in spec.properties));
				if (unknown.length > 0) {
					throw new ToolArgumentError(
						`unknown argument ${unknown.map((key) => `"${key}"`).join(", ")}; ${spec.name} takes ${Object.keys(spec.properties).join(", ") || "no arguments"}`,
					);
				}
				await env.vault.refresh(spec.frontmatter?.(args));
				return await spec.run(args, env, context, started);
			} catch (error) {
				if (
					error instanceof ToolArgumentError ||
					error instanceof VaultToolError ||
					error instanceof TargetError
				) {
					const message = error.message.startsWith(`${spec.name}`)
						? error.message
						: `${spec.name}: ${error.message}`;
					return toolError(message);
				}
				throw error;
			}
		},
	};
}

export function readLimit(args: JsonObject): number {
	const value = args.limit;
	if (value === undefined || value === null) return DEFAULT_LIST_LIMIT;
	if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_LIST_LIMIT) {
		throw new ToolArgumentError(
			`"limit" must be a whole number from 1 to ${MAX_LIST_LIMIT}, not ${JSON.stringify(value)}`,
		);
	}
	return value;
}

export function readOffset(args: JsonObject, name = "offset"): number {
	const value = args[name];
	if (value === undefined || value === null) return 0;
	if (typeof value !== "number" || !Number.isInteger(value) || value < 0)
		throw new ToolArgumentError(`"${name}" must be a whole number of 0 or more, not ${JSON.stringify(value)}`);
	return value;
}

/**
 * A cursor is the offset of the next item plus a fingerprint of the query it belongs to, so a cursor reused
 * with other arguments is refused instead of paging through something else.
 */
export function encodeCursor(offset: number, query: string): string {
	return `${offset.toString(36)}.${fingerprint(query)}`;
}

export function readCursor(args: JsonObject, query: string): number {
	const value = args.cursor;
	if (value === undefined || value === null || value === "") return 0;
	if (typeof value !== "string")
		throw new ToolArgumentError(`"cursor" must be the string a previous answer gave, not ${JSON.stringify(value)}`);
	const match = /^([0-9a-z]+)\.([A-Za-z0-9_-]+)$/.exec(value);
	if (!match)
		throw new ToolArgumentError(
			`"cursor" ${JSON.stringify(value)} is not a cursor this tool gave; omit it to start from the first page`,
		);
	if (match[2] !== fingerprint(query))
		throw new ToolArgumentError(
			`"cursor" belongs to a different query; repeat the same arguments with it, or omit it to start again`,
		);
	return parseInt(match[1] ?? "0", 36);
}

function fingerprint(query: string): string {
	return createHash("sha256").update(query).digest("base64url").slice(0, 8);
}

/** One page of a list, with the line that says how much there is and how to get more. */
export function page<T>(
	items: { readonly length: number; slice(start: number, end: number): T[] },
	offset: number,
	limit: number,
	query: string,
	noun: string,
): { items: T[]; footer: string } {
	const shown = items.slice(offset, offset + limit);
	const total = items.length;
	if (total === 0) return { items: [], footer: `0 ${noun}.` };
	if (offset >= total)
		return { items: [], footer: `total ${total} ${noun}; the cursor is past the end (nothing more).` };
	const last = offset + shown.length;
	const more = last < total ? ` More: cursor "${encodeCursor(last, query)}".` : "";
	return { items: shown, footer: `total ${total} ${noun}; showing ${offset + 1}-${last}.${more}` };
}

/** Caps a text at `cap` characters from `offset`, saying where to continue. */
export function capText(text: string, offset: number, cap: number): { text: string; note?: string } {
	if (offset > text.length)
		throw new ToolArgumentError(`"offset" ${offset} is past the end of the text (${text.length} characters)`);
	if (offset === 0 && text.length <= cap) return { text };
	let end = Math.min(text.length, offset + cap);
	// Never split a surrogate pair.
	if (end < text.length && /[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end--;
	const part = text.slice(offset, end);
	const note =
		end < text.length
			? `characters ${offset}-${end} of ${text.length}; continue with offset ${end}`
			: `characters ${offset}-${end} of ${text.length} (the end)`;
	return { text: part, note };
}

export function textAnswer(lines: readonly string[]): ToolResult {
	return textResult(lines.join("\n"));
}

/** The line as a snippet: trimmed and at most `max` characters around `at`. */
export function snippet(line: string, at = 0, max = 160): string {
	const trimmed = line.trim();
	if (trimmed.length <= max) return trimmed;
	const lead = line.length - line.trimStart().length;
	const center = Math.max(0, at - lead);
	const start = Math.max(0, Math.min(center - Math.floor(max / 3), trimmed.length - max));
	return `${start > 0 ? "…" : ""}${trimmed.slice(start, start + max)}${start + max < trimmed.length ? "…" : ""}`;
}

export function notePathQuery(args: JsonObject, name = "path"): string {
	const value = args[name];
	if (typeof value !== "string" || value.trim() === "")
		throw new ToolArgumentError(
			`"${name}" is required: a vault path like "Folder/Note.md" or a note name like "Note"`,
		);
	return value;
}
