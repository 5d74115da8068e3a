import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import ts from "typescript";

// Tests mirror src/: src/a/b/c.ts is tested in tests/a/b/c.test.ts, declares no runtime code, or is listed below.

const ROOT = join(__dirname, "..");

/** The entry points esbuild bundles; a test of one runs its bundle (read from esbuild.config.mjs below). */
const ENTRY_POINTS = ["main.ts", "src/plugin.ts", "src/headless/main.ts", "src/cli/main.ts"];

/**
 * Source files tested elsewhere than their mirrored path: where (test files that import the file itself, or for an
 * entry point run its built bundle) and why not at the mirrored path. The list only shrinks: a listed file that
 * gets its mirrored test fails this test until it leaves the list.
 */
export const TESTED_ELSEWHERE: Record<string, { where: string[]; why: string }> = {
};

/** Every TypeScript source file of the plugin, headless host and command, as repository paths. */
function sourceFiles(folder: string): string[] {
	return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
		const path = `${folder}/${entry.name}`;
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
	});
}

/** `src/a/b/c.ts` → `tests/a/b/c.test.ts`; the root `main.ts` → `tests/main.test.ts`. */
function mirroredTest(source: string): string {
	return `tests/${source.replace(/^src\//, "").replace(/\.ts$/, ".test.ts")}`;
}

function parse(path: string): ts.SourceFile {
	return ts.createSourceFile(path, readFileSync(join(ROOT, path), "utf8"), ts.ScriptTarget.Latest, true, path.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS);
}

/** A statement that emits no JavaScript: an interface, a type alias, an import, or a type-only re-export. */
function declaresOnlyTypes(statement: ts.Statement): boolean {
	if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isImportDeclaration(statement)) return true;
	return ts.isExportDeclaration(statement) && statement.isTypeOnly;
}

/** A file whose every top-level statement is a type, so there is nothing to run. */
function isTypeOnly(source: string): boolean {
	return parse(source).statements.every(declaresOnlyTypes);
}

/** The repository paths a file imports relatively (static, dynamic and `require`), each without its extension. */
function importedPaths(file: string): string[] {
	const info = ts.preProcessFile(readFileSync(join(ROOT, file), "utf8"), true, true);
	return info.importedFiles
		.map((imported) => imported.fileName)
		.filter((specifier) => specifier.startsWith("."))
		.map((specifier) => relative(ROOT, join(ROOT, dirname(file), specifier)).split("\\").join("/").replace(/\.(ts|js|mjs|cjs)$/, ""));
}

/** Each entry point's bundle, as esbuild.config.mjs declares it: `{ entryPoints: ["x.ts"], outfile: "y" }`. */
function bundlesByEntryPoint(): Map<string, string> {
	const bundles = new Map<string, string>();
	const visit = (node: ts.Node): void => {
		if (ts.isObjectLiteralExpression(node)) {
			const property = (name: string): ts.Expression | undefined =>
				node.properties.find((candidate): candidate is ts.PropertyAssignment => ts.isPropertyAssignment(candidate) && candidate.name.getText() === name)?.initializer;
			const entries = property("entryPoints");
			const outfile = property("outfile");
			if (entries && ts.isArrayLiteralExpression(entries) && outfile && ts.isStringLiteral(outfile)) {
				for (const entry of entries.elements) if (ts.isStringLiteral(entry)) bundles.set(entry.text, outfile.text);
			}
		}
		ts.forEachChild(node, visit);
	};
	visit(parse("esbuild.config.mjs"));
	return bundles;
}

/** The string literals of a file and of the test helpers it imports (one level), where a bundle's path is named. */
function stringsReachedFrom(test: string): string[] {
	const files = [test, ...importedPaths(test).map((path) => `${path}.ts`).filter((path) => path.startsWith("tests/") && existsSync(join(ROOT, path)))];
	const strings: string[] = [];
	for (const file of files) {
		const visit = (node: ts.Node): void => {
			if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) strings.push(node.text);
			ts.forEachChild(node, visit);
		};
		visit(parse(file));
	}
	return strings;
}

