import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");

/**
 * The most main.js may weigh: its size before issue 14 (384,585 bytes), which that acceptance says it must
 * not pass. Raise it only with a reason in the commit; cut something first.
 */
const MAIN_JS_BUDGET_BYTES = 384_585;

interface BundleReport {
	bytes: number;
	inputs: string[];
}

/** main.js as `npm run build` makes it, built in memory by scripts/plugin-bundle-report.mjs (a few seconds). */
function buildPluginBundle(): BundleReport {
	const run = spawnSync(process.execPath, [join(ROOT, "scripts/plugin-bundle-report.mjs")], { cwd: ROOT, encoding: "utf8" });
	if (run.status !== 0) throw new Error(`plugin-bundle-report.mjs failed: ${run.stderr}`);
	return JSON.parse(run.stdout) as BundleReport;
}

describe("the plugin's bundle (main.js)", () => {
	let report: BundleReport;
	beforeAll(() => {
		report = buildPluginBundle();
	}, 120_000);

	it(`stays within MAIN_JS_BUDGET_BYTES (${MAIN_JS_BUDGET_BYTES} bytes)`, () => {
		expect(report.bytes).toBeGreaterThan(0);
		expect(report.bytes).toBeLessThanOrEqual(MAIN_JS_BUDGET_BYTES);
	});

	it("ships no YAML library: the plugin reads YAML with Obsidian's parser (obsidian-yaml-codec.ts)", () => {
		expect(report.inputs.filter((input) => input.includes("node_modules/yaml/") || input.endsWith("yaml-library-codec.ts"))).toEqual([]);
		expect(report.inputs).toContain("src/obsidian/notes/obsidian-yaml-codec.ts");
	});
});
