import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(__dirname, "..");

function sourceFiles(folder: string): string[] {
	return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith(".ts") ? [path] : [];
	});
}

function importsOf(file: string): string[] {
	const text = readFileSync(join(ROOT, file), "utf8");
	return [...text.matchAll(/^\s*(?:import|export)\b[^;]*?from\s+"([^"]+)"/gm)].map((match) => match[1] ?? "");
}

function importedFolders(file: string): string[] {
	return importsOf(file)
		.filter((specifier) => specifier.startsWith("."))
		.map((specifier) => relative(ROOT, join(ROOT, file, "..", specifier)).split("/").slice(0, 2).join("/"));
}

describe("module arrows (ARCHITECTURE.md)", () => {
	it("only src/obsidian and src/plugin.ts import obsidian", () => {
		const core = ["src/server", "src/protocol", "src/bridge", "src/headless", "src/shared"].flatMap(sourceFiles);
		expect(core.length).toBeGreaterThan(50);
		expect(core.filter((file) => importsOf(file).includes("obsidian"))).toEqual([]);
	});

	it("protocol and server depend on nothing above them", () => {
		const lower = ["src/protocol", "src/server"].flatMap(sourceFiles);
		const offending = lower.flatMap((file) =>
			importedFolders(file)
				.filter((folder) => ["src/bridge", "src/obsidian", "src/headless"].includes(folder))
				.map((folder) => `${file} → ${folder}`),
		);
		expect(offending).toEqual([]);
	});

	it("protocol does not reach into server", () => {
		const offending = sourceFiles("src/protocol").filter((file) => importedFolders(file).includes("src/server"));
		expect(offending).toEqual([]);
	});
});
