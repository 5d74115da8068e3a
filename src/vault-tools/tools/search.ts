import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolDefinition } from "../../protocol/mcp-types";
import { ToolArgumentError } from "../../protocol/tool-arguments";
import { LineTable } from "../../vault/markdown/line-table";
import { englishCommonness, rarity, sampledCommonness, wordFinder, type Commonness } from "../text/word-finder";
import { searchTextOf } from "../../vault/notes/search-text";
import { headingPath } from "../text/edit-targets";
import {
	READ_ONLY,
	defineVaultTool,
	page,
	readCursor,
	readLimit,
	snippet,
	textAnswer,
	type VaultToolEnvironment,
} from "../kit/tool-kit";
import { VaultToolError, type VisibleVault } from "../../vault/privacy/visible-vault";
import { describeError } from "../../shared/describe-error";
import type { RegexScanner } from "../regex/regex-scanner";
import { TextHitList } from "./text-hit-list";
import { WorkSlices } from "../../vault/notes/work-slices";

const MODES = ["text", "regex", "tag", "property", "path"] as const;
type Mode = (typeof MODES)[number];
/** A regex search runs in a worker and is stopped after this long (a pathological pattern must not stall the server). */
const REGEX_BUDGET_MS = 3000;

interface Hit {
	path: string;
	/** 0-based; -1 for a whole-note hit (path mode). Text mode finds it when the hit is shown (from `byteAt`). */
	line: number;
	/** Where on the line the match starts (UTF-16). Text mode finds it when the hit is shown. */
	at: number;
	/** Text mode: where the match starts in the note's search text (UTF-8 bytes). */
	byteAt?: number;
	/** Higher is better. */
	score: number;
	/** Tie-breaks: notes with more hits first. */
	noteHits: number;
	/** The line's text; empty until the hit is shown, when the note is read for it. */
	text: string;
}

/** A note's search text and the text it was made from, for indexes that keep no search texts (Obsidian's). */
interface OwnSearchText {
	text: string;
	bytes: Buffer;
}

export function createSearchTool(env: VaultToolEnvironment): ToolDefinition {
	const own = new Map<string, OwnSearchText>();
	const ownEntry = (path: string, text: string | undefined): OwnSearchText | undefined => {
		if (text === undefined) return undefined;
		let entry = own.get(path);
		if (entry?.text !== text) {
			entry = { text, bytes: searchTextOf(text) };
			own.set(path, entry);
		}
		return entry;
	};
	// Without a promise when the index has it at hand: an await per note adds milliseconds over 10k notes.
	const searchText: SearchTextOf = (vault, path) => {
		if (vault.keepsSearchTexts) return vault.searchText(path);
		const text = vault.textNow(path);
		return typeof text === "object"
			? text.then((resolved) => ownEntry(path, resolved)?.bytes)
			: ownEntry(path, text)?.bytes;
	};
	// The text a shown hit is read from: for a text hit, the one its search text was made from where the tool made
	// it; else the note as it is now (its tags' and properties' lines are the current ones).
	const shownText = async (vault: VisibleVault, path: string, textHit: boolean): Promise<string | undefined> =>
		textHit && !vault.keepsSearchTexts ? own.get(path)?.text : await vault.readText(path);

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
			// Text, regex and path search read the notes' texts and paths, and headings from the facts.
			frontmatter: ({ mode }) => (mode === "tag" ? "tags" : mode === "property" ? "every note" : "none"),
			async run(args: JsonObject, _env, context) {
				const query = args.query;
				if (typeof query !== "string" || query.trim() === "")
					throw new ToolArgumentError('"query" is required and must be non-empty text');
				const mode = readMode(args.mode);
				const folder = readFolder(args.folder);
				const limit = readLimit(args);
				const cursorKey = JSON.stringify(["search", query, mode, folder]);
				const offset = readCursor(args, cursorKey);
				const visible = env.vault.notePaths();
				const notes = folder === "" ? visible : visible.filter((path) => path.startsWith(`${folder}/`));
				if (folder !== "" && notes.length === 0)
					throw new ToolArgumentError(`no notes under folder "${folder}"; use list_notes to see the folders`);
				let hits: RankedHits;
				switch (mode) {
					case "text":
						hits = shownAsHits(await textHits(env.vault, notes, query, searchText));
						break;
					case "regex":
						hits = (await regexHits(env.regex, env.vault, notes, query, context.signal)).sort(compareHits);
						break;
					case "tag":
						hits = (await tagHits(env.vault, notes, query)).sort(compareHits);
						break;
					case "property":
						hits = (await propertyHits(env.vault, notes, query)).sort(compareHits);
						break;
					case "path":
						hits = pathHits(notes, query).sort(compareHits);
						break;
				}
				const shown = page(hits, offset, limit, cursorKey, mode === "path" ? "notes" : "matches");
				const lines: string[] = [];
				const tables = new Map<string, LineTable | undefined>();
				for (const hit of shown.items) {
					if (hit.line < 0) {
						lines.push(hit.path);
						continue;
					}
					let table = tables.get(hit.path);
					if (!tables.has(hit.path)) {
						const text =
							hit.text !== "" && hit.byteAt === undefined
								? undefined
								: await shownText(env.vault, hit.path, hit.byteAt !== undefined);
						table = text === undefined ? undefined : new LineTable(text);
						tables.set(hit.path, table);
					}
					// From the text shown (the index may have lent the note's search text for the scan alone).
					if (hit.byteAt !== undefined) placeTextHit(hit, table, table && searchTextOf(table.text));
					const under = await headingAbove(env.vault, hit.path, hit.line);
					const line = hit.text !== "" ? hit.text : (table?.line(hit.line) ?? "");
					lines.push(
						`${hit.path}:${hit.line + 1}: ${snippet(line, hit.at)}${under ? `  [under "${under}"]` : ""}`,
					);
				}
				lines.push(`(${shown.footer.replace(/\.$/, "")})`);
				if (hits.length === 0)
					lines.splice(
						0,
						lines.length,
						`No ${mode === "path" ? "notes" : "matches"} for ${JSON.stringify(query)} (mode ${mode}${folder ? `, folder "${folder}"` : ""}).`,
					);
				return textAnswer(lines);
			},
		},
		env,
	);
}

