/**
 * Benchmark (not a test): `getDiagnostics` on generated vaults of 1k and 10k notes, through the tool as the CLI
 * calls it (JSON included), with the headless host's file system source. Prints a Markdown table, then the
 * figures as one line of JSON. Run: npm run bench:diagnostics.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DiagnosticsEngine } from "../src/ide/diagnostics/diagnostics-engine";
import { FolderDiagnosticsNotes } from "../src/vault/folder/folder-diagnostics-notes";
import { createGetDiagnosticsTool } from "../src/ide/tools/get-diagnostics";
import { VaultPaths } from "../src/vault/vault-paths";
import { libraryYamlCodec } from "../src/vault/folder/yaml-library-codec";
import type { ToolDefinition } from "../src/protocol/mcp-types";

export interface DiagnosticsBenchmark {
	notes: number;
	notesWithProblems: number;
	coldVaultMs: number;
	warmVault: Timing;
	coldNoteMs: number;
	warmNote: Timing;
	afterOneEdit: Timing;
}

interface Timing {
	medianMs: number;
	p99Ms: number;
	runs: number;
}

const NOTES_PER_FOLDER = 100;

/** A deterministic pseudo-random sequence, so every run generates the same vault. */
function random(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state * 1103515245 + 12345) % 2147483648;
		return state / 2147483648;
	};
}

function notePath(index: number): string {
	return `Folder ${Math.floor(index / NOTES_PER_FOLDER)}/Note ${index}.md`;
}

function noteText(index: number, count: number, next: () => number): string {
	const pick = (): number => Math.floor(next() * count);
	const blockTarget = pick();
	const lines = [
		"---",
		index % 100 === 7 ? "tags: [unclosed" : `title: Note ${index}\ntags: [bench]`,
		"---",
		`# Note ${index}`,
		"",
		`Intro with links to [[Note ${pick()}]], [[Note ${pick()}|an alias]] and [a markdown link](Note%20${pick()}.md).`,
		"",
		"## Details",
		"",
		`- item linking [[Note ${pick()}#Details]] ^item-${index}`,
		`- another to [[Note ${blockTarget}#^item-${blockTarget}]] and ![[image ${pick() % 100}.png]]`,
		"",
		"```js",
		`const x = "[[Not a link ${index}]]";`,
		"```",
		"",
		"## Notes",
		"",
		`A paragraph with \`[[inline code]]\` and a link to [[Note ${pick()}#Notes]]. ^para-${index}`,
	];
	if (index % 20 === 3) lines.push(`A broken link to [[Missing ${index}]] and ![[missing-${index}.png]].`);
	if (index % 50 === 5) lines.push(`A missing heading: [[Note ${pick()}#No such heading]].`);
	if (index % 100 === 9) lines.push(`Repeated block id ^para-${index}`);
	return lines.join("\n");
}

function generateVault(root: string, count: number): void {
	const next = random(count);
	for (let folder = 0; folder * NOTES_PER_FOLDER < count; folder++)
		mkdirSync(join(root, `Folder ${folder}`), { recursive: true });
	mkdirSync(join(root, "attachments"));
	for (let image = 0; image < 100; image++) writeFileSync(join(root, "attachments", `image ${image}.png`), "");
	for (let index = 0; index < count; index++)
		writeFileSync(join(root, notePath(index)), noteText(index, count, next));
}

function timing(samples: number[]): Timing {
	const sorted = [...samples].sort((a, b) => a - b);
	const at = (fraction: number): number =>
		sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
	return { medianMs: round(at(0.5)), p99Ms: round(at(0.99)), runs: samples.length };
}

function round(ms: number): number {
	return Math.round(ms * 100) / 100;
}

async function timed(action: () => Promise<unknown>): Promise<number> {
	const start = performance.now();
	await action();
	return performance.now() - start;
}

function wait(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

const context = { sessionId: 1, signal: new AbortController().signal };

async function callTool(tool: ToolDefinition, uri?: string): Promise<string> {
	const result = await tool.call(uri === undefined ? {} : { uri }, context);
	return result.content[0]?.text ?? "";
}

export async function benchmarkDiagnostics(count: number): Promise<DiagnosticsBenchmark> {
	const root = mkdtempSync(join(tmpdir(), `ccb-bench-diagnostics-${count}-`));
	const source = new FolderDiagnosticsNotes({ root }, libraryYamlCodec);
	try {
		generateVault(root, count);
		const tool = createGetDiagnosticsTool({
			diagnostics: new DiagnosticsEngine(source),
			paths: new VaultPaths(root),
		});
		const uriOf = (index: number): string => `file://${join(root, notePath(index))}`;

		const coldNoteMs = await timed(() => callTool(tool, uriOf(3)));
		let answer = "";
		const coldVaultMs = await timed(async () => (answer = await callTool(tool)));
		const notesWithProblems = (JSON.parse(answer) as unknown[]).length;

		const warmVault: number[] = [];
		for (let run = 0; run < 50; run++) warmVault.push(await timed(() => callTool(tool)));
		const warmNote: number[] = [];
		const next = random(1);
		for (let run = 0; run < 300; run++)
			warmNote.push(await timed(() => callTool(tool, uriOf(Math.floor(next() * count)))));

		// The CLI's pattern: a note is edited (body text only), then the next turn asks for the whole vault.
		const afterOneEdit: number[] = [];
		for (let run = 0; run < 10; run++) {
			writeFileSync(
				join(root, notePath(run)),
				`${noteText(run, count, next)}\nEdited ${run} with [[Note ${run + 1}]].`,
			);
			await wait(30);
			afterOneEdit.push(await timed(() => callTool(tool)));
		}
		return {
			notes: count,
			notesWithProblems,
			coldVaultMs: round(coldVaultMs),
			warmVault: timing(warmVault),
			coldNoteMs: round(coldNoteMs),
			warmNote: timing(warmNote),
			afterOneEdit: timing(afterOneEdit),
		};
	} finally {
		source.dispose();
		rmSync(root, { recursive: true, force: true });
	}
}

export function markdownTable(results: readonly DiagnosticsBenchmark[]): string {
	const rows = results.map((result) =>
		[
			result.notes,
			result.notesWithProblems,
			result.coldNoteMs,
			result.coldVaultMs,
			`${result.warmVault.medianMs} / ${result.warmVault.p99Ms}`,
			`${result.afterOneEdit.medianMs} / ${result.afterOneEdit.p99Ms}`,
			`${result.warmNote.medianMs} / ${result.warmNote.p99Ms}`,
		].join(" | "),
	);
	return [
		"| notes | notes with problems | first call, one note (ms) | first call, whole vault (ms) | whole vault, warm: median / p99 (ms) | whole vault after one edit: median / p99 (ms) | one note, warm: median / p99 (ms) |",
		"|---:|---:|---:|---:|---:|---:|---:|",
		...rows.map((row) => `| ${row} |`),
	].join("\n");
}

async function main(): Promise<void> {
	const results: DiagnosticsBenchmark[] = [];
	for (const count of [1000, 10000]) results.push(await benchmarkDiagnostics(count));
	process.stdout.write(`${markdownTable(results)}\n\n${JSON.stringify({ getDiagnostics: results })}\n`);
}

if (require.main === module) void main();
