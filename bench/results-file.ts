/**
 * bench/results.json and bench/README.md as several runners write them: `npm run bench` writes the file whole, and
 * a runner with figures of its own (bench/vault-tools-heavy.ts, bench/obsidian-heavy-run.ts) keeps them under a key of their own, which the full
 * bench carries over when it writes the file again.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const RESULTS_FILE = join("bench", "results.json");
export const README_FILE = join("bench", "README.md");

/** The keys other runners keep in results.json, carried over by `npm run bench`. */
export const RUNNER_KEYS = ["vaultToolsHeavy", "obsidianHeavy100k"] as const;

function readResults(file: string): Record<string, unknown> {
	if (!existsSync(file)) return {};
	const parsed = JSON.parse(readFileSync(file, "utf8")) as unknown;
	return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
		? (parsed as Record<string, unknown>)
		: {};
}

/** What the other runners keep in results.json now, for `npm run bench` to write back. */
export function otherRunnersResults(file = RESULTS_FILE): Record<string, unknown> {
	const results = readResults(file);
	return Object.fromEntries(RUNNER_KEYS.filter((key) => key in results).map((key) => [key, results[key]]));
}

/** Writes one runner's figures under its key, every other key as it was (the same layout `npm run bench` writes). */
export function recordResults(key: (typeof RUNNER_KEYS)[number], value: unknown, file = RESULTS_FILE): void {
	const results = readResults(file);
	results[key] = value;
	writeFileSync(file, `${JSON.stringify(results, null, 1)}\n`);
}

/**
 * Replaces what lies between `<!-- NAME:start -->` and `<!-- NAME:end -->` in the README with `text`; an error when
 * the markers are missing (the section says how the figures were taken: it is written by hand, not by the runner).
 */
export function replaceReadmeSection(name: string, text: string, file = README_FILE): void {
	const readme = readFileSync(file, "utf8");
	const start = `<!-- ${name}:start -->`;
	const end = `<!-- ${name}:end -->`;
	const from = readme.indexOf(start);
	const to = readme.indexOf(end);
	if (from < 0 || to < from) throw new Error(`${file} has no ${start} … ${end} section`);
	writeFileSync(file, `${readme.slice(0, from + start.length)}\n${text.trim()}\n${readme.slice(to)}`);
}
