/**
 * `npm run bench:obsidian-heavy [-- --notes N]`: the vault tools through the running plugin on a generated
 * 100k-note vault in the Obsidian stand-in (bench/obsidian-heavy.ts). Prints the table; a full-size run (100k notes)
 * records its figures in bench/results.json as `obsidianHeavy100k` (`npm run bench` keeps them), unless
 * `--no-record` is given (iterating on a loaded machine) or a CPU profile is taken.
 */
import { recordResults } from "./results-file";
import { OBSIDIAN_HEAVY_CLIENT_ROLE, obsidianHeavyClient } from "./obsidian-heavy-client";
import { errorStack } from "../src/shared/describe-error";
import { OBSIDIAN_HEAVY_ROLE, heavyTable, measureObsidianHeavy, obsidianHeavyChild } from "./obsidian-heavy";

export const HEAVY_NOTES = 100_000;

async function main(): Promise<void> {
	const [role, argument = ""] = process.argv.slice(2);
	if (role === OBSIDIAN_HEAVY_ROLE) return obsidianHeavyChild(argument);
	if (role === OBSIDIAN_HEAVY_CLIENT_ROLE) return obsidianHeavyClient(argument);
	const at = process.argv.indexOf("--notes");
	const notes = at > 0 ? Number(process.argv[at + 1]) : HEAVY_NOTES;
	const profileAt = process.argv.indexOf("--cpu-prof-dir");
	const flags = profileAt > 0 ? ["--cpu-prof", "--cpu-prof-dir", process.argv[profileAt + 1] ?? "."] : [];
	const figures = await measureObsidianHeavy(notes, flags);
	process.stdout.write(`${heavyTable(figures)}\n\n${JSON.stringify(figures)}\n`);
	if (notes === HEAVY_NOTES && flags.length === 0 && !process.argv.includes("--no-record")) {
		recordResults("obsidianHeavy100k", figures);
		process.stdout.write("\nWrote obsidianHeavy100k into bench/results.json\n");
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`bench:obsidian-heavy failed: ${errorStack(error)}\n`);
	process.exit(1);
});
