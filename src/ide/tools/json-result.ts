import { textResult, type ToolResult } from "../../protocol/mcp-types";

/** A result whose one text block holds a JSON document, as the VS Code tools answer. */
export function jsonResult(value: unknown): ToolResult {
	return textResult(JSON.stringify(value));
}