function readMode(value: unknown): Mode {
	if (value === undefined || value === null) return "text";
	if (typeof value !== "string" || !(MODES as readonly string[]).includes(value))
		throw new ToolArgumentError(`"mode" must be one of ${MODES.join(", ")}, not ${JSON.stringify(value)}`);
	return value as Mode;
}

export function readFolder(value: unknown): string {
	if (value === undefined || value === null) return "";
	if (typeof value !== "string")
		throw new ToolArgumentError(`"folder" must be a vault folder path, not ${JSON.stringify(value)}`);
	const folder = value
		.trim()
		.replace(/\\/g, "/")
		.replace(/^\.?\/+|\/+$/g, "");
	if (folder.split("/").includes("..")) throw new ToolArgumentError(`"folder" must be inside the vault: ${value}`);
	return folder;
}

/** Hits in rank order, made into objects as they are shown. */
interface RankedHits {
	readonly length: number;
	slice(start: number, end: number): Hit[];
}

function shownAsHits(list: TextHitList): RankedHits {
	return {
		length: list.length,
		slice: (start, end) =>
			list.slice(start, end).map(({ path, byteAt, score, noteHits }) => ({
				path,
				line: 0,
				at: 0,
				byteAt,
				score,
				noteHits,
				text: "",
			})),
	};
}

/** Hits are made in path and line order; the sort is stable, so ties keep that order. */
function compareHits(a: Hit, b: Hit): number {
	return b.score - a.score || b.noteHits - a.noteHits;
}

type SearchTextOf = (vault: VisibleVault, path: string) => Buffer | undefined | Promise<Buffer | undefined>;

