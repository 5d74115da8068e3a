import { execFileSync } from "node:child_process";
import { cpus, loadavg, totalmem } from "node:os";
import type { Comparison } from "./alternation";
import { P99_MIN_SAMPLES, type Summary } from "./stats";

/** One line of the results table; `met` is undefined for figures without a target. */
export interface Row {
	figure: string;
	bridge: string;
	raw: string;
	ratio: string;
	target: string;
	met?: boolean;
	/** Why a target is missed, and what would close it. */
	note?: string;
}

export interface Machine {
	cpu: string;
	cores: number;
	memoryGiB: number;
	node: string;
	platform: string;
	date: string;
	commit: string;
	/** Uncommitted changes in the working tree when the run started (the build includes them). */
	dirty: boolean;
	dirtyFiles: number;
	/** 1-minute load average when the run started: other work on the machine widens every spread. */
	loadAverage: number;
}

function git(args: string[]): string {
	try {
		return execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
	} catch {
		return "";
	}
}

export function machine(): Machine {
	const cpu = cpus();
	const changes = git(["status", "--porcelain", "--untracked-files=no"]);
	const dirtyFiles = changes === "" ? 0 : changes.split("\n").length;
	return {
		cpu: cpu[0]?.model.trim() ?? "unknown",
		cores: cpu.length,
		memoryGiB: Math.round(totalmem() / 2 ** 30),
		node: process.version,
		platform: `${process.platform} ${process.arch}`,
		date: new Date().toISOString(),
		commit: git(["rev-parse", "--short=12", "HEAD"]) || "unknown",
		dirty: dirtyFiles > 0,
		dirtyFiles,
		loadAverage: Math.round((loadavg()[0] ?? 0) * 100) / 100,
	};
}

export function describeMachine(info: Machine): string {
	const tree = info.dirty ? `dirty tree (${info.dirtyFiles} changed tracked files)` : "clean tree";
	return `${info.cpu}, ${info.cores} cores, ${info.memoryGiB} GiB, Node ${info.node}, ${info.platform}, commit ${info.commit}, ${tree}, load average ${info.loadAverage} at the start, ${info.date}`;
}

/** "median / p99", or "median / max" under P99_MIN_SAMPLES samples. */
export function ms(summary: Summary): string {
	return summary.samples >= P99_MIN_SAMPLES
		? `${formatMs(summary.median)} / ${formatMs(summary.p99)}`
		: `${formatMs(summary.median)} / max ${formatMs(summary.max)}`;
}

/** The label of the spread column of a summary: p99 or max. */
export function spreadLabel(summary: Summary): string {
	return summary.samples >= P99_MIN_SAMPLES ? "p99" : "max";
}

export function formatMs(value: number): string {
	return value >= 10 ? value.toFixed(1) : value.toPrecision(2);
}

export function times(value: number): string {
	return `${value.toFixed(2)}×`;
}

/** A round trip against the floor; the target applies to the ratio of the medians. */
export function comparisonRow(figure: string, comparison: Comparison, maxRatio?: number): Row {
	const spread = spreadLabel(comparison.bridge);
	const spreadRatio = spread === "p99" ? comparison.p99Ratio : comparison.bridge.max / comparison.raw.max;
	return {
		figure: `${figure}: median / ${spread} (ms), ${comparison.bridge.samples} samples each`,
		bridge: ms(comparison.bridge),
		raw: ms(comparison.raw),
		ratio: `${times(comparison.medianRatio)} / ${times(spreadRatio)}`,
		target: maxRatio === undefined ? "—" : `≤ ${times(maxRatio)} (median)`,
		met: maxRatio === undefined ? undefined : comparison.medianRatio <= maxRatio,
	};
}

export function markdownTable(rows: readonly Row[]): string {
	const line = (cells: readonly string[]): string => `| ${cells.join(" | ")} |`;
	return [
		line(["figure", "bridge", "raw ws floor", "ratio", "target", "result"]),
		line(["---", "---:", "---:", "---:", "---", "---"]),
		...rows.map((row) =>
			line([
				row.figure,
				row.bridge,
				row.raw,
				row.ratio,
				row.target,
				row.met === undefined ? "—" : row.met ? "met" : "**missed**",
			]),
		),
	].join("\n");
}

/** The notes of missed rows, as a list under the table. */
export function missedNotes(rows: readonly Row[]): string {
	const missed = rows.filter((row) => row.met === false);
	if (missed.length === 0) return "Every target met.";
	return ["Missed:", ...missed.map((row) => `- ${row.figure}: ${row.note ?? "no explanation recorded"}`)].join("\n");
}
