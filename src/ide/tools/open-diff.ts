import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolCallContext, ToolDefinition, ToolResult } from "../../protocol/mcp-types";
import type { DiffReviewManager } from "../diff-review/diff-review-manager";
import { answeringArgumentErrors, requiredString } from "../../protocol/tool-arguments";

/** `openDiff`: shows Claude's proposed edit for review and answers when the user decides. Called by the CLI. */
export class OpenDiffTool implements ToolDefinition {
	readonly name = "openDiff";
	readonly description =
		"Show a proposed change to a note in Obsidian for review. Blocks until the user accepts (answers FILE_SAVED and the final, possibly edited text) or rejects (answers DIFF_REJECTED).";
	readonly inputSchema: JsonObject = {
		type: "object",
		properties: {
			old_file_path: { type: "string", description: "Absolute path of the note as it is now" },
			new_file_path: { type: "string", description: "Absolute path of the note the proposal is for" },
			new_file_contents: { type: "string", description: "The complete proposed text of the note" },
			tab_name: { type: "string", description: "Key of this review, used by close_tab" },
		},
		required: ["old_file_path", "new_file_path", "new_file_contents", "tab_name"],
		additionalProperties: false,
	};

	constructor(private readonly reviews: DiffReviewManager) {}

	call(args: JsonObject, context: ToolCallContext): Promise<ToolResult> {
		return answeringArgumentErrors(() => {
			const request = {
				oldFilePath: requiredString(args, "old_file_path", this.name),
				newFilePath: requiredString(args, "new_file_path", this.name),
				newFileContents: requiredString(args, "new_file_contents", this.name),
				tabName: requiredString(args, "tab_name", this.name),
			};
			return this.reviews.open(request, context);
		});
	}
}
