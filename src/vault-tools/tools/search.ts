import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolDefinition } from "../../protocol/mcp-types";
import { ToolArgumentError } from "../../protocol/tool-arguments";
import { LineTable } from "../../vault/markdown/line-table";
import { wordFinder } from "../text/word-finder";
import { headingPath } from "../text/edit-targets";
import { READ_ONLY, defineVaultTool, page, readCursor, readLimit, snippet, textAnswer, type VaultToolEnvironment } from "../kit/tool-kit";
import { VaultToolError, type VisibleVault } from "../../vault/privacy/visible-vault";
import { describeError } from "../../shared/describe-error";
import type { RegexScanner } from "../regex/regex-scanner";

const MODES = ["text", "regex", "tag", "property", "path"] as const;
type Mode = (typeof MODES)[number];
/** A regex search runs in a worker and is stopped after this long (a pathological pattern must not stall the server). */
const REGEX_BUDGET_MS = 3000;

interface Hit {
	path: string;
	/** 0-based; -1 for a whole-note hit (path mode). */
	line: number;
	/** Where on the line the match starts. */
	at: number;
	/** Higher is better. */
	score: number;
	/** Tie-breaks: notes with more hits first. */
	noteHits: number;
	text: string;
}

interface CachedText {
	text: string;
	lower: string;
	table?: LineTable;
}

export function createSearchTool(env: VaultToolEnvironment): ToolDefinition {
	const texts = new Map<string, CachedText>();
	const entryOf = (path: string, text: string | undefined): CachedText | undefined => {
		if (text === undefined) return undefined;
		let entry = texts.get(path);
		if (entry?.text !== text) {
			entry = { text, lower: sameLengthLowerCase(text) };
			texts.set(path, entry);
		}
		return entry;
	};
	// Without a promise when the index has the text at hand: an await per note adds milliseconds over 10k notes.
	const cached: TextCache = (vault, path) => {
		const text = vault.textNow(path);
		return typeof text === "object" ? text.then((resolved) => entryOf(path, resolved)) : entryOf(path, text);
	};
	const tableOf = (entry: CachedText): LineTable => (entry.table ??= new LineTable(entry.text));

	return defineVaultTool(
		{
			name: "search",
			description:
				"Search the Obsidian vault's notes. Modes: text (case-insensitive; every word on one line, exact phrase ranked first), regex (JavaScript, /re/flags allowed; stopped with an error after 3 s), tag (#tag, nested tags included), property (key or key: value in frontmatter), path (part of the note's path). Answers one line per match, best first: `<path>:<line>: <text>` (lines 1-based) with the heading it is under; paged with total and cursor.",
			properties: {
				query: { type: "string" },
				mode: { type: "string", enum: [...MODES], description: "default text" },
				folder: { type: "string", description: "only notes under this folder" },
				limit: { type: "integer", minimum: 1, maximum: 100, description: "default 20" },
				cursor: { type: "string", description: "from the previous page" },
			},
			required: ["query"],
			annotations: READ_ONLY,
			async run(args: JsonObject, _env, context) {
				const query = args.query;
				if (typeof query !== "string" || query.trim() === "") throw new ToolArgumentError('"query" is required and must be non-empty text');
				const mode = readMode(args.mode);
				const folder = readFolder(args.folder);
				const limit = readLimit(args);
				const cursorKey = JSON.stringify(["search", query, mode, folder]);
				const offset = readCursor(args, cursorKey);
				const notes = env.vault.notePaths().filter((path) => folder === "" || path.startsWith(`${folder}/`));
				if (folder !== "" && notes.length === 0) throw new ToolArgumentError(`no notes under folder "${folder}"; use list_notes to see the folders`);
				let hits: Hit[];
				switch (mode) {
					case "text":
						hits = await textHits(env.vault, notes, query, cached, tableOf);
						break;
					case "regex":
						hits = await regexHits(env.regex, env.vault, notes, query, cached, tableOf, context.signal);
						break;
					case "tag":
						hits = await tagHits(env.vault, notes, query, cached, tableOf);
						break;
					case "property":
						hits = await propertyHits(env.vault, notes, query, cached, tableOf);
						break;
					case "path":
						hits = pathHits(notes, query);
						break;
				}
				hits.sort(compareHits);
				const shown = page(hits, offset, limit, cursorKey, mode === "path" ? "notes" : "matches");
				const lines: string[] = [];
				for (const hit of shown.items) {
					if (hit.line < 0) {
						lines.push(hit.path);
						continue;
					}
					const under = await headingAbove(env.vault, hit.path, hit.line);
					const line = hit.text !== "" ? hit.text : await lineOf(env.vault, hit.path, hit.line, cached, tableOf);
					lines.push(`${hit.path}:${hit.line + 1}: ${snippet(line, hit.at)}${under ? `  [under "${under}"]` : ""}`);
				}
				lines.push(`(${shown.footer.replace(/\.$/, "")})`);
				if (hits.length === 0) lines.splice(0, lines.length, `No ${mode === "path" ? "notes" : "matches"} for ${JSON.stringify(query)} (mode ${mode}${folder ? `, folder "${folder}"` : ""}).`);
				return textAnswer(lines);
			},
		},
		env,
	);
}

