import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolDefinition, ToolResult } from "../../protocol/mcp-types";
import { ToolArgumentError } from "../../protocol/tool-arguments";
import { factsFromText } from "../../vault/notes/note-facts";
import { noteVersion } from "../../vault/notes/note-version";
import { LineTable } from "../../vault/markdown/line-table";
import { locateTarget, parseTarget } from "../text/edit-targets";
import {
	READ_ONLY,
	capText,
	defineVaultTool,
	notePathQuery,
	readOffset,
	type VaultToolEnvironment,
} from "../kit/tool-kit";
import { VaultToolError } from "../../vault/privacy/visible-vault";

export function createReadNoteTool(env: VaultToolEnvironment): ToolDefinition {
	return defineVaultTool(
		{
			name: "read_note",
			description:
				'Read a note\'s exact text, or one section: section "Heading > Sub" (the heading and everything under it), "^blockid", or "frontmatter". The first block gives path, lines (1-based) and version (pass it to edit_note); the second is the text. Long text is cut at 24,000 characters; continue with offset.',
			properties: {
				path: { type: "string", description: "vault path or note name (wikilink target)" },
				section: { type: "string" },
				offset: { type: "integer", minimum: 0, description: "character offset to continue from" },
			},
			required: ["path"],
			annotations: READ_ONLY,
			async run(args: JsonObject): Promise<ToolResult> {
				const path = env.vault.locateNote(notePathQuery(args));
				const offset = readOffset(args);
				const text = await env.vault.readText(path);
				if (text === undefined) throw new VaultToolError(`No note "${path}" in the vault.`);
				const version = noteVersion(text);
				const table = new LineTable(text);
				let part = text;
				let where = `lines 1-${table.count}`;
				const section = args.section;
				if (section !== undefined && section !== null) {
					if (typeof section !== "string" || section.trim() === "")
						throw new ToolArgumentError(
							'"section" must be a heading path like "Heading > Sub", "^blockid" or "frontmatter"',
						);
					const region = locateTarget(text, factsFromText(path, text, env.yaml), parseTarget(section), table);
					part = text.slice(region.outerStart, region.outerEnd);
					const first = table.lineAt(region.outerStart);
					const last = table.lineAt(Math.max(region.outerStart, region.outerEnd - 1));
					where = `${region.label.replace(/ \(line[^)]*\)$/, "")}, lines ${first + 1}-${last + 1} of ${table.count}`;
				}
				const capped = capText(part, offset, env.textCap);
				const header = `${path} | ${where} | version ${version}${capped.note ? ` | ${capped.note}` : ""}`;
				return {
					content: [
						{ type: "text", text: header },
						{ type: "text", text: capped.text },
					],
				};
			},
		},
		env,
	);
}
