/**
 * Sums a V8 .cpuprofile's self time by function (or, with --inclusive, time including callees):
 * `node scripts/run-bench.mjs bench/profile-summary.ts FILE [TOP] [--inclusive]`.
 * Profiles come from `npm run bench -- --profile DIR` (the headless host under `node --cpu-prof`).
 */
import { readFileSync } from "node:fs";

export interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
	children?: number[];
}

export interface ProfileSamples {
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
}

function label(node: ProfileNode): string {
	const frame = node.callFrame;
	const file = frame.url.replace(/^.*\//, "");
	return `${frame.functionName || "(anonymous)"} ${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
}

/** Time in each function and everything it called (each sample counted once per function on its stack). */
function inclusive(profile: ProfileSamples): Map<string, number> {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const totalUs = new Map<string, number>();
	profile.samples.forEach((id, index) => {
		const delta = profile.timeDeltas[index] ?? 0;
		const seen = new Set<string>();
		for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
			const node = byId.get(current);
			if (!node) break;
			const key = label(node);
			if (seen.has(key)) continue;
			seen.add(key);
			totalUs.set(key, (totalUs.get(key) ?? 0) + delta);
		}
	});
	return totalUs;
}

function summarize(path: string, top: number, mode: "self" | "inclusive"): string {
	const profile = JSON.parse(readFileSync(path, "utf8")) as ProfileSamples;
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const selfUs = new Map<string, number>();
	let totalUs = 0;
	profile.samples.forEach((id, index) => {
		const delta = profile.timeDeltas[index] ?? 0;
		const node = byId.get(id);
		if (!node) return;
		totalUs += delta;
		const key = label(node);
		selfUs.set(key, (selfUs.get(key) ?? 0) + delta);
	});
	const idle = [...selfUs].filter(([key]) => key.startsWith("(idle)")).reduce((sum, [, us]) => sum + us, 0);
	const busy = totalUs - idle;
	const ranked = mode === "self" ? selfUs : inclusive(profile);
	const lines = [...ranked]
		.filter(([key]) => !key.startsWith("(idle)") && !key.startsWith("(root)"))
		.sort((a, b) => b[1] - a[1])
		.slice(0, top)
		.map(
			([key, us]) =>
				`${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${key}`,
		);
	return [
		`${path}: ${(totalUs / 1000).toFixed(0)} ms sampled, ${(busy / 1000).toFixed(0)} ms busy (not idle); ${mode} time`,
		...lines,
	].join("\n");
}

const args = process.argv.slice(2);
const mode = args.includes("--inclusive") ? "inclusive" : "self";
const [file, top = "40"] = args.filter((arg) => arg !== "--inclusive");
if (!file) {
	process.stderr.write(
		"Usage: node scripts/run-bench.mjs bench/profile-summary.ts FILE.cpuprofile [TOP] [--inclusive]\n",
	);
	process.exit(2);
}
process.stdout.write(`${summarize(file, Number(top), mode)}\n`);
