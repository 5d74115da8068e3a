import path from "node:path";
import { checkClaude } from "../../src/agent/claude-cli/claude-check";
import { nodeCliMachine } from "../../src/agent/claude-cli/node-cli-machine";
import { claudeBinaryPath } from "./harness/cli-binary";
import { makeTempDir } from "../helpers/temp-dir";

// The locator and the version probe against the pinned real CLI, on this machine.

describe("checkClaude with the pinned Claude Code CLI", () => {
	const home = makeTempDir("claude-check-home");
	afterAll(() => home.remove());

	test("the explicit path: found, and its version is the supported minimum", async () => {
		const machine = nodeCliMachine({ ...process.env, HOME: home.path });
		const check = await checkClaude({ machine, explicitPath: claudeBinaryPath() });
		expect(check).toMatchObject({
			status: "ok",
			version: "2.1.330",
			location: { source: "setting", launch: { kind: "direct", command: claudeBinaryPath() } },
		});
	});

	test("found on PATH by the search, with no setting", async () => {
		const binFolder = path.dirname(claudeBinaryPath());
		const machine = nodeCliMachine({ HOME: home.path, PATH: `${binFolder}:/usr/bin:/bin` });
		const check = await checkClaude({ machine, readShellPath: () => Promise.resolve(undefined) });
		expect(check).toMatchObject({
			status: "ok",
			version: "2.1.330",
			location: { source: "path", path: path.join(binFolder, "claude") },
		});
	});
});
