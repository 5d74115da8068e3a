/**
 * Benchmark (not a test): Claude's vault tools on a generated 10k-note vault, answered in process by the folder
 * adapter (what the stdio server does when Obsidian is closed). Each note gets about 3.5 KB of prose (about 37 MB
 * in all, like the vault of vault-tools-research.md §6). One note has 200 backlinks written in many link forms; a
 * rare phrase is planted in 3 notes. Prints a Markdown table with the targets, then the figures as one
 * line of JSON. Run: npm run bench:vault-tools [-- --notes N].
 */
import { VaultPaths } from "../src/vault/vault-paths";
import type { ToolDefinition } from "../src/protocol/mcp-types";
import { createVaultTools } from "../src/vault-tools/create-vault-tools";
import { FolderVaultIndex } from "../src/vault/folder/folder-vault-index";
import { makeTempDir } from "../tests/helpers/temp-dir";
import { generateLinkedVault } from "./vault-generator";
import { POPULAR, VAULT_TOOLS_TARGETS, addPopularNote, addProse } from "./vault-tools-corpus";
import { VisibleVault } from "../src/vault/privacy/visible-vault";
import { libraryYamlCodec } from "../src/vault/folder/yaml-library-codec";

export interface Timing {
	p50Ms: number;
	p95Ms: number;
	runs: number;
}

export interface VaultToolsBenchmark {
	notes: number;
	vaultMegabytes: number;
	firstSearchColdMs: number;
	searchRarePhrase: Timing;
	searchCommonWord: Timing;
	searchTag: Timing;
	searchProperty: Timing;
	searchPath: Timing;
	/** Regex mode (worker threads since issue 15): a rare match, and a line in every note. */
	searchRegexRare: Timing;
	searchRegexEveryNote: Timing;
	/** The longest the main thread was held while regex searches ran (those two and a slow pattern), and while text search ran. */
	regexMainThreadMaxMs: number;
	textMainThreadMaxMs: number;
	firstLinksMs: number;
	links200Backlinks: Timing;
	moveNoteMs: number;
	moveLinksUpdated: string;
	unresolvedBefore: number;
	unresolvedAfter: number;
	toolsListChars: number;
}

const TARGETS = VAULT_TOOLS_TARGETS;
function timing(samples: number[]): Timing {
	const sorted = [...samples].sort((a, b) => a - b);
	const at = (fraction: number): number =>
		sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
	return { p50Ms: round(at(0.5)), p95Ms: round(at(0.95)), runs: samples.length };
}

function round(ms: number): number {
	return Math.round(ms * 100) / 100;
}

const context = { sessionId: 1, signal: new AbortController().signal };

async function call(tool: ToolDefinition | undefined, args: Record<string, unknown>): Promise<string> {
	if (!tool) throw new Error("missing tool");
	const result = await tool.call(args, context);
	const text = result.content.map((block) => block.text).join("\n");
	if (result.isError) throw new Error(`${tool.name} ${JSON.stringify(args)} failed: ${text}`);
	return text;
}

async function repeat(runs: number, action: () => Promise<unknown>): Promise<Timing> {
	const samples: number[] = [];
	for (let run = 0; run < runs; run++) {
		const start = performance.now();
		await action();
		samples.push(performance.now() - start);
	}
	return timing(samples);
}

/**
 * Runs each search, with a turn of the event loop between them, and reports the longest stretch the main thread
 * could not run a 1 ms interval: one search's own hold (plus any time the OS did not run the process).
 * perf_hooks' monitorEventLoopDelay reported 0–5 ms here for a search that held the thread for 3 s, so the gap
 * is measured directly.
 */
