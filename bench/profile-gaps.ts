/**
 * What ran in each long main-thread task of a bench/obsidian-heavy.ts run: its gaps (`CCB_GAPS_FILE=GAPS.json`)
 * against a CPU profile of the same run (`--cpu-prof-dir DIR`). Both come from one run:
 * `CCB_GAPS_FILE=/tmp/gaps.json node scripts/run-bench.mjs bench/obsidian-heavy-run.ts --notes 10000 --cpu-prof-dir DIR`,
 * then `node scripts/run-bench.mjs bench/profile-gaps.ts /tmp/gaps.json DIR/*.cpuprofile [TOP]`.
 *
 * Each sample in a gap is put down to the innermost frame of a file of ours (main.js and its lazy chunks, `claude-code-bridge/NAME`: "plugin"; the
 * stand-in's bench/ and tests/ files: "stand-in"; the MCP SDK and other packages: "packages"), or to the garbage
 * collector, or to "(other)" (Node's own code, the program). A main.js built without `production` keeps its
 * function names.
 */
import { readFileSync } from "node:fs";
import type { LoggedGap } from "./obsidian-heavy";
import type { ProfileNode, ProfileSamples } from "./profile-summary";

type CpuProfile = ProfileSamples & { startTime: number };

type Category = "plugin" | "stand-in" | "packages" | "gc" | "(other)";

interface GapFile {
	/** The bundle the bench ran as, and the line where each of its source files begins. */
	bundle: string;
	modules: { line: number; path: string }[];
	gaps: LoggedGap[];
}

/** The source file a frame's line of the bench's bundle belongs to. */
function sourceOf(file: GapFile, url: string, line: number): string {
	if (!url.endsWith(file.bundle)) return url;
	let found = "";
	for (const module of file.modules) {
		if (module.line > line) break;
		found = module.path;
	}
	return found;
}

function categoryOf(source: string): Category | undefined {
	if (source === "") return undefined;
	if (source.includes("node_modules/")) return "packages";
	if (source.startsWith("bench/") || source.startsWith("tests/")) return "stand-in";
	if (source === "main.js" || source.startsWith("claude-code-bridge/")) return "plugin";
	return undefined;
}

function frameName(node: ProfileNode): string {
	const frame = node.callFrame;
	return `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*\//, "")}:${frame.lineNumber + 1}`;
}

/** A sample's owner: the innermost frame in a file of ours or a package's, else the leaf (GC, program, Node). */
function owner(
	file: GapFile,
	leaf: ProfileNode,
	byId: Map<number, ProfileNode>,
	parent: Map<number, number>,
): { category: Category; name: string } {
	if (leaf.callFrame.functionName === "(garbage collector)") return { category: "gc", name: "(garbage collector)" };
	for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
		const node = byId.get(id);
		if (!node) break;
		const source = sourceOf(file, node.callFrame.url, node.callFrame.lineNumber);
		const category = categoryOf(source);
		if (category) return { category, name: `${node.callFrame.functionName || "(anonymous)"} ${source}` };
	}
	return { category: "(other)", name: frameName(leaf) };
}

function main(): void {
	const [gapsPath, profilePath, topText = "4"] = process.argv.slice(2);
	if (!gapsPath || !profilePath) {
		process.stderr.write(
			"Usage: node scripts/run-bench.mjs bench/profile-gaps.ts GAPS.json FILE.cpuprofile [TOP]\n",
		);
		process.exit(2);
	}
	const top = Number(topText);
	const file = JSON.parse(readFileSync(gapsPath, "utf8")) as GapFile;
	file.modules.sort((a, b) => a.line - b.line);
	const gaps = file.gaps;
	const profile = JSON.parse(readFileSync(profilePath, "utf8")) as CpuProfile;
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	// Sample times on the profile's clock (µs), in order.
	const times: number[] = [];
	let at = profile.startTime;
	for (const delta of profile.timeDeltas) times.push((at += delta));

	const byPhase = new Map<string, Map<Category, number>>();
	const lines: string[] = [];
	let first = 0;
	for (const gap of [...gaps].sort((a, b) => a.startUs - b.startUs)) {
		const end = gap.startUs + gap.ms * 1000;
		while (first < times.length && (times[first] ?? 0) < gap.startUs) first++;
		const names = new Map<string, number>();
		const categories = new Map<Category, number>();
		for (let index = first; index < times.length && (times[index] ?? 0) <= end; index++) {
			const leaf = byId.get(profile.samples[index] ?? -1);
			if (!leaf || leaf.callFrame.functionName === "(idle)") continue;
			const us = (times[index] ?? 0) - (times[index - 1] ?? profile.startTime);
			const { category, name } = owner(file, leaf, byId, parent);
			names.set(`${category}: ${name}`, (names.get(`${category}: ${name}`) ?? 0) + us);
			categories.set(category, (categories.get(category) ?? 0) + us);
		}
		const phaseKey = gap.phase.replace(/: .*$/, "");
		const sums = byPhase.get(phaseKey) ?? new Map<Category, number>();
		byPhase.set(phaseKey, sums);
		for (const [category, us] of categories) sums.set(category, (sums.get(category) ?? 0) + us);
		const ranked = [...names]
			.sort((a, b) => b[1] - a[1])
			.slice(0, top)
			.map(([name, us]) => `${(us / 1000).toFixed(1)} ms ${name}`);
		const main = gap.mainCpuMs === undefined ? "" : `, main thread ${gap.mainCpuMs}`;
		lines.push(
			`${gap.phase}: ${gap.ms} ms (CPU ${gap.cpuMs}${main}, GC pause ${gap.gcMs}): ${ranked.join("; ") || "no samples"}`,
		);
	}
	process.stdout.write(
		`${gaps.length} gaps of 50 ms or more\n\n${lines.join("\n")}\n\nBy phase (ms sampled in the gaps):\n`,
	);
	for (const [phase, sums] of byPhase) {
		const parts = [...sums]
			.sort((a, b) => b[1] - a[1])
			.map(([category, us]) => `${category} ${(us / 1000).toFixed(0)}`);
		process.stdout.write(`${phase}: ${parts.join(", ")}\n`);
	}
}

main();
