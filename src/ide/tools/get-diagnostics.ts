import type { Diagnostic, NoteDiagnostics } from "../diagnostics/diagnostic-types";
import {
	textResult,
	toolError,
	type TextContent,
	type ToolDefinition,
	type ToolResult,
} from "../../protocol/mcp-types";
import type { JsonObject } from "../../protocol/json-rpc";
import { VaultPathError, type VaultPaths } from "../../vault/vault-paths";

/** More than this many diagnostics in one answer helps nobody and stalls the CLI (its CHANGELOG 2.1.229). */
export const MAX_DIAGNOSTICS_PER_ANSWER = 2000;
/** How many uris, as the CLI spelled them, are remembered to be echoed in whole-vault answers. */
const REMEMBERED_URIS = 1000;

export interface DiagnosticsProvider {
	/** One note's diagnostics; [] when the path is not a note or has none. */
	forNote(relativePath: string): Promise<Diagnostic[]>;
	/** Every note that has diagnostics. */
	forVault(): Promise<NoteDiagnostics[]>;
	/** Optional: what the last answer could not cover (e.g. notes the host has not indexed yet), as a sentence. */
	indexingNotice?(relativePath?: string): string | undefined;
}

export interface GetDiagnosticsToolOptions {
	/** Diagnostics over notes with private ones already hidden (`VaultPrivacy.notes`). */
	diagnostics: DiagnosticsProvider;
	paths: VaultPaths;
	maxDiagnostics?: number;
}

interface UriDiagnostics {
	uri: string;
	diagnostics: Diagnostic[];
}

const DESCRIPTION = [
	'Reports problems in the Obsidian vault\'s Markdown notes as LSP-style diagnostics (source "Obsidian"):',
	"unresolved links and embeds ([[Missing note]], ![[missing.png]], [text](missing.md)) [unresolved-link, unresolved-embed];",
	"links to a heading or block id that the target note does not have ([[Note#No such heading]], [[Note#^no-such-id]], [[#Heading]]) [missing-heading, missing-block];",
	"frontmatter that is not valid YAML, so Obsidian ignores the note's properties [invalid-frontmatter];",
	"and a block id (^id) used twice in one note [duplicate-block-id].",
	"Links inside code blocks, inline code and comments are not checked. Link resolution follows Obsidian:",
	"case-insensitive, `.md` optional, a bare name matches a file anywhere in the vault.",
	"Pass `uri` (file:// URI or absolute path of a note) to check one note; omit it to list every note that has problems.",
	'Returns a JSON array of {"uri", "diagnostics": [{"message", "severity", "source", "code", "range"}]} where',
	"range.start/end have 0-based line and character (UTF-16) numbers.",
].join(" ");

const INPUT_SCHEMA: JsonObject = {
	type: "object",
	properties: {
		uri: {
			type: "string",
			description:
				"file:// URI (or absolute path) of one note to check. Omit to get every note in the vault that has problems.",
		},
	},
	additionalProperties: false,
};

/** The `getDiagnostics` tool: the CLI's baseline before edits and its check after them, and a tool for the model. */
export function createGetDiagnosticsTool(options: GetDiagnosticsToolOptions): ToolDefinition {
	const limit = options.maxDiagnostics ?? MAX_DIAGNOSTICS_PER_ANSWER;
	// The CLI matches whole-vault entries to its baselines by uri; answering with its own spelling is safest.
	const urisAsReceived = new Map<string, string>();
	const remember = (path: string, uri: string): void => {
		urisAsReceived.delete(path);
		urisAsReceived.set(path, uri);
		if (urisAsReceived.size > REMEMBERED_URIS) urisAsReceived.delete(urisAsReceived.keys().next().value ?? "");
	};

	const forOneNote = async (uri: string): Promise<ToolResult> => {
		let relative: string;
		try {
			// The note is the real file: a path through a symbolic link (`pub -> Secret`) is judged, indexed and
			// listed by where it leads, so privacy decides on the real path and nothing enters the index twice.
			const location = options.paths.resolve(uri);
			relative = location.realRelative ?? location.relative;
		} catch (error) {
			if (error instanceof VaultPathError) return toolError(`getDiagnostics: ${error.message}`);
			throw error;
		}
		remember(relative, uri);
		const diagnostics = await options.diagnostics.forNote(relative);
		const result = answer(
			diagnostics.length === 0 ? [] : [{ uri, diagnostics }],
			limit,
			"Fix the first ones and ask again to see the rest.",
		);
		return withNotice(result, options.diagnostics.indexingNotice?.(relative));
	};

	const forVault = async (): Promise<ToolResult> => {
		const notes = await options.diagnostics.forVault();
		// Notes the CLI asked about first, so a cap never hides what it compares against its baselines.
		const asked = notes.filter((note) => urisAsReceived.has(note.path));
		const others = notes.filter((note) => !urisAsReceived.has(note.path));
		const entries = [...asked, ...others].map((note) => ({
			uri: urisAsReceived.get(note.path) ?? `file://${options.paths.toAbsolute(note.path)}`,
			diagnostics: note.diagnostics,
		}));
		return withNotice(
			answer(entries, limit, "Call getDiagnostics with one note's uri to see that note's diagnostics."),
			options.diagnostics.indexingNotice?.(),
		);
	};

	return {
		name: "getDiagnostics",
		description: DESCRIPTION,
		inputSchema: INPUT_SCHEMA,
		async call(args: JsonObject): Promise<ToolResult> {
			const uri = args.uri;
			if (uri === undefined || uri === null) return forVault();
			if (typeof uri !== "string")
				return toolError(
					`getDiagnostics: "uri" must be a string, not ${Array.isArray(uri) ? "an array" : typeof uri}`,
				);
			return forOneNote(uri);
		},
	};
}

/** A last text block saying what the answer could not cover; the CLI reads only the first block, the model sees all. */
function withNotice(result: ToolResult, notice: string | undefined): ToolResult {
	return notice === undefined ? result : { ...result, content: [...result.content, { type: "text", text: notice }] };
}

/** The JSON array as one text block; past the limit, a second block says what was left out. */
function answer(entries: UriDiagnostics[], limit: number, hint: string): ToolResult {
	const total = entries.reduce((sum, entry) => sum + entry.diagnostics.length, 0);
	if (total <= limit) return textResult(JSON.stringify(entries));
	const kept: UriDiagnostics[] = [];
	let room = limit;
	for (const entry of entries) {
		if (room === 0) break;
		const diagnostics = entry.diagnostics.slice(0, room);
		kept.push({ uri: entry.uri, diagnostics });
		room -= diagnostics.length;
	}
	const note: TextContent = {
		type: "text",
		text: `Showing ${limit} of ${total} diagnostics, in ${kept.length} of ${entries.length} notes. ${hint}`,
	};
	return { content: [{ type: "text", text: JSON.stringify(kept) }, note] };
}
