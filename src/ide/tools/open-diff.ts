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

const NAME = "openDiff";

const INPUT_SCHEMA: JsonObject = {
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

export interface OpenDiffToolDeps {
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
export function createOpenDiffTool(deps: OpenDiffToolDeps): ToolDefinition {
	return {
		name: NAME,
		description:
			"Show a proposed change to a note in Obsidian for review. Blocks until the user accepts (answers FILE_SAVED and the final, possibly edited text) or rejects (answers DIFF_REJECTED).",
		inputSchema: INPUT_SCHEMA,
		call: (args: JsonObject, context: ToolCallContext): Promise<ToolResult> =>
			answeringArgumentErrors(() =>
				openDiff(
					deps,
					{
						oldFilePath: requiredString(args, "old_file_path", NAME),
						newFilePath: requiredString(args, "new_file_path", NAME),
						proposed: requiredString(args, "new_file_contents", NAME),
						tabName: requiredString(args, "tab_name", NAME),
					},
					context,
				),
			),
	};
}

/** One `openDiff` call's arguments, in the IDE's wire terms. */
interface OpenDiffArguments {
	oldFilePath: string;
	newFilePath: string;
	proposed: string;
	tabName: string;
}

async function openDiff(
	deps: OpenDiffToolDeps,
	args: OpenDiffArguments,
	context: ToolCallContext,
): Promise<ToolResult> {
	const { oldFilePath, newFilePath, proposed, tabName } = args;
	const { paths } = deps;
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
	const privacy = deps.privacy;
	if (privacy && (privacy.hides(source) || privacy.hides(target))) {
		return toolError(
			`openDiff refused: ${newFilePath} is private or hidden (the bridge's privacy settings), so its edit is not shown in Obsidian. Answer in the terminal.`,
		);
	}
	let before: string | undefined;
	try {
		before = await (deps.readText ?? readTextIfExists)(source.absolute);
	} catch (error) {
		return toolError(`openDiff could not read ${source.relative}: ${describeError(error)}`);
	}
	const decision = await deps.reviews.propose({
		note: target.relative,
		before,
		after: proposed,
		proposer: {
			surface: "ide",
			client: deps.clientName?.(context.sessionId) ?? "Claude Code",
			session: context.sessionId,
			tool: NAME,
		},
		title: tabName,
		hearsReason: false,
		signal: context.signal,
	});
	return answer(decision, tabName);
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
