/**
 * The build plugin load is compared with (issue 31: "plugin load does not grow"): main.js as `npm run build` made it
 * at a given commit, built once from that commit's own sources into .cache/plugin-load-baseline/<commit>/main.js
 * (no binary is committed). The default is main at the filing of issue 31, before that round's features (issue 28's
 * review, activity view and settings tab; issue 30's rewind, fork, images, plan and inline edit).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";

export const PLUGIN_LOAD_BASELINE_COMMIT = "d4aa4fedf2898c5d2d8062dbc5ac4c4c359e9edf";

/** The baseline's main.js, built on first use from `commit`'s tree (git archive) with this checkout's node_modules. */
export function baselineMainJs(commit: string = PLUGIN_LOAD_BASELINE_COMMIT): string {
	const full = execFileSync("git", ["rev-parse", "--verify", `${commit}^{commit}`], { encoding: "utf8" }).trim();
	const folder = resolve(".cache", "plugin-load-baseline", full);
	const mainJs = join(folder, "main.js");
	if (existsSync(mainJs)) return mainJs;
	const tree = join(folder, "tree");
	rmSync(tree, { recursive: true, force: true });
	mkdirSync(tree, { recursive: true });
	process.stderr.write(`bench: building main.js at ${full.slice(0, 10)} (the plugin-load baseline) once\n`);
	const archive = join(folder, "tree.tar");
	execFileSync("git", ["archive", "--format=tar", "-o", archive, full]);
	execFileSync("tar", ["-xf", archive, "-C", tree]);
	symlinkSync(resolve("node_modules"), join(tree, "node_modules"));
	execFileSync(process.execPath, ["esbuild.config.mjs", "production"], { cwd: tree, stdio: "ignore" });
	copyFileSync(join(tree, "main.js"), mainJs);
	rmSync(tree, { recursive: true, force: true });
	rmSync(archive, { force: true });
	return mainJs;
}
