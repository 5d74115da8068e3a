import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolDefinition } from "../../protocol/mcp-types";
import { ToolArgumentError, optionalBoolean } from "../../protocol/tool-arguments";
import { LineTable } from "../../vault/markdown/line-table";
import {
	READ_ONLY,
	defineVaultTool,
	encodeCursor,
	notePathQuery,
	page,
	readCursor,
	readLimit,
	snippet,
	textAnswer,
	type VaultToolEnvironment,
} from "../kit/tool-kit";
import { VaultToolError } from "../../vault/privacy/visible-vault";

const DIRECTIONS = ["in", "out", "both"] as const;

interface Entry {
	direction: "in" | "out";
	source: string;
	line: number;
	at: number;
	original: string;
	target?: string;
}

/**
 * How long a page of backlinks may look for them, from the call's start (its refresh included): a vault's first
 * session finds them by reading every note (2.5 s at 100k notes), so a page answers from the notes it looked at in
 * that time, in path order. Issue 31's goal is no page over 1 s; the rest is for reading the lines shown, the answer's
 * way back, and what the page's clock cannot see: a fresh server's first call waits for the listing of the folder
 * its warm-up began before the call came (at 100k, load 2-4: a page looking for 700 ms took 1,009 ms).
 */
export const BACKLINKS_PAGE_MS = 500;

export interface LinksToolOptions {
	/** `BACKLINKS_PAGE_MS` unless given (a test makes every page stop early). */
	pageTimeMs?: number;
}

export function createLinksTool(env: VaultToolEnvironment, options: LinksToolOptions = {}): ToolDefinition {
	const pageTimeMs = options.pageTimeMs ?? BACKLINKS_PAGE_MS;
	return defineVaultTool(
		{
			name: "links",
			description:
				"A note's backlinks (in: links from other notes to it) and outgoing links (out), each as `<note>:<line>: <linking line>` with the link and where it leads; unresolved links are marked. unresolved: true lists only its unresolved outgoing links. Paged.",
			properties: {
				path: { type: "string", description: "vault path or note name" },
				direction: { type: "string", enum: [...DIRECTIONS], description: "default both" },
				unresolved: { type: "boolean" },
				limit: { type: "integer", minimum: 1, maximum: 100 },
				cursor: { type: "string" },
			},
			required: ["path"],
			annotations: READ_ONLY,
			// Of the frontmatter, links only read its links: the note's own and the backlinks', or the backlinks' alone.
			frontmatter: ({ direction }) => (direction === "in" ? "backlinks" : "links"),
			async run(args: JsonObject, _env, _context, started) {
				const path = env.vault.locateNote(notePathQuery(args));
				const direction = args.direction ?? "both";
				if (typeof direction !== "string" || !(DIRECTIONS as readonly string[]).includes(direction))
					throw new ToolArgumentError(
						`"direction" must be in, out or both, not ${JSON.stringify(direction)}`,
					);
				const onlyUnresolved = optionalBoolean(args, "unresolved", "links", false);
				if (onlyUnresolved && direction === "in")
					throw new ToolArgumentError(
						'"unresolved" lists outgoing links that lead nowhere; it cannot be combined with direction "in"',
					);
				const limit = readLimit(args);
				const cursorKey = JSON.stringify(["links", path, direction, onlyUnresolved]);
				const offset = readCursor(args, cursorKey);
				const entries: Entry[] = [];
				let outCount = 0;
				let unresolvedCount = 0;
				if (direction !== "in") {
					const facts = env.vault.facts(path);
					if (!facts) throw new VaultToolError(`No note "${path}" in the vault.`);
					for (const link of facts.links) {
						if (onlyUnresolved && link.target !== undefined) continue;
						outCount++;
						if (link.target === undefined) unresolvedCount++;
						const entry: Entry = {
							direction: "out",
							source: path,
							line: link.line,
							at: link.start,
							original: link.original,
						};
						if (link.target !== undefined) entry.target = link.target;
						entries.push(entry);
					}
				}
				let inCount = 0;
				const inNotes = new Set<string>();
				/** Set while the backlinks are those of a part of the vault: the share of the notes looked at. */
				let partial: { looked: number; notes: number } | undefined;
				if (direction !== "out" && !onlyUnresolved) {
					// Enough for this page (each linking note has a link or more), or the whole vault when its pace says it
					// can be looked at in the page's time (its total is then said at once).
					const deadline = started + pageTimeMs;
					const found = await env.vault.backlinksFrom(path, {
						sources: offset + limit - outCount,
						deadline,
						finishBy: deadline,
					});
					if (!found.complete) partial = found;
					// A note's links to its own headings (`[[#Part]]`) are not backlinks, as in Obsidian's backlinks pane.
					const backlinks = found.backlinks.filter((backlink) => backlink.source !== path);
					backlinks.sort(
						(a, b) =>
							(a.source < b.source ? -1 : a.source > b.source ? 1 : 0) ||
							a.link.line - b.link.line ||
							a.link.start - b.link.start,
					);
					for (const backlink of backlinks) {
						inCount++;
						inNotes.add(backlink.source);
						entries.push({
							direction: "in",
							source: backlink.source,
							line: backlink.link.line,
							at: backlink.link.start,
							original: backlink.link.original,
							target: path,
						});
					}
				}
				const shown = partial
					? partialPage(entries, offset, limit, cursorKey)
					: page(entries, offset, limit, cursorKey, "links");
				const tables = new Map<string, LineTable>();
				const lines: string[] = [];
				const summary: string[] = [];
				if (direction !== "in")
					summary.push(
						`${outCount} outgoing${onlyUnresolved ? " unresolved" : unresolvedCount > 0 ? ` (${unresolvedCount} unresolved)` : ""}`,
					);
				if (partial)
					summary.push(
						`at least ${inCount} backlinks from ${inNotes.size} notes so far (still reading the vault: ${lookedShare(partial)} of its notes looked at)`,
					);
				else if (direction !== "out" && !onlyUnresolved)
					summary.push(`${inCount} backlinks from ${inNotes.size} notes`);
				lines.push(`${path}: ${summary.join(", ")}`);
				for (const entry of shown.items) {
					let table = tables.get(entry.source);
					if (!table) {
						table = new LineTable((await env.vault.readText(entry.source)) ?? "");
						tables.set(entry.source, table);
					}
					const where = entry.direction === "out" ? ` → ${entry.target ?? "UNRESOLVED"}` : "";
					lines.push(
						`${entry.direction} ${entry.source}:${entry.line + 1}: ${snippet(table.line(entry.line), entry.at)} | ${entry.original}${where}`,
					);
				}
				lines.push(`(${shown.footer.replace(/\.$/, "")})`);
				return textAnswer(lines);
			},
		},
		env,
	);
}

/** A page of a list known only in part so far: it may hold fewer than `limit` entries, and always gives a cursor. */
function partialPage<T>(
	entries: readonly T[],
	offset: number,
	limit: number,
	query: string,
): { items: T[]; footer: string } {
	const items = entries.slice(offset, offset + limit);
	const last = offset + items.length;
	const showing = items.length > 0 ? `showing ${offset + 1}-${last}` : "none more found yet";
	return { items, footer: `${showing}; more may follow. More: cursor "${encodeCursor(last, query)}".` };
}

/** The share of the notes looked at, in whole percent, below 100 while some are left. */
function lookedShare({ looked, notes }: { looked: number; notes: number }): string {
	return `${Math.min(99, Math.floor((looked * 100) / notes))}%`;
}
