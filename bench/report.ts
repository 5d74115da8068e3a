import { cpus, totalmem } from "node:os";
import type { Comparison } from "./alternation";
import type { Summary } from "./stats";

/** One line of the results table; `met` is undefined for figures without a target. */
export interface Row {
	figure: string;
	bridge: string;
	raw: string;
	ratio: string;
	target: string;
	met?: boolean;
}

export interface Machine {
	cpu: string;
	cores: number;
	memoryGiB: number;
	node: string;
	platform: string;
	date: string;
}

export function machine(): Machine {
	const cpu = cpus();
	return {
		cpu: cpu[0]?.model.trim() ?? "unknown",
		cores: cpu.length,
		memoryGiB: Math.round(totalmem() / 2 ** 30),
		node: process.version,
		platform: `${process.platform} ${process.arch}`,
		date: new Date().toISOString(),
	};
}

export function ms(summary: Summary): string {
	return `${formatMs(summary.median)} / ${formatMs(summary.p99)}`;
}

export function formatMs(value: number): string {
	return value >= 10 ? value.toFixed(1) : value.toPrecision(2);
}

/** A round trip against the floor; the target applies to the ratio of the medians. */
export function comparisonRow(figure: string, comparison: Comparison, maxRatio?: number): Row {
	return {
		figure,
		bridge: ms(comparison.bridge),
		raw: ms(comparison.raw),
		ratio: `${comparison.medianRatio.toFixed(2)}× / ${comparison.p99Ratio.toFixed(2)}×`,
		target: maxRatio === undefined ? "—" : `≤ ${maxRatio.toFixed(2)}× (median)`,
		met: maxRatio === undefined ? undefined : comparison.medianRatio <= maxRatio,
	};
}

export function markdownTable(rows: readonly Row[]): string {
	const line = (cells: readonly string[]): string => `| ${cells.join(" | ")} |`;
	return [
		line(["figure", "bridge", "raw ws floor", "ratio", "target", "result"]),
		line(["---", "---:", "---:", "---:", "---", "---"]),
		...rows.map((row) => line([row.figure, row.bridge, row.raw, row.ratio, row.target, row.met === undefined ? "—" : row.met ? "met" : "**missed**"])),
	].join("\n");
}
