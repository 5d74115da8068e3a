const { execFileSync } = require("node:child_process");
const { join } = require("node:path");

module.exports = function globalSetup() {
	execFileSync(process.execPath, [join(__dirname, "..", "esbuild.config.mjs"), "production"], { stdio: "ignore" });
};