/** Why a listed `where` file does not count: it is missing, or neither imports the source nor runs its bundle. */
function whereProblem(source: string, test: string, bundles: Map<string, string>): string | undefined {
	if (!existsSync(join(ROOT, test))) return `${test} does not exist`;
	if (importedPaths(test).includes(source.replace(/\.ts$/, ""))) return undefined;
	if (!ENTRY_POINTS.includes(source)) return `${test} does not import ${source}`;
	const bundle = bundles.get(source) ?? bundles.get(source === "src/plugin.ts" ? "main.ts" : source);
	if (bundle === undefined) return `esbuild.config.mjs builds no bundle from ${source}`;
	if (!/\.test\.ts$/.test(test)) return `${test} is not a test file`;
	return stringsReachedFrom(test).some((text) => text === bundle || text.endsWith(`/${bundle}`)) ? undefined : `${test} neither imports ${source} nor runs its bundle ${bundle}`;
}

const SOURCES = [...sourceFiles("src"), "main.ts"].sort();

describe("tests mirror src/", () => {
	it("gives every source file its test at the mirrored path, or no runtime code, or a place on TESTED_ELSEWHERE", () => {
		const missing = SOURCES.filter((source) => !existsSync(join(ROOT, mirroredTest(source))) && !isTypeOnly(source) && !(source in TESTED_ELSEWHERE));
		expect(missing.map((source) => `${source}: add ${mirroredTest(source)}`)).toEqual([]);
	});

	it("lists only files that exist and have no mirrored test yet, so the list only shrinks", () => {
		const stale = Object.keys(TESTED_ELSEWHERE).flatMap((source) => {
			if (!existsSync(join(ROOT, source))) return [`${source} no longer exists`];
			if (existsSync(join(ROOT, mirroredTest(source)))) return [`${source} has ${mirroredTest(source)}: take it off the list`];
			if (isTypeOnly(source)) return [`${source} declares only types: take it off the list`];
			return [];
		});
		expect(stale).toEqual([]);
	});

	it("names for each listed file real tests that import it (or run its bundle), and a short reason", () => {
		const bundles = bundlesByEntryPoint();
		const problems = Object.entries(TESTED_ELSEWHERE).flatMap(([source, { where, why }]) => [
			...(where.length === 0 ? [`${source}: where is empty`] : []),
			...(why.trim().length === 0 || why.length >= 120 ? [`${source}: why must say something in under 120 characters`] : []),
			...where.map((test) => whereProblem(source, test, bundles)).filter((problem): problem is string => problem !== undefined).map((problem) => `${source}: ${problem}`),
		]);
		expect(problems).toEqual([]);
	});

	it("tells type-only files from files with runtime code by their syntax, not their look", () => {
		const check = (text: string): boolean => ts.createSourceFile("probe.ts", text, ts.ScriptTarget.Latest, true).statements.every(declaresOnlyTypes);
		expect(check(`import type { A } from "./a";\nexport interface B { a: A }\nexport type C = B | string;\nexport type { D } from "./d";`)).toBe(true);
		expect(check(`export interface B { a: string }\nexport const LIMIT = 3;`)).toBe(false);
		expect(check(`export { value } from "./a";`)).toBe(false);
		expect(check(`export enum Kind { A }`)).toBe(false);
		expect(check(`// export const x = 1;\nexport type X = "export function f() {}";`)).toBe(true);
	});

	it("reads each bundled entry point's bundle from esbuild.config.mjs", () => {
		const bundles = bundlesByEntryPoint();
		expect(ENTRY_POINTS.filter((entry) => entry !== "src/plugin.ts").map((entry) => [entry, bundles.has(entry)])).toEqual(ENTRY_POINTS.filter((entry) => entry !== "src/plugin.ts").map((entry) => [entry, true]));
	});
});