async function textHits(
	vault: VisibleVault,
	notes: readonly string[],
	query: string,
	searchText: SearchTextOf,
): Promise<TextHitList> {
	const phrase = query.trim().toLowerCase();
	const words = [...new Set(phrase.split(/\s+/))].sort((a, b) => b.length - a.length);
	const first = words[0] ?? phrase;
	// Lines are found by the word least often in a sample of these notes, then the one whose rarest letter is rarest
	// there (fewest places to look at: "quokka", not "marmalade"); a hit without the phrase is still placed where the
	// longest word first is on its line.
	const sample = sampleNotes(vault, notes);
	const rank = (word: string): [number, number] => [sample.occurrences(word), rarity(word, sample.commonness)];
	const scanned = words.reduce((best, word) => {
		const [often, rarest] = rank(word);
		const [bestOften, bestRarest] = rank(best);
		return often < bestOften || (often === bestOften && rarest < bestRarest) ? word : best;
	}, first);
	const findScanned = wordFinder(scanned, sample.commonness);
	const firstBytes = Buffer.from(first, "utf8");
	// The scanned word is on the line where it was found: only the others are looked for there.
	const others = words.filter((word) => word !== scanned).map((word) => Buffer.from(word, "utf8"));
	const phraseBytes = Buffer.from(phrase, "utf8");
	const hits = new TextHitList();
	const inNote = (path: string, bytes: Buffer): void => {
		let at = findScanned(bytes, 0);
		if (at < 0 || !vault.stillPublic(path)) return;
		const nameBonus = path.toLowerCase().includes(phrase) ? 1 : 0;
		while (at >= 0) {
			// Search texts end every line with "\n" (`searchableText`).
			const lineStart = at > 0 ? bytes.lastIndexOf(LINE_FEED, at - 1) + 1 : 0;
			const lineFeed = bytes.indexOf(LINE_FEED, at);
			const lineEnd = lineFeed < 0 ? bytes.length : lineFeed;
			// A line with the phrase has every word: looked for first, since a common phrase is on most lines found.
			const phraseAt = bytes.indexOf(phraseBytes, lineStart);
			const hasPhrase = phraseAt >= 0 && phraseAt + phraseBytes.length <= lineEnd;
			if (hasPhrase || allWithin(bytes, others, lineStart, lineEnd)) {
				const place = hasPhrase ? phraseAt : scanned === first ? at : bytes.indexOf(firstBytes, lineStart);
				hits.add(path, place, (hasPhrase ? 2 : 1) + nameBonus);
			}
			at = findScanned(bytes, Math.max(lineEnd, at + 1));
		}
	};
	if (vault.keepsSearchTexts) {
		await vault.eachSearchText(notes, inNote);
		return hits;
	}
	const slices = new WorkSlices(vault.pace);
	for (const path of notes) {
		const found = searchText(vault, path);
		const bytes = found instanceof Promise ? await found : found;
		if (bytes) inNote(path, bytes);
		if (slices.due()) await slices.next();
	}
	return hits;
}

/** How many notes' search texts are sampled for how common each byte and each word is. */
const SAMPLED_NOTES = 64;

/** What a sample of the notes says: how common each character is, and how often a word occurs. */
interface NotesSample {
	commonness: Commonness;
	occurrences: (word: string) => number;
}

/**
 * A sample of the notes' search texts (spread over the list), when the index keeps them; English prose's letter
 * frequencies and no counts otherwise (each text would be made just to be sampled).
 */
function sampleNotes(vault: VisibleVault, notes: readonly string[]): NotesSample {
	const unsampled: NotesSample = { commonness: englishCommonness, occurrences: () => 0 };
	if (!vault.keepsSearchTexts || notes.length < SAMPLED_NOTES) return unsampled;
	const sample: Buffer[] = [];
	const step = Math.floor(notes.length / SAMPLED_NOTES);
	for (let position = 0; position < notes.length && sample.length < SAMPLED_NOTES; position += step) {
		const text = vault.searchText(notes[position] ?? "");
		if (text) sample.push(text);
	}
	if (sample.length === 0) return unsampled;
	return {
		commonness: sampledCommonness(sample),
		occurrences: (word) => {
			const bytes = Buffer.from(word, "utf8");
			let count = 0;
			for (const text of sample)
				for (let at = text.indexOf(bytes); at >= 0; at = text.indexOf(bytes, at + bytes.length)) count++;
			return count;
		},
	};
}

/** Whether every word occurs between `start` and `end` (a loop: a callback would be allocated for each line). */
function allWithin(bytes: Buffer, words: readonly Buffer[], start: number, end: number): boolean {
	for (const word of words) if (!occursWithin(bytes, word, start, end)) return false;
	return true;
}

function occursWithin(bytes: Buffer, word: Buffer, start: number, end: number): boolean {
	const found = bytes.indexOf(word, start);
	return found >= 0 && found + word.length <= end;
}

const LINE_FEED = 0x0a;

/**
 * A text hit's line and place on the line, from its byte in the search text: the search text has the note's
 * UTF-16 length (`sameLengthLowerCase`), so the characters before the byte are the note's characters before it.
 */
function placeTextHit(hit: Hit, table: LineTable | undefined, bytes: Buffer | undefined): void {
	const byteAt = hit.byteAt ?? 0;
	const offset =
		!bytes || !table ? 0 : bytes.length === table.text.length ? byteAt : bytes.toString("utf8", 0, byteAt).length;
	hit.line = table ? table.lineAt(offset) : 0;
	hit.at = offset - (table?.starts[hit.line] ?? 0);
}

/**
 * Matches found in a worker (see RegexScanner): the first one on each line, one hit per line. The texts sent are
 * kept only for the scan (the hits' lines are read from them), never between searches.
 */
