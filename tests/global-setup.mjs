import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Builds main.js and the headless host once, so the bundle and end-to-end tests run fresh code. */
export default function globalSetup() {
	const config = fileURLToPath(new URL("../esbuild.config.mjs", import.meta.url));
	execFileSync(process.execPath, [config, "production"], { stdio: "ignore" });
}
