import { spawnSync } from "node:child_process";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { makeTempDir } from "../helpers/temp-dir";

const ROOT = resolve(__dirname, "../..");
const SCRIPT = join(ROOT, "version-bump.mjs");
const FILES = ["package.json", "manifest.json", "versions.json"] as const;

type Json = Record<string, unknown>;

function readJson(directory: string, name: string): Json {
	return JSON.parse(readFileSync(join(directory, name), "utf8")) as Json;
}

/** A temp copy of the repo's three version files (and the bump script, for npm's "version" script). */
function copyOfTheRepo() {
	const temp = makeTempDir("version-bump");
	for (const name of [...FILES, "version-bump.mjs"]) copyFileSync(join(ROOT, name), join(temp.path, name));
	return temp;
}

function runBump(directory: string, args: string[], env: NodeJS.ProcessEnv = {}) {
	return spawnSync(process.execPath, [SCRIPT, ...args], {
		cwd: directory,
		env: { PATH: process.env.PATH ?? "", ...env },
		encoding: "utf8",
	});
}

describe("version-bump.mjs", () => {
	it("the repo's package.json, manifest.json and versions.json are in step now", () => {
		// On a copy: the script under test never runs in the repo itself.
		const temp = copyOfTheRepo();
		try {
			const result = runBump(temp.path, ["--check", String(readJson(temp.path, "package.json").version)]);
			expect(result.stderr).toBe("");
			expect(result.status).toBe(0);
		} finally {
			temp.remove();
		}
	});

	it("npm version bumps all three files, keeps older versions.json entries and the files' indentation", () => {
		const temp = copyOfTheRepo();
		try {
			const before = {
				manifest: readJson(temp.path, "manifest.json"),
				versions: readJson(temp.path, "versions.json"),
			};
			const manifestIndent = /^\{\n([ \t]+)"/.exec(readFileSync(join(temp.path, "manifest.json"), "utf8"))?.[1];
			const git = spawnSync("git", ["init", "-q"], { cwd: temp.path, encoding: "utf8" });
			expect(git.status).toBe(0);
			const npm = spawnSync("npm", ["version", "9.8.7", "--no-git-tag-version"], {
				cwd: temp.path,
				encoding: "utf8",
				env: { ...process.env, npm_config_loglevel: "error" },
			});
			expect(npm.stderr.replace(/^npm warn .*\n/gm, "")).toBe("");
			expect(npm.status).toBe(0);

			expect(readJson(temp.path, "package.json").version).toBe("9.8.7");
			expect(readJson(temp.path, "manifest.json")).toEqual({ ...before.manifest, version: "9.8.7" });
			expect(readJson(temp.path, "versions.json")).toEqual({
				...before.versions,
				"9.8.7": before.manifest.minAppVersion,
			});
			expect(readFileSync(join(temp.path, "manifest.json"), "utf8")).toMatch(
				new RegExp(`^\\{\\n${manifestIndent ?? "\\t"}"id"`),
			);
			// The "version" script stages the two files so that npm's version commit carries them.
			const staged = spawnSync("git", ["diff", "--cached", "--name-only"], { cwd: temp.path, encoding: "utf8" });
			expect(staged.stdout.split("\n").filter(Boolean).sort()).toEqual(["manifest.json", "versions.json"]);
			expect(runBump(temp.path, ["--check", "9.8.7"]).status).toBe(0);
		} finally {
			temp.remove();
		}
	});

	it("refuses a version that is not x.y.z, or that package.json does not have, and changes nothing", () => {
		const temp = copyOfTheRepo();
		try {
			const snapshot = () => FILES.map((name) => readFileSync(join(temp.path, name), "utf8"));
			const before = snapshot();
			const version = String(readJson(temp.path, "package.json").version);

			const prefixed = runBump(temp.path, [], { npm_package_version: `v${version}` });
			expect(prefixed.status).toBe(1);
			expect(prefixed.stderr).toBe(
				`Not a plain x.y.z version: "v${version}". Run "npm version <x.y.z>", or "npm run version" to match package.json.\n`,
			);

			const missing = runBump(temp.path, []);
			expect(missing.status).toBe(1);
			expect(missing.stderr).toMatch(/^Not a plain x\.y\.z version: null\./);

			const other = runBump(temp.path, [], { npm_package_version: "5.0.0" });
			expect(other.status).toBe(1);
			expect(other.stderr).toBe(`package.json is at ${version}, not 5.0.0; bump with "npm version 5.0.0".\n`);
			expect(snapshot()).toEqual(before);
		} finally {
			temp.remove();
		}
	});

	it("refuses a broken versions.json before writing manifest.json", () => {
		const temp = copyOfTheRepo();
		try {
			writeFileSync(join(temp.path, "versions.json"), "{ broken");
			const manifest = readFileSync(join(temp.path, "manifest.json"), "utf8");
			const result = runBump(temp.path, [], {
				npm_package_version: String(readJson(temp.path, "package.json").version),
			});
			expect(result.status).toBe(1);
			expect(result.stderr).toMatch(/^versions\.json is not valid JSON: /);
			expect(readFileSync(join(temp.path, "manifest.json"), "utf8")).toBe(manifest);
		} finally {
			temp.remove();
		}
	});

	it("--check names every file that disagrees with the release tag", () => {
		const temp = copyOfTheRepo();
		try {
			const result = runBump(temp.path, ["--check", "7.7.7"]);
			expect(result.status).toBe(1);
			const manifest = readJson(temp.path, "manifest.json");
			expect(result.stderr).toBe(
				[
					"The release does not match the tag:",
					`package.json is at ${String(readJson(temp.path, "package.json").version)}, not 7.7.7.`,
					`manifest.json is at ${String(manifest.version)}, not 7.7.7.`,
					`versions.json maps 7.7.7 to nothing, not to manifest.json's minAppVersion ${String(manifest.minAppVersion)}.`,
					'Run "npm version <x.y.z>" and push the tag it makes.',
					"",
				].join("\n"),
			);
		} finally {
			temp.remove();
		}
	});
});
