import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(__dirname, "../..");
const read = (name: string) => readFileSync(join(ROOT, name), "utf8");

/** The "Lint rules turned off" section of docs/developers.md. */
function lintSection(): string {
	const developers = read("docs/developers.md");
	const start = developers.indexOf("## Lint rules turned off");
	if (start < 0) throw new Error('docs/developers.md has no "Lint rules turned off" section');
	const end = developers.indexOf("\n#", start + 1);
	return developers.slice(start, end < 0 ? undefined : end);
}

describe("lint rules turned off", () => {
	it("are each named in docs/developers.md with a reason", () => {
		const off = [...read("eslint.config.mjs").matchAll(/"([\w@/-]+)":\s*"off"/g)].map((match) => match[1] ?? "");
		expect(off.length).toBeGreaterThan(0);
		const section = lintSection();
		expect(off.filter((rule) => !section.includes(`\`${rule}\``))).toEqual([]);
	});

	it("give the manifest's minAppVersion where they cite it", () => {
		const { minAppVersion } = JSON.parse(read("manifest.json")) as { minAppVersion: string };
		const cited = [read("eslint.config.mjs"), lintSection()].map(
			(text) => /supports (\d+\.\d+\.\d+) and later/.exec(text)?.[1],
		);
		expect(cited).toEqual([minAppVersion, minAppVersion]);
	});
});
