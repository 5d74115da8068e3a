import type { JsonObject } from "../../protocol/json-rpc";
import { toolError, type ToolCallContext, type ToolDefinition, type ToolResult } from "../../protocol/mcp-types";
import { answeringArgumentErrors, requiredString } from "../../protocol/tool-arguments";
import type { EditReview, ReviewDecision } from "../../review/edit-proposal";
import { describeError } from "../../shared/describe-error";
import { readTextIfExists } from "../../shared/read-text-if-exists";
import type { VaultPrivacy } from "../../vault/privacy/vault-privacy";
import { VaultPathError, type VaultLocation, type VaultPaths } from "../../vault/vault-paths";

/** The first text of `openDiff`'s answer when the user rejected: the journal counts such a call as the user's. */
const DIFF_REJECTED = "DIFF_REJECTED";

/** Whether a tool's answer text is `openDiff`'s rejection. */
export function isOpenDiffRejection(text: string): boolean {
	return text === DIFF_REJECTED;
}

export interface OpenDiffOptions {
	paths: VaultPaths;
	reviews: EditReview;
	/** The vault's privacy boundary: private and hidden notes' edits are not reviewed in Obsidian, nor read. */
	privacy?: Pick<VaultPrivacy, "hides">;
	/** Reads the current note; undefined when it does not exist. Defaults to the file system. */
	readText?: (absolutePath: string) => Promise<string | undefined>;
	/** The name an IDE client gave in `initialize` (`clientInfo.name`), for the review to say who proposes. */
	clientName?: (sessionId: number) => string | undefined;
}

/**
 * `openDiff`: shows Claude's proposed edit for review and answers when the user decides. Called by the CLI. The
 * IDE's wire lives here alone: absolute paths in, `FILE_SAVED` and the final text or `DIFF_REJECTED` and the tab
 * name out (never `TAB_CLOSED`: CLI 2.1.330 takes it as accepting the original proposal); an error answer leaves
 * the decision to the CLI's terminal prompt.
 */
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

	constructor(private readonly options: OpenDiffOptions) {}

	call(args: JsonObject, context: ToolCallContext): Promise<ToolResult> {
		return answeringArgumentErrors(() =>
			this.open(
				requiredString(args, "old_file_path", this.name),
				requiredString(args, "new_file_path", this.name),
				requiredString(args, "new_file_contents", this.name),
				requiredString(args, "tab_name", this.name),
				context,
			),
		);
	}

	private async open(
		oldFilePath: string,
		newFilePath: string,
		proposed: string,
		tabName: string,
		context: ToolCallContext,
	): Promise<ToolResult> {
		const { paths } = this.options;
		let source: VaultLocation;
		let target: VaultLocation;
		try {
			source = paths.resolve(oldFilePath);
			target = paths.resolve(newFilePath);
		} catch (error) {
			if (error instanceof VaultPathError)
				return toolError(`openDiff refused: ${error.message}. Only notes inside the vault can be reviewed.`);
			throw error;
		}
		if (target.relative === "")
			return toolError("openDiff refused: the path names the vault folder itself, not a note.");
		// Claude Code sends the same path twice; a review of one note's text for a change written to another would show
		// the user a diff of the wrong file, so two different notes are refused rather than shown.
		const identity = (location: VaultLocation): string =>
			paths.identity.key(location.realRelative ?? location.relative);
		if (identity(source) !== identity(target)) {
			return toolError(
				`openDiff refused: old_file_path (${oldFilePath}) and new_file_path (${newFilePath}) name different files; Obsidian reviews an edit of one note in place. Answer in the terminal.`,
			);
		}
		// A private or hidden note is refused whatever the reason and whether it exists, so the answer does not tell a
		// private folder from the config folder; it is never read.
		const privacy = this.options.privacy;
		if (privacy && (privacy.hides(source) || privacy.hides(target))) {
			return toolError(
				`openDiff refused: ${newFilePath} is private or hidden (the bridge's privacy settings), so its edit is not shown in Obsidian. Answer in the terminal.`,
			);
		}
		let before: string | undefined;
		try {
			before = await (this.options.readText ?? readTextIfExists)(source.absolute);
		} catch (error) {
			return toolError(`openDiff could not read ${source.relative}: ${describeError(error)}`);
		}
		const decision = await this.options.reviews.propose({
			note: target.relative,
			before,
			after: proposed,
			proposer: {
				surface: "ide",
				client: this.options.clientName?.(context.sessionId) ?? "Claude Code",
				session: context.sessionId,
				tool: "openDiff",
			},
			title: tabName,
			hearsReason: false,
			signal: context.signal,
		});
		return answer(decision, tabName);
	}
}

/** The `openDiff` answers the CLI understands. */
function answer(decision: ReviewDecision, tabName: string): ToolResult {
	if (decision.kind === "failed") return toolError(decision.reason);
	if (decision.kind === "accepted") {
		return {
			content: [
				{ type: "text", text: "FILE_SAVED" },
				{ type: "text", text: decision.text },
			],
		};
	}
	return {
		content: [
			{ type: "text", text: DIFF_REJECTED },
			{ type: "text", text: tabName },
		],
	};
}