async function regexHits(
	scanner: RegexScanner,
	vault: VisibleVault,
	notes: readonly string[],
	query: string,
	signal: AbortSignal,
): Promise<Hit[]> {
	const pattern = compileRegex(query);
	const texts = new Map<number, string>();
	const hits: Hit[] = [];
	const keep = (index: number, text: string | undefined): string | undefined => {
		if (text !== undefined) texts.set(index, text);
		return text;
	};
	const outcome = await scanner.scan({
		pattern,
		count: notes.length,
		budgetMs: REGEX_BUDGET_MS,
		signal,
		text(index) {
			const found = vault.textNow(notes[index] ?? "");
			return found instanceof Promise ? found.then((text) => keep(index, text)) : keep(index, found);
		},
		found(index, starts) {
			const text = texts.get(index);
			const path = notes[index];
			if (text === undefined || path === undefined) return;
			const table = new LineTable(text);
			for (const start of starts) {
				const line = table.lineAt(start);
				hits.push({
					path,
					line,
					at: start - (table.starts[line] ?? 0),
					score: 1,
					noteHits: starts.length,
					text: table.line(line),
				});
			}
		},
	});
	texts.clear();
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

async function tagHits(vault: VisibleVault, notes: readonly string[], query: string): Promise<Hit[]> {
	const wanted = query.trim().replace(/^#/, "").toLowerCase();
	if (wanted === "") throw new ToolArgumentError('"query" must name a tag, e.g. "#project"');
	const hits: Hit[] = [];
	const slices = new WorkSlices(vault.pace);
	for (const path of notes) {
		if (slices.due()) await slices.next();
		const tags = vault.tagsOf(path);
		if (!tags) continue;
		let lines: number[] | undefined;
		for (const tag of tags) {
			const lower = tag.tag.toLowerCase();
			if (
				lower !== wanted &&
				!(lower.length > wanted.length && lower.startsWith(wanted) && lower.charAt(wanted.length) === "/")
			)
				continue;
			lines ??= [];
			if (!lines.includes(tag.line)) lines.push(tag.line);
		}
		if (!lines) continue;
		for (const line of lines) hits.push({ path, line, at: 0, score: 1, noteHits: lines.length, text: "" });
	}
	return hits;
}

async function propertyHits(vault: VisibleVault, notes: readonly string[], query: string): Promise<Hit[]> {
	const split = /^([^:=]+?)\s*[:=]\s*(.*)$/s.exec(query.trim());
	const key = (split ? (split[1] ?? "") : query).trim().toLowerCase();
	const value = split
		? (split[2] ?? "")
				.trim()
				.toLowerCase()
				.replace(/^["']|["']$/g, "")
		: undefined;
	const hits: Hit[] = [];
	const slices = new WorkSlices(vault.pace);
	for (const path of notes) {
		if (slices.due()) await slices.next();
		const frontmatter = vault.frontmatterOf(path);
		const properties = frontmatter?.properties;
		if (!properties) continue;
		const name = lowerCaseKeys(properties).get(key);
		if (name === undefined) continue;
		if (value !== undefined && value !== "" && !valueMatches(properties[name], value)) continue;
		hits.push({ path, line: frontmatter?.keyLines[name] ?? 0, at: 0, score: 1, noteHits: 1, text: "" });
	}
	return hits;
}

const keysByLowerCase = new WeakMap<Record<string, unknown>, Map<string, string>>();

/** A note's property names by their lower-case spelling, kept as long as the parsed properties are. */
function lowerCaseKeys(properties: Record<string, unknown>): Map<string, string> {
	let keys = keysByLowerCase.get(properties);
	if (!keys) {
		keys = new Map();
		for (const name of Object.keys(properties))
			if (!keys.has(name.toLowerCase())) keys.set(name.toLowerCase(), name);
		keysByLowerCase.set(properties, keys);
	}
	return keys;
}

function valueMatches(value: unknown, wanted: string): boolean {
	if (Array.isArray(value)) return value.some((item) => valueMatches(item, wanted));
	if (value === null || value === undefined) return wanted === "null" || wanted === "";
	if (value instanceof Date)
		return value.toISOString().slice(0, 10) === wanted || value.toISOString().toLowerCase() === wanted;
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
		const score =
			name === wanted || `${name}.md` === wanted
				? 4
				: name.startsWith(wanted)
					? 3
					: name.includes(wanted)
						? 2
						: 1;
		hits.push({ path, line: -1, at: 0, score, noteHits: -path.length, text: "" });
	}
	return hits;
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
