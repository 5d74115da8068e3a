import { ErrorCode, JsonRpcError, isJsonObject, type JsonObject } from "../../protocol/json-rpc";
import { splitLines } from "../../shared/text-lines";
import { lazyRegExp } from "../../shared/lazy-regexp";
import type { VisibleVault } from "../../vault/privacy/visible-vault";

/** Where prompt notes live unless the user chose another folder. */
export const DEFAULT_PROMPTS_FOLDER = "Claude prompts";
const PAGE_SIZE = 50;

export interface PromptArgument {
	name: string;
	description?: string;
	required?: boolean;
}

interface PromptNote {
	name: string;
	path: string;
	description: string;
	arguments: PromptArgument[];
}

/**
 * Notes in the prompts folder as MCP prompts (Claude Code offers each as `/mcp__<server>__<name>`): the name is the
 * file name (characters other than letters, digits, `_` and `-` become `-`), the description the frontmatter's
 * `description`, the arguments its `arguments` (names, or `{name, description, required}`), and the message the
 * note's body with `{{argument}}` replaced. A note the vault tools may not see (private, hidden) is no prompt.
 */
export class VaultPrompts {
	constructor(
		private readonly vault: VisibleVault,
		private readonly folder: () => string,
	) {}

	async list(params: JsonObject): Promise<JsonObject> {
		await this.vault.refresh();
		const all = this.prompts();
		const start = cursorOf(params);
		const page = all.slice(start, start + PAGE_SIZE);
		const result: JsonObject = {
			prompts: page.map((prompt) => {
				const entry: JsonObject = { name: prompt.name, description: prompt.description };
				if (prompt.arguments.length > 0)
					entry.arguments = prompt.arguments.map((argument) => ({ ...argument }));
				return entry;
			}),
		};
		if (start + PAGE_SIZE < all.length) result.nextCursor = String(start + PAGE_SIZE);
		return result;
	}

	async get(params: JsonObject): Promise<JsonObject> {
		const name = params.name;
		if (typeof name !== "string" || name === "")
			throw new JsonRpcError(ErrorCode.InvalidParams, 'prompts/get needs "name"');
		await this.vault.refresh();
		const prompt = this.prompts().find((candidate) => candidate.name === name);
		if (!prompt)
			throw new JsonRpcError(
				ErrorCode.InvalidParams,
				`Unknown prompt "${name}"; prompts/list names the prompts (notes in the "${this.folderPath()}" folder)`,
			);
		const given = isJsonObject(params.arguments) ? params.arguments : {};
		const missing = prompt.arguments.filter(
			(argument) => argument.required === true && typeof given[argument.name] !== "string",
		);
		if (missing.length > 0)
			throw new JsonRpcError(
				ErrorCode.InvalidParams,
				`Prompt "${name}" needs ${missing.map((argument) => `"${argument.name}"`).join(", ")}`,
			);
		const text = await this.vault.readText(prompt.path);
		if (text === undefined) throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown prompt "${name}"`);
		const facts = this.vault.facts(prompt.path, false);
		const lines = splitLines(text);
		let body = (facts?.frontmatter ? lines.slice(facts.frontmatter.endLine + 1) : lines)
			.join("\n")
			.replace(/^\s*\n/, "");
		body = body.replace(/\{\{\s*([\w-]+)\s*\}\}/g, (whole, key: string) => {
			const value = given[key];
			return typeof value === "string"
				? value
				: prompt.arguments.some((argument) => argument.name === key)
					? ""
					: whole;
		});
		return { description: prompt.description, messages: [{ role: "user", content: { type: "text", text: body } }] };
	}

	private folderPath(): string {
		return this.folder()
			.trim()
			.replace(/^\/+|\/+$/g, "");
	}

	private prompts(): PromptNote[] {
		const folder = this.folderPath();
		const prefix = folder === "" ? "" : `${folder}/`;
		const taken = new Set<string>();
		const prompts: PromptNote[] = [];
		for (const path of this.vault.notePaths()) {
			if (!path.startsWith(prefix)) continue;
			const base = promptName(path);
			let name = base;
			for (let suffix = 2; taken.has(name); suffix++) name = `${base}-${suffix}`;
			taken.add(name);
			const properties = this.vault.frontmatterOf(path)?.properties ?? {};
			const description =
				typeof properties.description === "string" && properties.description.trim() !== ""
					? properties.description.trim()
					: `Prompt from the note ${path}`;
			prompts.push({ name, path, description, arguments: argumentsOf(properties.arguments) });
		}
		return prompts;
	}
}

/** What a prompt's name may not hold; made on first use (lazy-regexp.ts: a `\p{…}` literal costs plugin load). */
const NOT_IN_NAME = lazyRegExp(String.raw`[^\p{L}\p{N}_-]+`, "gu");

function promptName(path: string): string {
	const file = path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/i, "");
	const name = file.replace(NOT_IN_NAME(), "-").replace(/^-+|-+$/g, "");
	return name === "" ? "prompt" : name;
}

function argumentsOf(value: unknown): PromptArgument[] {
	if (!Array.isArray(value)) return [];
	const found: PromptArgument[] = [];
	for (const item of value) {
		if (typeof item === "string" && /^[\w-]+$/.test(item)) found.push({ name: item });
		else if (typeof item === "object" && item !== null && typeof (item as { name?: unknown }).name === "string") {
			const { name, description, required } = item as { name: string; description?: unknown; required?: unknown };
			if (!/^[\w-]+$/.test(name)) continue;
			const argument: PromptArgument = { name };
			if (typeof description === "string") argument.description = description;
			if (typeof required === "boolean") argument.required = required;
			found.push(argument);
		}
	}
	return found;
}

function cursorOf(params: JsonObject): number {
	const cursor = params.cursor;
	if (cursor === undefined) return 0;
	const start = typeof cursor === "string" && /^\d+$/.test(cursor) ? Number(cursor) : NaN;
	if (!Number.isSafeInteger(start)) throw new JsonRpcError(ErrorCode.InvalidParams, "Invalid cursor");
	return start;
}
