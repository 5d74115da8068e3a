import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolCallContext, ToolDefinition } from "../../protocol/mcp-types";
import { ToolArgumentError } from "../../protocol/tool-arguments";
import { factsFromText } from "../../vault/notes/note-facts";
import { noteVersion } from "../../vault/notes/note-version";
import { LineTable } from "../../vault/markdown/line-table";
import { defineVaultTool, notePathQuery, textAnswer, type VaultToolEnvironment } from "../kit/tool-kit";
import { VaultToolError } from "../../vault/privacy/visible-vault";
import { assertWritable, reviewAndWrite } from "../kit/write-flow";
import { editProperties, sameValue, withChanges } from "../text/property-edit";
import { isPlainMap, type YamlCodec } from "../../shared/yaml-codec";
import { describeError } from "../../shared/describe-error";

export function createSetPropertiesTool(env: VaultToolEnvironment): ToolDefinition {
	return defineVaultTool(
		{
			name: "set_properties",
			description:
				"Set and/or remove frontmatter properties of a note (creates the frontmatter if needed). Other keys, comments and the rest of the note stay as they are (frontmatter in unusual YAML, such as a {…} map or anchors, is rewritten whole, without its comments). Shown for review unless review is off.",
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
				if (Object.keys(set).length === 0 && remove.length === 0)
					throw new ToolArgumentError(
						'give "set" (an object of properties) and/or "remove" (a list of keys)',
					);
				const both = remove.filter((key) => key in set);
				if (both.length > 0)
					throw new ToolArgumentError(`a key cannot be both set and removed: ${both.join(", ")}`);
				return env.writes.run([path], async () => {
					const text = await env.vault.readText(path);
					if (text === undefined) throw new VaultToolError(`No note "${path}" in the vault.`);
					const newText = withProperties(text, set, remove, env.yaml);
					if (newText === text && Object.keys(set).length === 0 && !hasFrontmatter(text, env.yaml)) {
						throw new VaultToolError(
							`No change: ${path} has no properties (no frontmatter), so there is nothing to remove; nothing was written.`,
						);
					}
					if (newText === text)
						throw new VaultToolError(
							`No change: ${path} already has these properties, so nothing was written.`,
						);
					const outcome = await reviewAndWrite(
						env,
						{ path, oldText: text, newText, isNewNote: false, tool: "set_properties" },
						context,
					);
					if (outcome.kind === "rejected")
						return textAnswer([`Not applied: ${outcome.reason}. ${path} is unchanged.`]);
					const parts = [
						...(Object.keys(set).length > 0 ? [`set ${Object.keys(set).join(", ")}`] : []),
						...(remove.length > 0 ? [`removed ${remove.join(", ")}`] : []),
					];
					return textAnswer([
						`Updated ${path}: ${parts.join("; ")}${outcome.changedByUser ? " (the user changed the text in the review)" : ""}. version ${noteVersion(outcome.text)}`,
					]);
				});
			},
		},
		env,
	);
}

function readSet(value: unknown): Record<string, unknown> {
	if (value === undefined || value === null) return {};
	if (typeof value !== "object" || Array.isArray(value))
		throw new ToolArgumentError('"set" must be an object of property names and values');
	for (const key of Object.keys(value))
		if (key.trim() === "") throw new ToolArgumentError('"set" has an empty property name');
	return value as Record<string, unknown>;
}

function readRemove(value: unknown): string[] {
	if (value === undefined || value === null) return [];
	if (!Array.isArray(value) || value.some((item) => typeof item !== "string" || item.trim() === ""))
		throw new ToolArgumentError('"remove" must be a list of property names');
	return value as string[];
}

function hasFrontmatter(text: string, codec: YamlCodec): boolean {
	return factsFromText("", text, codec).frontmatter !== undefined;
}

/**
 * The note with its frontmatter's properties set and removed (`editProperties`: other lines kept as they are);
 * every byte after the frontmatter is kept, and the text is returned as it is when the properties do not change.
 */
export function withProperties(
	text: string,
	set: Readonly<Record<string, unknown>>,
	remove: readonly string[],
	codec: YamlCodec,
): string {
	const table = new LineTable(text);
	const eol = table.lineEnd;
	const frontmatter = factsFromText("", text, codec).frontmatter;
	let yaml = "";
	if (frontmatter) {
		const lines: string[] = [];
		for (let line = 1; line < frontmatter.endLine; line++) lines.push(table.line(line));
		yaml = lines.join("\n");
	}
	let properties: unknown;
	try {
		properties = codec.parse(yaml) ?? {};
	} catch (error) {
		throw new VaultToolError(
			`the note's frontmatter is not valid YAML (${describeError(error).split("\n", 1)[0] ?? ""}); fix it with edit_note target "frontmatter" first`,
		);
	}
	if (!isPlainMap(properties))
		throw new VaultToolError(
			'the note\'s frontmatter is not a list of key: value properties; fix it with edit_note target "frontmatter" first',
		);
	if (sameValue(withChanges(properties, set, remove), properties)) return text;
	const body = editProperties(yaml, properties, set, remove, codec).replace(/\n$/, "").replace(/\n/g, eol);
	const block = `---${eol}${body === "" ? "" : `${body}${eol}`}---`;
	if (!frontmatter) return `${block}${eol}${text}`;
	const end = table.ends[frontmatter.endLine] ?? text.length;
	return block + text.slice(end);
}
