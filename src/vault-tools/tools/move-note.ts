import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolDefinition } from "../../protocol/mcp-types";
import { requiredString } from "../../protocol/tool-arguments";
import { defineVaultTool, notePathQuery, textAnswer, type VaultToolEnvironment } from "../kit/tool-kit";
import { assertWritable } from "../kit/write-flow";
import { createdMeanwhile } from "../../vault/privacy/visible-vault";

const LISTED_NOTES = 20;

export function createMoveNoteTool(env: VaultToolEnvironment): ToolDefinition {
	return defineVaultTool(
		{
			name: "move_note",
			description:
				"Move or rename a note and rewrite every link to it (wikilinks, embeds, Markdown links; headings, block refs and aliases kept) so all links still resolve. Refuses if the destination exists. Reports the links and notes updated.",
			properties: { path: { type: "string" }, to: { type: "string", description: "new vault path" } },
			required: ["path", "to"],
			annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
			async run(args: JsonObject, _env, context) {
				assertWritable(env, "move_note");
				const from = env.vault.locateNote(notePathQuery(args));
				const requested = requiredString(args, "to", "move_note");
				const to = (await env.vault.locateNewNote(requested, "to")).path;
				const linking = (await env.vault.backlinks(from)).map((backlink) => backlink.source);
				return env.writes.run([from, to, ...linking], async () => {
					await env.vault.refresh();
					const source = env.vault.locateNote(from);
					const target = await env.vault.locateNewNote(requested, "to");
					// Moves are not reviewed: a note the tools may not see there is answered as one created meanwhile.
					if (target.takenBy !== undefined) throw createdMeanwhile(target.path, "moved");
					const destination = target.path;
					const report = await env.vault.renameNote(source, destination, context);
					const links = report.updates.reduce((sum, update) => sum + update.links, 0);
					const lines = [
						`Moved ${source} to ${destination}; updated ${links} link${links === 1 ? "" : "s"} in ${report.updates.length} note${report.updates.length === 1 ? "" : "s"}.`,
					];
					for (const update of report.updates.slice(0, LISTED_NOTES))
						lines.push(`${update.path}: ${update.links}`);
					if (report.updates.length > LISTED_NOTES)
						lines.push(`(and ${report.updates.length - LISTED_NOTES} more notes)`);
					return textAnswer(lines);
				});
			},
		},
		env,
	);
}