function readMode(value: unknown): Mode {
	if (value === undefined || value === null) return "text";
	if (typeof value !== "string" || !(MODES as readonly string[]).includes(value)) throw new ToolArgumentError(`"mode" must be one of ${MODES.join(", ")}, not ${JSON.stringify(value)}`);
	return value as Mode;
}

export function readFolder(value: unknown): string {
	if (value === undefined || value === null) return "";
	if (typeof value !== "string") throw new ToolArgumentError(`"folder" must be a vault folder path, not ${JSON.stringify(value)}`);
	const folder = value.trim().replace(/\\/g, "/").replace(/^\.?\/+|\/+$/g, "");
	if (folder.split("/").includes("..")) throw new ToolArgumentError(`"folder" must be inside the vault: ${value}`);
	return folder;
}

/** Lower case with every offset kept (a few characters, like "İ", grow when lower-cased: those stay as they are). */
function sameLengthLowerCase(text: string): string {
	const lower = text.toLowerCase();
	if (lower.length === text.length) return lower;
	return Array.from(text, (character) => {
		const lowered = character.toLowerCase();
		return lowered.length === character.length ? lowered : character;
	}).join("");
}

/** Hits are made in path and line order; the sort is stable, so ties keep that order. */
function compareHits(a: Hit, b: Hit): number {
	return b.score - a.score || b.noteHits - a.noteHits;
}

type TextCache = (vault: VisibleVault, path: string) => CachedText | undefined | Promise<CachedText | undefined>;
type TableOf = (entry: CachedText) => LineTable;

async function textHits(vault: VisibleVault, notes: readonly string[], query: string, cached: TextCache, tableOf: TableOf): Promise<Hit[]> {
	const phrase = query.trim().toLowerCase();
	const words = [...new Set(phrase.split(/\s+/))].sort((a, b) => b.length - a.length);
	const first = words[0] ?? phrase;
	const findFirst = wordFinder(first);
	const hits: Hit[] = [];
	for (const path of notes) {
		const found = cached(vault, path);
		const entry = found instanceof Promise ? await found : found;
		if (!entry) continue;
		let at = findFirst(entry.lower, 0);
		if (at < 0) continue;
		const table = tableOf(entry);
		const noteHits: Hit[] = [];
		const nameBonus = path.toLowerCase().includes(phrase) ? 1 : 0;
		while (at >= 0) {
			const line = table.lineAt(at);
			const lineStart = table.starts[line] ?? 0;
			const lineEnd = table.ends[line] ?? entry.text.length;
			if (words.length === 1 || words.every((word) => occursWithin(entry.lower, word, lineStart, lineEnd))) {
				const phraseAt = entry.lower.indexOf(phrase, lineStart);
				const hasPhrase = phraseAt >= 0 && phraseAt + phrase.length <= lineEnd;
				noteHits.push({ path, line, at: (hasPhrase ? phraseAt : at) - lineStart, score: (hasPhrase ? 2 : 1) + nameBonus, noteHits: 0, text: "" });
			}
			at = findFirst(entry.lower, Math.max(lineEnd, at + 1));
		}
		for (const hit of noteHits) hit.noteHits = noteHits.length;
		for (const hit of noteHits) hits.push(hit);
	}
	return hits;
}

