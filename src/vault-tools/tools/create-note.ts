import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolCallContext, ToolDefinition } from "../../protocol/mcp-types";
import { requiredString } from "../../protocol/tool-arguments";
import { noteVersion } from "../../vault/notes/note-version";
import { defineVaultTool, notePathQuery, textAnswer, type VaultToolEnvironment } from "../kit/tool-kit";
import { assertWritable, reviewAndWrite } from "../kit/write-flow";

export function createCreateNoteTool(env: VaultToolEnvironment): ToolDefinition {
	return defineVaultTool(
		{
			name: "create_note",
			description:
				"Create a new note (folders are created; .md added when the name has no extension). Refuses if anything exists at the path. Shown for review unless review is off.",
			properties: {
				path: { type: "string", description: "vault path of the new note" },
				content: { type: "string" },
			},
			required: ["path", "content"],
			annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
			async run(args: JsonObject, _env, context: ToolCallContext) {
				assertWritable(env, "create_note");
				const content = requiredString(args, "content", "create_note");
				const requested = notePathQuery(args);
				const { path } = await env.vault.locateNewNote(requested, "path");
				return env.writes.run([path], async () => {
					const again = await env.vault.locateNewNote(requested, "path");
					const write = {
						path: again.path,
						oldText: "",
						newText: content,
						isNewNote: true,
						tool: "create_note",
					};
					// A note the tools may not see is there: shown to the user, answered to Claude as a Reject.
					const outcome = await reviewAndWrite(
						env,
						again.takenBy === undefined ? write : { ...write, conflict: again.takenBy },
						context,
					);
					if (outcome.kind === "rejected")
						return textAnswer([`Not created: ${outcome.reason}. Nothing was written.`]);
					return textAnswer([
						`Created ${again.path} (${outcome.text.length} characters${outcome.changedByUser ? ", as changed by the user in the review" : ""}). version ${noteVersion(outcome.text)}`,
					]);
				});
			},
		},
		env,
	);
}
