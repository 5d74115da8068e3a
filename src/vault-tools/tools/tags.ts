import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolDefinition } from "../../protocol/mcp-types";
import { optionalString } from "../../protocol/tool-arguments";
import {
	READ_ONLY,
	defineVaultTool,
	page,
	readCursor,
	readLimit,
	textAnswer,
	type VaultToolEnvironment,
} from "../kit/tool-kit";
import { VaultToolError } from "../../vault/privacy/visible-vault";
import { WorkSlices } from "../../vault/notes/work-slices";

export function createTagsTool(env: VaultToolEnvironment): ToolDefinition {
	return defineVaultTool(
		{
			name: "tags",
			description:
				"Tags of the vault with the number of notes that have each (most used first; prefix filters, nested tags included), or with path one note's tags and their lines. Paged.",
			properties: {
				prefix: { type: "string", description: "e.g. #project" },
				path: { type: "string", description: "one note's tags" },
				limit: { type: "integer", minimum: 1, maximum: 100 },
				cursor: { type: "string" },
			},
			annotations: READ_ONLY,
			// A note's tags and their lines; a tag in the frontmatter is labelled so only where there is one.
			frontmatter: () => "tags",
			async run(args: JsonObject) {
				const prefix = (optionalString(args, "prefix", "tags") ?? "").trim().replace(/^#/, "").toLowerCase();
				const pathArgument = optionalString(args, "path", "tags");
				const limit = readLimit(args);
				const matches = (tag: string): boolean => {
					const lower = tag.toLowerCase();
					return prefix === "" || lower === prefix || lower.startsWith(prefix);
				};
				if (pathArgument !== undefined) {
					const path = env.vault.locateNote(pathArgument);
					const facts = env.vault.facts(path, false);
					if (!facts) throw new VaultToolError(`No note "${path}" in the vault.`);
					const cursorKey = JSON.stringify(["tags", path, prefix]);
					const rows = facts.tags
						.filter((tag) => matches(tag.tag))
						.map(
							(tag) =>
								`#${tag.tag} (line ${tag.line + 1}${facts.frontmatter && tag.line <= facts.frontmatter.endLine ? ", frontmatter" : ""})`,
						);
					const shown = page(rows, readCursor(args, cursorKey), limit, cursorKey, "tags");
					return textAnswer([`${path}:`, ...shown.items, `(${shown.footer.replace(/\.$/, "")})`]);
				}
				const cursorKey = JSON.stringify(["tags", prefix]);
				const offset = readCursor(args, cursorKey);
				// Obsidian counts tags case-insensitively and shows the first spelling it met.
				const counts = new Map<string, { spelled: string; notes: number }>();
				const slices = new WorkSlices(env.vault.pace);
				const paths = env.vault.notePaths();
				const tagsOf = env.vault.tagsReader(paths);
				for (const path of paths) {
					if (slices.due()) await slices.next();
					const tags = tagsOf(path);
					if (!tags) continue;
					const seen = new Set<string>();
					for (const tag of tags) {
						const key = tag.tag.toLowerCase();
						if (seen.has(key) || !matches(tag.tag)) continue;
						seen.add(key);
						const entry = counts.get(key);
						if (entry) entry.notes++;
						else counts.set(key, { spelled: tag.tag, notes: 1 });
					}
				}
				const rows = [...counts.values()]
					.sort((a, b) => b.notes - a.notes || (a.spelled.toLowerCase() < b.spelled.toLowerCase() ? -1 : 1))
					.map((entry) => `#${entry.spelled} ${entry.notes}`);
				const shown = page(rows, offset, limit, cursorKey, "tags");
				return textAnswer(
					rows.length === 0
						? [`No tags${prefix ? ` starting with #${prefix}` : ""}.`]
						: ["tag notes", ...shown.items, `(${shown.footer.replace(/\.$/, "")})`],
				);
			},
		},
		env,
	);
}