function occursWithin(text: string, word: string, start: number, end: number): boolean {
	const found = text.indexOf(word, start);
	return found >= 0 && found + word.length <= end;
}

/** Matches found in a worker (see RegexScanner): the first one on each line, one hit per line, as before. */
async function regexHits(scanner: RegexScanner, vault: VisibleVault, notes: readonly string[], query: string, cached: TextCache, tableOf: TableOf, signal: AbortSignal): Promise<Hit[]> {
	const pattern = compileRegex(query);
	const entries: (CachedText | undefined)[] = [];
	const hits: Hit[] = [];
	const outcome = await scanner.scan({
		pattern,
		count: notes.length,
		budgetMs: REGEX_BUDGET_MS,
		signal,
		text(index) {
			const found = cached(vault, notes[index] ?? "");
			if (!(found instanceof Promise)) return (entries[index] = found)?.text;
			return found.then((entry) => (entries[index] = entry)?.text);
		},
		found(index, starts) {
			const entry = entries[index];
			const path = notes[index];
			if (!entry || path === undefined) return;
			const table = tableOf(entry);
			for (const start of starts) {
				const line = table.lineAt(start);
				hits.push({ path, line, at: start - (table.starts[line] ?? 0), score: 1, noteHits: starts.length, text: table.line(line) });
			}
		},
	});
	switch (outcome.kind) {
		case "done":
			return hits;
		case "stopped":
			if (outcome.why === "cancelled") throw new VaultToolError("the search was cancelled");
			throw new ToolArgumentError(
				`the regular expression did not finish within ${REGEX_BUDGET_MS / 1000} s and was stopped (${outcome.searched} of ${notes.length} notes searched). Nested repetition such as (\\w+\\s?)+ can take exponential time on a line that almost matches: remove the nesting (e.g. ^[\\w\\s]+$), make the pattern more specific, or pass folder to search fewer notes.`,
			);
		case "failed":
			throw new VaultToolError(`regex mode could not run: ${outcome.message}. The other modes still work.`);
	}
}

function compileRegex(query: string): RegExp {
	const literal = /^\/(.+)\/([a-z]*)$/s.exec(query);
	const source = literal ? (literal[1] ?? "") : query;
	const flags = new Set((literal?.[2] ?? "").split("").filter((flag) => "imsuv".includes(flag)));
	flags.add("g");
	flags.add("m");
	try {
		return new RegExp(source, [...flags].join(""));
	} catch (error) {
		throw new ToolArgumentError(`"query" is not a valid regular expression: ${describeError(error)}`);
	}
}

