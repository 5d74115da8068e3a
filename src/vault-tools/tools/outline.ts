import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolDefinition } from "../../protocol/mcp-types";
import { wordCount } from "../../vault/notes/note-facts";
import { noteVersion } from "../../vault/notes/note-version";
import { headingPath } from "../text/edit-targets";
import { LineTable } from "../../vault/markdown/line-table";
import {
	READ_ONLY,
	capText,
	defineVaultTool,
	notePathQuery,
	textAnswer,
	type VaultToolEnvironment,
} from "../kit/tool-kit";
import { VaultToolError } from "../../vault/privacy/visible-vault";

export function createOutlineTool(env: VaultToolEnvironment): ToolDefinition {
	return defineVaultTool(
		{
			name: "outline",
			description:
				"A note's structure without its text: headings (level, line, heading path for read_note/edit_note), block ids, frontmatter keys, tags, line and word counts, version.",
			properties: { path: { type: "string", description: "vault path or note name" } },
			required: ["path"],
			annotations: READ_ONLY,
			async run(args: JsonObject) {
				const path = env.vault.locateNote(notePathQuery(args));
				const text = await env.vault.readText(path);
				const facts = env.vault.facts(path, false);
				if (text === undefined || !facts) throw new VaultToolError(`No note "${path}" in the vault.`);
				const lines = [
					`${path} | ${new LineTable(text).count} lines, ${wordCount(text, facts)} words | version ${noteVersion(text)}`,
				];
				const frontmatter = facts.frontmatter;
				if (frontmatter) {
					const keys = Object.keys(frontmatter.keyLines);
					lines.push(
						`frontmatter (lines 1-${frontmatter.endLine + 1}): ${keys.join(", ") || "(empty)"}${frontmatter.problem ? ` — ${frontmatter.problem}` : ""}`,
					);
				}
				const tags = [...new Set(facts.tags.map((tag) => `#${tag.tag}`))];
				if (tags.length > 0) lines.push(`tags: ${tags.join(" ")}`);
				lines.push(facts.headings.length === 0 ? "headings: none" : "headings (line: level path):");
				facts.headings.forEach((heading, index) =>
					lines.push(
						`${heading.line + 1}: ${"#".repeat(heading.level)} ${headingPath(facts.headings, index)}`,
					),
				);
				if (facts.blockIds.length > 0)
					lines.push(
						`block ids: ${facts.blockIds.map((block) => `^${block.id} (line ${block.line + 1})`).join(", ")}`,
					);
				const capped = capText(lines.join("\n"), 0, env.textCap);
				return textAnswer(
					capped.note
						? [
								capped.text,
								`(outline cut: ${capped.note.replace(/; continue.*$/, "")}; read sections with read_note)`,
							]
						: [capped.text],
				);
			},
		},
		env,
	);
}
