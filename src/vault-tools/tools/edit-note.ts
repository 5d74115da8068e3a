import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolCallContext, ToolDefinition } from "../../protocol/mcp-types";
import { optionalString } from "../../protocol/tool-arguments";
import { noteVersion } from "../../vault/notes/note-version";
import { applyEdits, parseEdits } from "../text/apply-edits";
import { defineVaultTool, notePathQuery, textAnswer, type VaultToolEnvironment } from "../kit/tool-kit";
import { VaultToolError } from "../../vault/privacy/visible-vault";
import { assertWritable, lineDelta, reviewAndWrite } from "../kit/write-flow";

export function createEditNoteTool(env: VaultToolEnvironment): ToolDefinition {
	return defineVaultTool(
		{
			name: "edit_note",
			description:
				'Edit parts of a note. Each edit: target = heading path "Heading > Sub" | "^blockid" | "frontmatter" | {"oldText": "text that occurs exactly once"}; op = replace (a heading\'s body, keeping the heading line) | append (end of the section; after oldText on its line) | prepend (just below the heading; before oldText) | insert_after (new lines after the whole target) | delete (heading: the whole section); content = the text. Edits apply in order, all or none. A missing or ambiguous target, or a version that is not the note\'s current one (from read_note/outline), is an error and changes nothing. Shown for review unless review is off.',
			properties: {
				path: { type: "string" },
				edits: {
					type: "array",
					minItems: 1,
					items: {
						type: "object",
						properties: {
							target: {
								anyOf: [
									{ type: "string" },
									{
										type: "object",
										properties: { oldText: { type: "string" } },
										required: ["oldText"],
									},
								],
							},
							op: { type: "string", enum: ["replace", "append", "prepend", "insert_after", "delete"] },
							content: { type: "string" },
						},
						required: ["target", "op"],
					},
				},
				version: { type: "string" },
			},
			required: ["path", "edits"],
			annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
			async run(args: JsonObject, _env, context: ToolCallContext) {
				assertWritable(env, "edit_note");
				const path = env.vault.locateNote(notePathQuery(args));
				const edits = parseEdits(args.edits);
				const version = optionalString(args, "version", "edit_note");
				return env.writes.run([path], async () => {
					const text = await env.vault.readText(path);
					if (text === undefined) throw new VaultToolError(`No note "${path}" in the vault.`);
					const current = noteVersion(text);
					if (version !== undefined && version !== current) {
						throw new VaultToolError(
							`version ${version} is stale: ${path} has changed since (now version ${current}). Nothing was changed; read the note again.`,
						);
					}
					const result = applyEdits(text, edits, env.yaml);
					if (result.text === text)
						throw new VaultToolError(
							`No change: the edits leave ${path} exactly as it is, so nothing was written.`,
						);
					const outcome = await reviewAndWrite(
						env,
						{ path, oldText: text, newText: result.text, isNewNote: false, tool: "edit_note" },
						context,
					);
					if (outcome.kind === "rejected")
						return textAnswer([
							`Not applied: ${outcome.reason}. ${path} is unchanged (version ${current}).`,
						]);
					const done = result.applied.map((edit, index) => `${index + 1}. ${edit.op} ${edit.label}`);
					return textAnswer([
						`Applied ${done.length} edit${done.length === 1 ? "" : "s"} to ${path}${outcome.changedByUser ? " (the user changed the text in the review; read the note to see it)" : ""}: now ${lineDelta(text, outcome.text)}, version ${noteVersion(outcome.text)}.`,
						...done,
					]);
				});
			},
		},
		env,
	);
}
