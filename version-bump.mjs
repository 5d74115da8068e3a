// Keeps package.json, manifest.json and versions.json in step.
//   npm version <x.y.z>            npm bumps package.json, then its "version" script runs this file
//   npm run version                brings manifest.json and versions.json to package.json's version
//   node version-bump.mjs --check <tag>   (release workflow) fails unless the tag and the three files agree
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

// Obsidian's community list reads plain x.y.z versions and matches the release tag exactly (no "v").
const VERSION = /^\d+\.\d+\.\d+$/;

export class VersionError extends Error {}

function readJson(directory, name) {
	const path = join(directory, name);
	let text;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		throw new VersionError(`Cannot read ${name}: ${error.message}`);
	}
	let value;
	try {
		value = JSON.parse(text);
	} catch (error) {
		throw new VersionError(`${name} is not valid JSON: ${error.message}`);
	}
	if (typeof value !== "object" || value === null || Array.isArray(value))
		throw new VersionError(`${name} must hold a JSON object`);
	// Keep the file's own indentation, so a bump changes only the version lines.
	const indent = /^\{\r?\n([ \t]+)"/.exec(text)?.[1] ?? "\t";
	return { path, value, indent };
}

function writeJson(file, value) {
	writeFileSync(file.path, `${JSON.stringify(value, null, file.indent)}\n`);
}

/** Sets manifest.json's version and records its minAppVersion for that version in versions.json. */
export function bumpVersion(directory, version) {
	if (typeof version !== "string" || !VERSION.test(version)) {
		throw new VersionError(
			`Not a plain x.y.z version: ${JSON.stringify(version ?? null)}. Run "npm version <x.y.z>", or "npm run version" to match package.json.`,
		);
	}
	// Read and check everything before writing anything, so a bad file leaves all three as they were.
	const pkg = readJson(directory, "package.json");
	const manifest = readJson(directory, "manifest.json");
	const versions = readJson(directory, "versions.json");
	if (pkg.value.version !== version) {
		throw new VersionError(
			`package.json is at ${pkg.value.version}, not ${version}; bump with "npm version ${version}".`,
		);
	}
	const { minAppVersion } = manifest.value;
	if (typeof minAppVersion !== "string" || !VERSION.test(minAppVersion)) {
		throw new VersionError(
			`manifest.json needs a minAppVersion like 1.7.2, not ${JSON.stringify(minAppVersion ?? null)}.`,
		);
	}
	manifest.value.version = version;
	versions.value[version] = minAppVersion;
	writeJson(manifest, manifest.value);
	writeJson(versions, versions.value);
	return { version, minAppVersion };
}

/** The ways a release tag and the three files disagree; empty when they are in step. */
export function versionProblems(directory, tag) {
	if (typeof tag !== "string" || !VERSION.test(tag))
		return [`The tag ${JSON.stringify(tag ?? null)} is not a plain x.y.z version (Obsidian wants no "v" prefix).`];
	const pkg = readJson(directory, "package.json").value;
	const manifest = readJson(directory, "manifest.json").value;
	const versions = readJson(directory, "versions.json").value;
	const problems = [];
	if (pkg.version !== tag) problems.push(`package.json is at ${pkg.version}, not ${tag}.`);
	if (manifest.version !== tag) problems.push(`manifest.json is at ${manifest.version}, not ${tag}.`);
	if (versions[tag] !== manifest.minAppVersion) {
		problems.push(
			`versions.json maps ${tag} to ${versions[tag] ?? "nothing"}, not to manifest.json's minAppVersion ${manifest.minAppVersion}.`,
		);
	}
	return problems;
}

function main(args) {
	const directory = process.cwd();
	if (args[0] === "--check") {
		const problems = versionProblems(directory, args[1]);
		if (problems.length > 0)
			throw new VersionError(
				`The release does not match the tag:\n${problems.join("\n")}\nRun "npm version <x.y.z>" and push the tag it makes.`,
			);
		process.stdout.write(`package.json, manifest.json and versions.json agree on ${args[1]}.\n`);
		return;
	}
	const { version, minAppVersion } = bumpVersion(directory, process.env.npm_package_version);
	process.stdout.write(`manifest.json and versions.json now at ${version} (minAppVersion ${minAppVersion}).\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
	try {
		main(process.argv.slice(2));
	} catch (error) {
		if (!(error instanceof VersionError)) throw error;
		process.stderr.write(`${error.message}\n`);
		process.exit(1);
	}
}
