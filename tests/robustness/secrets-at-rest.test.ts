import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { migrateSettings } from "../../src/settings";
import { startAssembledBridge } from "../helpers/assembled-bridge";

/** Every file under `folder`, symlinks not followed. */
function filesUnder(folder: string): string[] {
	const found: string[] = [];
	for (const entry of readdirSync(folder, { withFileTypes: true })) {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) found.push(...filesUnder(path));
		else if (entry.isFile()) found.push(path);
	}
	return found;
}

describe("the token at rest", () => {
	it("is dropped from stored settings (data.json, which vault sync copies), whatever key it hides under", () => {
		const stored: unknown = JSON.parse(
			`{"enabled":true,"fixedPort":4000,"authToken":"${"a".repeat(64)}","token":"${"b".repeat(64)}","__proto__":{"authToken":"c"},"agentPanel":{"cliPath":"","authToken":"${"d".repeat(64)}","alwaysAllow":[{"tool":"Bash","token":"${"e".repeat(64)}"}]}}`,
		);
		const settings = migrateSettings(stored);
		expect(settings.fixedPort).toBe(4000);
		expect(JSON.stringify(settings)).not.toMatch(/aaaa|bbbb|dddd|eeee|authToken|"token"/);
		expect(Object.keys(settings).sort()).toEqual([
			"agentPanel",
			"claudeSettingsFile",
			"debugLogging",
			"enabled",
			"excludedFilesArePrivate",
			"fixedPort",
			"keepPrivateFromClaudeTools",
			"privateFolders",
			"privateTags",
			"reviewEditsInObsidian",
			"selectionDebounceMs",
			"vaultTools",
		]);
	});

	it("lives only in the lock file: never in the vault, the logs or the status, before and after a rotation", async () => {
		const fixture = await startAssembledBridge({
			populate: (vault) => writeFileSync(join(vault, "note.md"), "# Note\n"),
		});
		try {
			const client = await fixture.client({ pid: 4242 });
			const tokens = [fixture.token];
			const rotated = await fixture.bridge.host.rotateToken();
			expect((await client.closed).code).toBe(1008);
			const lock = JSON.parse(readFileSync(fixture.lockFilePath, "utf8")) as { authToken: string };
			tokens.push(lock.authToken);
			expect(lock.authToken).not.toBe(fixture.token);
			for (const token of tokens) {
				expect(token).toMatch(/^[0-9a-f]{64}$/);
				for (const file of filesUnder(fixture.tempPath)) {
					if (file === fixture.lockFilePath) continue;
					expect({ file, holdsToken: readFileSync(file, "utf8").includes(token) }).toEqual({
						file,
						holdsToken: false,
					});
				}
				expect(fixture.logs.join("\n")).not.toContain(token);
				expect(JSON.stringify(rotated)).not.toContain(token);
				expect(JSON.stringify(fixture.bridge.host.status())).not.toContain(token);
			}
			expect(rotated.tokenFingerprint).toMatch(/^[0-9a-f]+$/);
			expect(statSync(fixture.lockFilePath).mode & 0o777).toBe(0o600);
		} finally {
			await fixture.stop();
		}
	});
});
