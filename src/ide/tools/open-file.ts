import type { JsonObject } from "../../protocol/json-rpc";
import { textResult, toolError, type ToolDefinition, type ToolResult } from "../../protocol/mcp-types";
import { describeError } from "../../shared/describe-error";
import { readTextIfExists } from "../../shared/read-text-if-exists";
import type { VaultLocation, VaultPaths } from "../../vault/vault-paths";
import { languageIdFor } from "../workspace/language-id";
import { findTextRange, lineCount, lineRange } from "../workspace/text-range";
import type { TextRange, WorkspacePort } from "../workspace/workspace-port";
import { answeringArgumentErrors, optionalBoolean, optionalLine, optionalString } from "../../protocol/tool-arguments";
import { requiredVaultPath } from "./vault-argument";

const NAME = "openFile";

const INPUT_SCHEMA: JsonObject = {
	type: "object",
	properties: {
		filePath: { type: "string", description: "Path of the note (absolute, vault-relative, or file:// URI)" },
		preview: { type: "boolean", description: "Open in a reusable tab", default: false },
		startText: { type: "string", description: "Select from the first occurrence of this text" },
		endText: {
			type: "string",
			description: "… to the end of the first occurrence of this text after startText",
		},
		selectToEndOfLine: {
			type: "boolean",
			description: "Extend the selection to the end of its last line",
			default: false,
		},
		makeFrontmost: {
			type: "boolean",
			description: "Focus the note (true) or open it in the background and answer JSON (false)",
			default: true,
		},
		startLine: { type: "integer", minimum: 1, description: "First line to select, 1-based" },
		endLine: { type: "integer", minimum: 1, description: "Last line to select, 1-based" },
	},
	required: ["filePath"],
	additionalProperties: false,
};

export interface OpenFileToolDeps {
	paths: VaultPaths;
	workspace: WorkspacePort;
	/** Reads a note's text; undefined when there is no such note. Defaults to the file system. */
	readText?: (absolutePath: string) => Promise<string | undefined>;
}

/** `openFile`: opens a note, optionally selecting `startText`…`endText` or a line range. */
export function createOpenFileTool(deps: OpenFileToolDeps): ToolDefinition {
	const { paths, workspace } = deps;
	const readText = deps.readText ?? readTextIfExists;
	return {
		name: NAME,
		description:
			"Open a note in Obsidian, optionally selecting text (startText … endText) or lines (startLine … endLine, 1-based).",
		inputSchema: INPUT_SCHEMA,
		call: (args: JsonObject): Promise<ToolResult> =>
			answeringArgumentErrors(async () => {
				const target = requiredVaultPath(paths, args, "filePath", NAME);
				const preview = optionalBoolean(args, "preview", NAME, false);
				const makeFrontmost = optionalBoolean(args, "makeFrontmost", NAME, true);
				const selectToEndOfLine = optionalBoolean(args, "selectToEndOfLine", NAME, false);
				const startText = optionalString(args, "startText", NAME);
				const endText = optionalString(args, "endText", NAME);
				const startLine = optionalLine(args, "startLine", NAME);
				const endLine = optionalLine(args, "endLine", NAME);
				let text: string | undefined;
				try {
					text = await readText(target.absolute);
				} catch (error) {
					return toolError(`openFile: could not read ${target.relative}: ${describeError(error)}`);
				}
				if (text === undefined) return toolError(`openFile: note not found: ${target.relative}`);
				let selection: TextRange | undefined;
				const notes: string[] = [];
				if (startText !== undefined && startText !== "") {
					selection = findTextRange(text, startText, endText, selectToEndOfLine);
					if (!selection) notes.push(`the text to select was not found, so nothing is selected`);
				} else if (startLine !== undefined) {
					selection = lineRange(text, startLine, endLine);
				}
				await workspace.openNote(target, { selection, preview, makeFrontmost });
				if (workspace.headlessNote) notes.push(workspace.headlessNote);
				return opened(target, text, notes, makeFrontmost);
			}),
	};
}

/** The answer: JSON when opened in the background, else a sentence (as the VS Code extension answers). */
function opened(target: VaultLocation, text: string, notes: readonly string[], makeFrontmost: boolean): ToolResult {
	if (!makeFrontmost) {
		return textResult(
			JSON.stringify({
				success: true,
				filePath: target.absolute,
				languageId: languageIdFor(target.relative),
				lineCount: lineCount(text),
				...(notes.length > 0 ? { note: notes.join("; ") } : {}),
			}),
		);
	}
	return textResult(`Opened file: ${target.absolute}${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`);
}