async function longestBlock(searches: readonly (() => Promise<unknown>)[]): Promise<number> {
	let last = performance.now();
	let longest = 0;
	const ticker = setInterval(() => {
		const now = performance.now();
		longest = Math.max(longest, now - last);
		last = now;
	}, 1);
	for (const search of searches) {
		await search();
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
	clearInterval(ticker);
	return round(longest);
}

async function unresolvedLinks(root: string): Promise<number> {
	const index = new FolderVaultIndex({ root, watch: false });
	try {
		await index.refresh();
		let unresolved = 0;
		for (const path of index.notePaths())
			for (const link of index.facts(path)?.links ?? []) if (link.target === undefined) unresolved++;
		return unresolved;
	} finally {
		index.dispose();
	}
}

export async function benchmarkVaultTools(count = 10_000): Promise<VaultToolsBenchmark> {
	const temp = makeTempDir("bench-vault-tools");
	const root = temp.path;
	const index = new FolderVaultIndex({ root });
	try {
		generateLinkedVault(root, count);
		const proseBytes = addProse(root, count);
		addPopularNote(root, count);
		const unresolvedBefore = await unresolvedLinks(root);
		const tools = new Map(
			createVaultTools({
				yaml: libraryYamlCodec,
				vault: new VisibleVault({ index, paths: new VaultPaths(root), isPrivate: () => false }),
			}).map((tool) => [tool.name, tool]),
		);
		const search = tools.get("search");
		const toolsListChars = JSON.stringify(
			[...tools.values()].map((tool) => ({
				name: tool.name,
				description: tool.description,
				inputSchema: tool.inputSchema,
				annotations: tool.annotations,
			})),
		).length;

		let start = performance.now();
		const first = await call(search, { query: "quokka marmalade" });
		const firstSearchColdMs = round(performance.now() - start);
		if (!first.includes("total 3 matches")) throw new Error(`rare phrase: ${first}`);

		const searchRarePhrase = await repeat(50, () => call(search, { query: "quokka jumped" }));
		const searchCommonWord = await repeat(30, () => call(search, { query: "sentences about" }));
		const searchTag = await repeat(50, () => call(search, { query: "#hub", mode: "tag" }));
		const searchProperty = await repeat(50, () => call(search, { query: "title: Topic 4711", mode: "property" }));
		const searchPath = await repeat(50, () => call(search, { query: "Topic 4711", mode: "path" }));
		const rareRegex = { query: "quokka \\w+", mode: "regex" };
		const everyNoteRegex = { query: "^## Part \\d$", mode: "regex" };
		if (!(await call(search, rareRegex)).includes("total 3 matches")) throw new Error("regex: the rare phrase");
		const searchRegexRare = await repeat(30, () => call(search, rareRegex));
		const searchRegexEveryNote = await repeat(10, () => call(search, everyNoteRegex));
		// A pattern that backtracks over every line with "garden" (about 1 s of matching for the vault; on a loaded
		// machine it may reach the 3 s budget, so its answer is not checked).
		const slowRegex = { query: "\\bgarden\\b.*\\briver\\b", mode: "regex" };
		const regexSearches = [
			() => call(search, rareRegex),
			() => call(search, everyNoteRegex),
			() => search?.call(slowRegex, context) ?? Promise.resolve(),
		];
		const regexMainThreadMaxMs = await longestBlock([...regexSearches, ...regexSearches, ...regexSearches]);
		const textMainThreadMaxMs = await longestBlock(
			Array.from({ length: 10 }, () => () => call(search, { query: "sentences about" })),
		);

		const links = tools.get("links");
		start = performance.now();
		const backlinks = await call(links, { path: POPULAR, direction: "in" });
		const firstLinksMs = round(performance.now() - start);
		if (!backlinks.includes("200 backlinks from 200 notes"))
			throw new Error(`backlinks: ${backlinks.split("\n")[0] ?? ""}`);
		const links200Backlinks = await repeat(100, () => call(links, { path: POPULAR, direction: "in" }));

		start = performance.now();
		const moved = await call(tools.get("move_note"), { path: POPULAR, to: "Archive/Renamed Popular.md" });
		const moveNoteMs = round(performance.now() - start);
		const unresolvedAfter = await unresolvedLinks(root);
		return {
			notes: count,
			vaultMegabytes: Math.round((proseBytes + count * 400) / 1e5) / 10,
			firstSearchColdMs,
			searchRarePhrase,
			searchCommonWord,
			searchTag,
			searchProperty,
			searchPath,
			searchRegexRare,
			searchRegexEveryNote,
			regexMainThreadMaxMs,
			textMainThreadMaxMs,
			firstLinksMs,
			links200Backlinks,
			moveNoteMs,
			moveLinksUpdated: moved.split("\n")[0]?.replace(/^.*; updated /, "") ?? "",
			unresolvedBefore,
			unresolvedAfter,
			toolsListChars,
		};
	} finally {
		index.dispose();
		temp.remove();
	}
}

export function markdownTable(result: VaultToolsBenchmark): string {
	const row = (measure: string, figure: string, target: string, met: boolean): string =>
		`| ${measure} | ${figure} | ${target} | ${met ? "yes" : "**no**"} |`;
	const pair = (timing: Timing): string => `${timing.p50Ms} / ${timing.p95Ms}`;
	return [
		`Vault tools, folder adapter, ${result.notes} notes, about ${result.vaultMegabytes} MB (p50 / p95 in ms, in process):`,
		"",
		"| measure | figure | target | met |",
		"|---|---:|---:|:---:|",
		row(
			"first search, cold (lists and reads the vault)",
			`${result.firstSearchColdMs} ms`,
			`≤ ${TARGETS.firstMs} ms`,
			result.firstSearchColdMs <= TARGETS.firstMs,
		),
		row(
			"search text, rare phrase, warm",
			pair(result.searchRarePhrase),
			`≤ ${TARGETS.searchP50} / ${TARGETS.searchP95}`,
			result.searchRarePhrase.p50Ms <= TARGETS.searchP50 && result.searchRarePhrase.p95Ms <= TARGETS.searchP95,
		),
		row(
			"search text, phrase in every note, warm",
			pair(result.searchCommonWord),
			`≤ ${TARGETS.searchP50} / ${TARGETS.searchP95}`,
			result.searchCommonWord.p50Ms <= TARGETS.searchP50 && result.searchCommonWord.p95Ms <= TARGETS.searchP95,
		),
		row(
			"search tag",
			pair(result.searchTag),
			`p50 ≤ ${TARGETS.modeP50}`,
			result.searchTag.p50Ms <= TARGETS.modeP50,
		),
		row(
			"search property",
			pair(result.searchProperty),
			`p50 ≤ ${TARGETS.modeP50}`,
			result.searchProperty.p50Ms <= TARGETS.modeP50,
		),
		row(
			"search path",
			pair(result.searchPath),
			`p50 ≤ ${TARGETS.modeP50}`,
			result.searchPath.p50Ms <= TARGETS.modeP50,
		),
		row("search regex, rare match, warm (worker threads)", pair(result.searchRegexRare), "—", true),
		row("search regex, a line in every note, warm", pair(result.searchRegexEveryNote), "—", true),
		row(
			"main thread held at most, during regex searches (incl. \\bgarden\\b.*\\briver\\b)",
			`${result.regexMainThreadMaxMs} ms`,
			`≤ ${TARGETS.regexMainThreadMs} ms`,
			result.regexMainThreadMaxMs <= TARGETS.regexMainThreadMs,
		),
		row("main thread held at most, during text searches", `${result.textMainThreadMaxMs} ms`, "—", true),
		row("links in, first call (inverts every note's links)", `${result.firstLinksMs} ms`, "—", true),
		row(
			"links in, 200 backlinks, warm",
			pair(result.links200Backlinks),
			`p50 ≤ ${TARGETS.linksP50}`,
			result.links200Backlinks.p50Ms <= TARGETS.linksP50,
		),
		row(
			`move_note, 200 backlinks (${result.moveLinksUpdated})`,
			`${result.moveNoteMs} ms`,
			`≤ ${TARGETS.moveMs} ms`,
			result.moveNoteMs <= TARGETS.moveMs,
		),
		row(
			"unresolved links before → after the move",
			`${result.unresolvedBefore} → ${result.unresolvedAfter}`,
			"no new ones",
			result.unresolvedAfter <= result.unresolvedBefore,
		),
		row(
			"tools/list size",
			`${result.toolsListChars} chars`,
			`≤ ${TARGETS.toolsListChars}`,
			result.toolsListChars <= TARGETS.toolsListChars,
		),
	].join("\n");
}

async function main(): Promise<void> {
	const notesArgument = process.argv.indexOf("--notes");
	const count = notesArgument > 0 ? Number(process.argv[notesArgument + 1]) : 10_000;
	const result = await benchmarkVaultTools(count);
	process.stdout.write(`${markdownTable(result)}\n\n${JSON.stringify({ vaultTools: result })}\n`);
}

if (require.main === module) void main();
