import { isCollection, isNode, parseDocument } from "yaml";
import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolCallContext, ToolDefinition } from "../../protocol/mcp-types";
import { ToolArgumentError } from "../../protocol/tool-arguments";
import { factsFromText } from "../../vault/notes/note-facts";
import { noteVersion } from "../../vault/notes/note-version";
import { LineTable } from "../../vault/markdown/line-table";
import { defineVaultTool, notePathQuery, textAnswer, type VaultToolEnvironment } from "../kit/tool-kit";
import { VaultToolError } from "../../vault/privacy/visible-vault";
import { assertWritable, reviewAndWrite } from "../kit/write-flow";

export function createSetPropertiesTool(env: VaultToolEnvironment): ToolDefinition {
	return defineVaultTool(
		{
			name: "set_properties",
			description: "Set and/or remove frontmatter properties of a note (creates the frontmatter if needed). Other keys, comments and the rest of the note stay as they are. Shown for review unless review is off.",
			properties: {
				path: { type: "string" },
				set: { type: "object", description: "key: value (JSON values; lists for tags/aliases)" },
				remove: { type: "array", items: { type: "string" } },
			},
			required: ["path"],
			annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
			async run(args: JsonObject, _env, context: ToolCallContext) {
				assertWritable(env, "set_properties");
				const path = env.vault.locateNote(notePathQuery(args));
				const set = readSet(args.set);
				const remove = readRemove(args.remove);
				if (Object.keys(set).length === 0 && remove.length === 0) throw new ToolArgumentError('give "set" (an object of properties) and/or "remove" (a list of keys)');
				const both = remove.filter((key) => key in set);
				if (both.length > 0) throw new ToolArgumentError(`a key cannot be both set and removed: ${both.join(", ")}`);
				return env.writes.run([path], async () => {
					const text = await env.vault.readText(path);
					if (text === undefined) throw new VaultToolError(`No note "${path}" in the vault.`);
					const newText = withProperties(text, set, remove);
					if (newText === text && Object.keys(set).length === 0 && !hasFrontmatter(text)) {
						throw new VaultToolError(`No change: ${path} has no properties (no frontmatter), so there is nothing to remove; nothing was written.`);
					}
					if (newText === text) throw new VaultToolError(`No change: ${path} already has these properties, so nothing was written.`);
					const outcome = await reviewAndWrite(env, { path, oldText: text, newText, isNewNote: false, tool: "set_properties" }, context);
					if (outcome.kind === "rejected") return textAnswer([`Not applied: ${outcome.reason}. ${path} is unchanged.`]);
					const parts = [...(Object.keys(set).length > 0 ? [`set ${Object.keys(set).join(", ")}`] : []), ...(remove.length > 0 ? [`removed ${remove.join(", ")}`] : [])];
					return textAnswer([`Updated ${path}: ${parts.join("; ")}${outcome.changedByUser ? " (the user changed the text in the review)" : ""}. version ${noteVersion(outcome.text)}`]);
				});
			},
		},
		env,
	);
}

function readSet(value: unknown): Record<string, unknown> {
	if (value === undefined || value === null) return {};
	if (typeof value !== "object" || Array.isArray(value)) throw new ToolArgumentError('"set" must be an object of property names and values');
	for (const key of Object.keys(value)) if (key.trim() === "") throw new ToolArgumentError('"set" has an empty property name');
	return value as Record<string, unknown>;
}

function readRemove(value: unknown): string[] {
	if (value === undefined || value === null) return [];
	if (!Array.isArray(value) || value.some((item) => typeof item !== "string" || item.trim() === "")) throw new ToolArgumentError('"remove" must be a list of property names');
	return value as string[];
}

function hasFrontmatter(text: string): boolean {
	return factsFromText("", text).frontmatter !== undefined;
}

/** The note with its frontmatter changed through the YAML document model; every byte after the frontmatter is kept. */
export function withProperties(text: string, set: Record<string, unknown>, remove: readonly string[]): string {
	const table = new LineTable(text);
	const eol = table.lineEnd;
	const frontmatter = factsFromText("", text).frontmatter;
	let yaml = "";
	if (frontmatter) {
		const lines: string[] = [];
		for (let line = 1; line < frontmatter.endLine; line++) lines.push(table.line(line));
		yaml = lines.join("\n");
	}
	const document = parseDocument(yaml);
	if (document.errors.length > 0) throw new VaultToolError(`the note's frontmatter is not valid YAML (${document.errors[0]?.message.split("\n", 1)[0] ?? ""}); fix it with edit_note target "frontmatter" first`);
	if (document.contents !== null && !(document.contents && typeof document.contents === "object" && "items" in document.contents && !Array.isArray(document.toJS()))) {
		throw new VaultToolError("the note's frontmatter is not a list of key: value properties; fix it with edit_note target \"frontmatter\" first");
	}
	// No padding in [a, b] and no folding of long values, so untouched keys keep their usual spelling.
	const format = { flowCollectionPadding: false, lineWidth: 0 };
	const before = document.toString(format);
	for (const [key, value] of Object.entries(set)) {
		// A new value keeps the old one's style ([a, b] stays a flow list) and its comment.
		const previous: unknown = document.get(key, true);
		const node = document.createNode(value);
		if (isCollection(previous) && previous.flow && isCollection(node)) node.flow = true;
		if (isNode(previous) && previous.comment) node.comment = previous.comment;
		document.set(key, node);
	}
	// A note without properties has none to remove (and the YAML model has no map to remove them from).
	if (document.contents !== null) for (const key of remove) document.delete(key);
	const after = document.toString(format);
	if (frontmatter && after === before) return text;
	if (!frontmatter && Object.keys(set).length === 0) return text;
	const body = (after.trim() === "{}" || after.trim() === "" ? "" : after).replace(/\n$/, "").replace(/\n/g, eol);
	const block = `---${eol}${body === "" ? "" : `${body}${eol}`}---`;
	if (!frontmatter) return `${block}${eol}${text}`;
	const end = table.ends[frontmatter.endLine] ?? text.length;
	return block + text.slice(end);
}
