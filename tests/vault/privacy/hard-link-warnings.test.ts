import { linkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HardLinkWarnings } from "../../../src/vault/privacy/hard-link-warnings";
import { VaultPaths } from "../../../src/vault/vault-paths";
import { makeTempDir } from "../../helpers/temp-dir";

const temp = makeTempDir("hard-link-warnings");
writeFileSync(join(temp.path, "single.md"), "one name");
writeFileSync(join(temp.path, "public.md"), "two names");
linkSync(join(temp.path, "public.md"), join(temp.path, "other.md"));
afterAll(() => temp.remove());

function setup() {
	const warnings: string[] = [];
	const paths = new VaultPaths(temp.path);
	return { warnings, paths, check: new HardLinkWarnings(paths, (message) => warnings.push(message)) };
}

describe("HardLinkWarnings", () => {
	it("warns once per file with more than one hard link, naming it and its link count", () => {
		const { warnings, paths, check } = setup();
		check.check(paths.resolve("public.md"));
		check.check(paths.resolve("public.md"));
		expect(warnings).toEqual([
			"Served public.md, a file with 2 hard links: if another of its names is in a private folder, its text is readable under this one (privacy rules see names, not files)",
		]);
	});

	it("says nothing of a file with one name, or of one that does not exist", () => {
		const { warnings, paths, check } = setup();
		check.check(paths.resolve("single.md"));
		check.check(paths.resolve("missing.md"));
		expect(warnings).toEqual([]);
	});

	it("names a symbolic link's target, the file that has the links", () => {
		const { warnings, check } = setup();
		check.check({ relative: "shortcut.md", absolute: join(temp.path, "shortcut.md"), realRelative: "other.md" });
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/^Served other\.md, a file with 2 hard links/);
	});
});