async function tagHits(vault: VisibleVault, notes: readonly string[], query: string, cached: TextCache, tableOf: TableOf): Promise<Hit[]> {
	const wanted = query.trim().replace(/^#/, "").toLowerCase();
	if (wanted === "") throw new ToolArgumentError('"query" must name a tag, e.g. "#project"');
	const hits: Hit[] = [];
	for (const path of notes) {
		const tags = vault.tagsOf(path);
		if (!tags) continue;
		let lines: number[] | undefined;
		for (const tag of tags) {
			const lower = tag.tag.toLowerCase();
			if (lower !== wanted && !(lower.length > wanted.length && lower.startsWith(wanted) && lower.charAt(wanted.length) === "/")) continue;
			lines ??= [];
			if (!lines.includes(tag.line)) lines.push(tag.line);
		}
		if (!lines) continue;
		const entry = await cached(vault, path);
		if (!entry) continue;
		const table = tableOf(entry);
		for (const line of lines) hits.push({ path, line, at: 0, score: 1, noteHits: lines.length, text: table.line(line) });
	}
	return hits;
}

async function propertyHits(vault: VisibleVault, notes: readonly string[], query: string, cached: TextCache, tableOf: TableOf): Promise<Hit[]> {
	const split = /^([^:=]+?)\s*[:=]\s*(.*)$/s.exec(query.trim());
	const key = (split ? (split[1] ?? "") : query).trim().toLowerCase();
	const value = split ? (split[2] ?? "").trim().toLowerCase().replace(/^["']|["']$/g, "") : undefined;
	const hits: Hit[] = [];
	for (const path of notes) {
		const frontmatter = vault.frontmatterOf(path);
		const properties = frontmatter?.properties;
		if (!properties) continue;
		const name = lowerCaseKeys(properties).get(key);
		if (name === undefined) continue;
		if (value !== undefined && value !== "" && !valueMatches(properties[name], value)) continue;
		const entry = await cached(vault, path);
		if (!entry) continue;
		const line = frontmatter?.keyLines[name] ?? 0;
		hits.push({ path, line, at: 0, score: 1, noteHits: 1, text: tableOf(entry).line(line) });
	}
	return hits;
}

const keysByLowerCase = new WeakMap<Record<string, unknown>, Map<string, string>>();

/** A note's property names by their lower-case spelling, kept as long as the parsed properties are. */
function lowerCaseKeys(properties: Record<string, unknown>): Map<string, string> {
	let keys = keysByLowerCase.get(properties);
	if (!keys) {
		keys = new Map();
		for (const name of Object.keys(properties)) if (!keys.has(name.toLowerCase())) keys.set(name.toLowerCase(), name);
		keysByLowerCase.set(properties, keys);
	}
	return keys;
}

function valueMatches(value: unknown, wanted: string): boolean {
	if (Array.isArray(value)) return value.some((item) => valueMatches(item, wanted));
	if (value === null || value === undefined) return wanted === "null" || wanted === "";
	if (value instanceof Date) return value.toISOString().slice(0, 10) === wanted || value.toISOString().toLowerCase() === wanted;
	const text = typeof value === "object" ? JSON.stringify(value) : String(value as string | number | boolean);
	return text.length === wanted.length && text.toLowerCase() === wanted;
}

function pathHits(notes: readonly string[], query: string): Hit[] {
	const wanted = query.trim().toLowerCase().replace(/\\/g, "/");
	const hits: Hit[] = [];
	for (const path of notes) {
		const lower = path.toLowerCase();
		if (!lower.includes(wanted)) continue;
		const name = lower.slice(lower.lastIndexOf("/") + 1).replace(/\.md$/, "");
		const score = name === wanted || `${name}.md` === wanted ? 4 : name.startsWith(wanted) ? 3 : name.includes(wanted) ? 2 : 1;
		hits.push({ path, line: -1, at: 0, score, noteHits: -path.length, text: "" });
	}
	return hits;
}

async function lineOf(vault: VisibleVault, path: string, line: number, cached: TextCache, tableOf: TableOf): Promise<string> {
	const entry = await cached(vault, path);
	return entry ? tableOf(entry).line(line) : "";
}

async function headingAbove(vault: VisibleVault, path: string, line: number): Promise<string | undefined> {
	const facts = vault.facts(path, false);
	if (!facts) return undefined;
	let index = -1;
	for (let position = 0; position < facts.headings.length; position++) {
		if ((facts.headings[position]?.line ?? Infinity) <= line) index = position;
		else break;
	}
	return index < 0 ? undefined : headingPath(facts.headings, index);
}
