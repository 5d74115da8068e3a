import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JsonFilePermissionRules } from "../../../src/agent/gate/json-file-permission-rules";

const folder = mkdtempSync(join(tmpdir(), "ccb-rules-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let count = 0;
const newFile = (): string => join(folder, `case-${++count}`, "permission-rules.json");

describe("JsonFilePermissionRules", () => {
	it("starts empty, keeps added rules in the file (readable only by the user) and revokes them", async () => {
		const file = newFile();
		const rules = new JsonFilePermissionRules(file);
		expect(await rules.list()).toEqual([]);
		await Promise.all([
			rules.add({ tool: "Bash", commandPrefix: "npm test" }),
			rules.add({ tool: "WebFetch" }),
			rules.add({ tool: "WebFetch" }),
		]);
		expect(await new JsonFilePermissionRules(file).list()).toEqual([
			{ tool: "Bash", commandPrefix: "npm test" },
			{ tool: "WebFetch" },
		]);
		expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
			rules: [{ tool: "Bash", commandPrefix: "npm test" }, { tool: "WebFetch" }],
		});
		if (process.platform !== "win32") expect(statSync(file).mode & 0o077).toBe(0);
		await rules.revoke({ tool: "WebFetch" });
		expect(await rules.list()).toEqual([{ tool: "Bash", commandPrefix: "npm test" }]);
	});

	it("a file it cannot read as rules applies no rule, says why, and is never overwritten", async () => {
		const file = newFile();
		const logged: string[] = [];
		const broken = new JsonFilePermissionRules(file, (message) => logged.push(message));
		// The first add creates the file's folder; then the file is spoiled by hand.
		await broken.add({ tool: "WebFetch" });
		writeFileSync(file, '{"rules": [{"tool": 42}]}');
		expect(await broken.list()).toEqual([]);
		expect(logged[0]).toMatch(/are not a list of rules/);
		await expect(broken.add({ tool: "Bash", commandPrefix: "ls" })).rejects.toThrow(/not a list of rules/);
		expect(readFileSync(file, "utf8")).toBe('{"rules": [{"tool": 42}]}');
	});
});
