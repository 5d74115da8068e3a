import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeMcpRunner } from "../../../src/obsidian/settings/claude-mcp-runner";
import { makeTempDir } from "../../helpers/temp-dir";

/** A stand-in `claude` on PATH that says its version (the locator's check) and prints where and how it ran. */
function fakeClaude(bin: string): void {
	mkdirSync(bin, { recursive: true });
	writeFileSync(
		join(bin, "claude"),
		`#!/bin/sh\nif [ "$1" = "--version" ]; then echo "2.1.330 (Claude Code)"; exit 0; fi\necho "$PWD"\nfor a in "$@"; do echo "$a"; done\necho oops >&2\nexit 3\n`,
		{ mode: 0o755 },
	);
}

describe("the settings tab's way to run the user's claude", () => {
	const temp = makeTempDir("claude-mcp-runner");
	afterAll(() => temp.remove());

	it("runs the claude found on PATH, in the vault folder, with the arguments as they are (no shell)", async () => {
		const vault = join(temp.path, "My vault");
		mkdirSync(vault);
		fakeClaude(join(temp.path, "bin"));
		const run = claudeMcpRunner(vault, () => "", { PATH: join(temp.path, "bin"), HOME: temp.path });
		const outcome = await run(["mcp", "add-json", "--scope", "local", "obsidian", '{"a":"$HOME \\"x\\""}']);
		expect(outcome).toEqual({
			exitCode: 3,
			stdout: `${realpathSync(vault)}\nmcp\nadd-json\n--scope\nlocal\nobsidian\n{"a":"$HOME \\"x\\""}\n`,
			stderr: "oops\n",
		});
	});

	it("says why when no claude can be found, and runs nothing", async () => {
		const vault = join(temp.path, "Other vault");
		mkdirSync(vault);
		const run = claudeMcpRunner(vault, () => join(temp.path, "nowhere", "claude"), {
			PATH: join(temp.path, "empty"),
			HOME: temp.path,
		});
		const outcome = await run(["mcp", "get", "obsidian"]);
		expect(outcome.exitCode).toBeNull();
		expect(outcome.failure).toMatch(/Claude Code executable/);
	});
});
