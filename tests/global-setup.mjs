import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Builds main.js and the headless host once, so the bundle and end-to-end tests run fresh code. */
export default function globalSetup() {
	const config = fileURLToPath(new URL("../esbuild.config.mjs", import.meta.url));
	const build = spawnSync(process.execPath, [config, "production"], {
		encoding: "utf8",
		stdio: ["ignore", "ignore", "pipe"],
	});
	if (build.status !== 0) {
		throw userFacingError(
			`The build before the tests failed (node esbuild.config.mjs production):\n${build.stderr || build.error?.message || `exit ${String(build.status)}`}`,
		);
	}
}

/** An error Jest prints as just its message: the stack of a set-up script says nothing useful. */
export function userFacingError(message) {
	const error = new Error(message);
	error.stack = message;
	return error;
}
