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

export function createPropertiesTool(env: VaultToolEnvironment): ToolDefinition {
	return defineVaultTool(
		{
			name: "properties",
			description:
				"Frontmatter properties. No arguments: every key with its types and how many notes have it. key: that key's value in each note (`<path>:<line>: <value>`). path: one note's properties. Paged.",
			properties: {
				key: { type: "string" },
				path: { type: "string" },
				limit: { type: "integer", minimum: 1, maximum: 100 },
				cursor: { type: "string" },
			},
			annotations: READ_ONLY,
			async run(args: JsonObject) {
				const key = optionalString(args, "key", "properties")?.trim();
				const pathArgument = optionalString(args, "path", "properties");
				const limit = readLimit(args);
				if (pathArgument !== undefined) {
					const path = env.vault.locateNote(pathArgument);
					const facts = env.vault.facts(path, false);
					if (!facts) throw new VaultToolError(`No note "${path}" in the vault.`);
					const frontmatter = facts.frontmatter;
					if (!frontmatter) return textAnswer([`${path} has no frontmatter.`]);
					if (!frontmatter.properties)
						return textAnswer([`${path}: ${frontmatter.problem ?? "the frontmatter cannot be read"}`]);
					const entries = Object.entries(frontmatter.properties).filter(
						([name]) => key === undefined || name.toLowerCase() === key.toLowerCase(),
					);
					const rows = entries.map(
						([name, value]) =>
							`${(frontmatter.keyLines[name] ?? 0) + 1}: ${name} (${typeOf(value)}): ${show(value)}`,
					);
					const cursorKey = JSON.stringify(["properties", path, key]);
					const shown = page(rows, readCursor(args, cursorKey), limit, cursorKey, "properties");
					return textAnswer([`${path}:`, ...shown.items, `(${shown.footer.replace(/\.$/, "")})`]);
				}
				if (key !== undefined && key !== "") {
					const wanted = key.toLowerCase();
					const rows: string[] = [];
					for (const path of env.vault.notePaths()) {
						const frontmatter = env.vault.frontmatterOf(path);
						const properties = frontmatter?.properties;
						if (!frontmatter || !properties) continue;
						const name = Object.keys(properties).find((candidate) => candidate.toLowerCase() === wanted);
						if (name !== undefined)
							rows.push(`${path}:${(frontmatter.keyLines[name] ?? 0) + 1}: ${show(properties[name])}`);
					}
					const cursorKey = JSON.stringify(["properties", "key", wanted]);
					const shown = page(rows, readCursor(args, cursorKey), limit, cursorKey, "notes");
					return textAnswer(
						rows.length === 0
							? [`No note has a property "${key}".`]
							: [`${key}:`, ...shown.items, `(${shown.footer.replace(/\.$/, "")})`],
					);
				}
				const keys = new Map<string, { notes: number; types: Set<string> }>();
				for (const path of env.vault.notePaths()) {
					const properties = env.vault.frontmatterOf(path)?.properties;
					if (!properties) continue;
					for (const [name, value] of Object.entries(properties)) {
						let entry = keys.get(name);
						if (!entry) keys.set(name, (entry = { notes: 0, types: new Set() }));
						entry.notes++;
						entry.types.add(typeOf(value));
					}
				}
				const rows = [...keys.entries()]
					.sort((a, b) => b[1].notes - a[1].notes || (a[0] < b[0] ? -1 : 1))
					.map(([name, entry]) => `${name} (${[...entry.types].join("|")}) ${entry.notes}`);
				const cursorKey = JSON.stringify(["properties"]);
				const shown = page(rows, readCursor(args, cursorKey), limit, cursorKey, "keys");
				return textAnswer(
					rows.length === 0
						? ["No note has frontmatter properties."]
						: ["key (types) notes", ...shown.items, `(${shown.footer.replace(/\.$/, "")})`],
				);
			},
		},
		env,
	);
}

function typeOf(value: unknown): string {
	if (value === null || value === undefined) return "empty";
	if (Array.isArray(value)) return "list";
	if (value instanceof Date) return "date";
	if (typeof value === "boolean") return "checkbox";
	if (typeof value === "number") return "number";
	if (typeof value === "object") return "object";
	return /^\d{4}-\d{2}-\d{2}/.test(String(value as string)) ? "date" : "text";
}

function show(value: unknown): string {
	if (value instanceof Date) return value.toISOString().replace(/T00:00:00\.000Z$/, "");
	const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "null");
	return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
