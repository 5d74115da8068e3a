import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import ts from "typescript";

// The module arrows of ARCHITECTURE.md, checked for every file under src/ (and main.ts).

const ROOT = join(__dirname, "..");

/**
 * Each part of src/ (a top-level folder, or a top-level file without its extension) and the parts of ours it
 * may import; a part may always import itself. A new folder fails the test until it is added here (and to
 * ARCHITECTURE.md).
 */
const ALLOWED_IMPORTS: Record<string, readonly string[]> = {
	// The Obsidian composition root and its adapters.
	"main.ts": ["src/plugin"],
	"src/plugin": ["src/obsidian", "src/bridge", "src/vault-tools", "src/settings", "src/protocol", "src/server", "src/shared"],
	"src/obsidian": ["src/bridge", "src/vault-tools", "src/settings", "src/protocol", "src/server", "src/shared"],
	"src/settings": ["src/server", "src/shared"],
	// The headless composition root (npm start).
	"src/headless": ["src/bridge", "src/vault-tools", "src/protocol", "src/server", "src/shared"],
	// The package's command (bin): `serve` starts the headless host, `mcp` the stdio vault-tools server.
	"src/cli": ["src/headless", "src/vault-tools", "src/bridge", "src/protocol", "src/server", "src/shared"],
	// The core. bridge/ may reach vault-tools/ because bridge-assembly wires every tool.
	"src/bridge": ["src/vault-tools", "src/protocol", "src/server", "src/shared"],
	"src/vault-tools": ["src/bridge", "src/protocol", "src/server", "src/shared"],
	"src/protocol": ["src/shared"],
	"src/server": ["src/shared"],
	"src/shared": [],
};

/** Packages that tie code to the Obsidian app, and the only parts that may import them. */
const APP_PACKAGES = [/^obsidian$/, /^@codemirror\//, /^electron$/];
const MAY_IMPORT_APP_PACKAGES = ["src/obsidian", "src/plugin"];

function sourceFiles(folder: string): string[] {
	return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
	});
}

/** Every module specifier a file imports or re-exports, type-only and dynamic imports included (TypeScript's own scanner). */
function importsOf(file: string): string[] {
	const info = ts.preProcessFile(readFileSync(join(ROOT, file), "utf8"), true, true);
	return info.importedFiles.map((imported) => imported.fileName);
}

/** The part of src/ a repository path belongs to: `src/bridge/tools/x.ts` → `src/bridge`, `src/plugin.ts` → `src/plugin`. */
function partOf(path: string): string {
	const segments = path.split("/");
	if (segments[0] !== "src") return path;
	if (segments.length === 2) return path.replace(/\.ts$/, "");
	return `src/${segments[1] ?? ""}`;
}

/** The repository path a relative specifier points at (with `.ts` when it names a file). */
function resolveRelative(file: string, specifier: string): string {
	const target = relative(ROOT, join(ROOT, dirname(file), specifier)).split("\\").join("/");
	return existsSync(join(ROOT, `${target}.ts`)) ? `${target}.ts` : target;
}

const files = [...sourceFiles("src"), "main.ts"].map((file) => file.split("\\").join("/"));

describe("module arrows (ARCHITECTURE.md)", () => {
	it("covers every part of src/", () => {
		expect(files.length).toBeGreaterThan(50);
		const unknown = [...new Set(files.map(partOf))].filter((part) => !(part in ALLOWED_IMPORTS));
		if (unknown.length > 0) {
			throw new Error(`New part(s) of src/: ${unknown.join(", ")}. Add each to ALLOWED_IMPORTS in tests/architecture.test.ts with what it may import, and to ARCHITECTURE.md.`);
		}
	});

	it("every import of ours follows the table", () => {
		const offending = files.flatMap((file) => {
			const from = partOf(file);
			const allowed = ALLOWED_IMPORTS[from];
			if (!allowed) return [];
			return importsOf(file)
				.filter((specifier) => specifier.startsWith("."))
				.map((specifier) => ({ specifier, to: partOf(resolveRelative(file, specifier)) }))
				.filter(({ to }) => to !== from && !allowed.includes(to))
				.map(({ specifier, to }) => `${file} imports "${specifier}" (${to}); ${from} may import ${allowed.join(", ") || "nothing of ours"}`);
		});
		expect(offending).toEqual([]);
	});

	it("only src/obsidian/ and src/plugin.ts import obsidian, @codemirror/* or electron", () => {
		const offending = files
			.filter((file) => !MAY_IMPORT_APP_PACKAGES.includes(partOf(file)))
			.flatMap((file) => importsOf(file).filter((specifier) => APP_PACKAGES.some((pattern) => pattern.test(specifier))).map((specifier) => `${file} imports ${specifier}`));
		expect(offending).toEqual([]);
	});

	it("the checks see what they check: the table's arrows occur, and obsidian is imported where it may be", () => {
		const arrows = new Set(
			files.flatMap((file) =>
				importsOf(file)
					.filter((specifier) => specifier.startsWith("."))
					.map((specifier) => `${partOf(file)} → ${partOf(resolveRelative(file, specifier))}`),
			),
		);
		for (const arrow of ["main.ts → src/plugin", "src/bridge → src/protocol", "src/bridge → src/server", "src/headless → src/bridge", "src/protocol → src/shared"]) {
			expect(arrows).toContain(arrow);
		}
		expect(files.filter((file) => partOf(file) === "src/obsidian" && importsOf(file).includes("obsidian")).length).toBeGreaterThan(5);
		expect(files.some((file) => importsOf(file).some((specifier) => specifier.startsWith("@codemirror/")))).toBe(true);
	});
});
