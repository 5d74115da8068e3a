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
	"src/vault/folder/confined-writes.ts": {
		where: ["tests/vault/folder/write-confinement.test.ts"],
		why: "writes confined at the moment of writing, through the folder adapter",
	},
	"src/vault/privacy/private-diagnostics-notes.ts": {
		where: ["tests/vault/privacy/vault-privacy.test.ts"],
		why: "the diagnostics' notes through the boundary (VaultPrivacy.notes)",
	},
	"src/headless/headless-mcp.ts": {
		where: ["tests/headless/mcp-config.test.ts"],
		why: "the headless host's HTTP endpoint and mcp-* commands, run through the built host",
	},
	"src/ide/doctor/other-lock-files.ts": {
		where: ["tests/ide/doctor/doctor.test.ts"],
		why: "other editors' lock files, checked through runDoctor",
	},
	"src/ide/doctor/own-lock-file.ts": {
		where: ["tests/ide/doctor/doctor.test.ts"],
		why: "the bridge's own lock file, checked through runDoctor",
	},
	"src/ide/doctor/vault-location.ts": {
		where: ["tests/ide/doctor/doctor.test.ts"],
		why: "the vault's real path checks, through runDoctor",
	},
	"src/obsidian/settings/mcp-commands.ts": {
		where: ["tests/obsidian/settings/vault-tools-section.test.ts"],
		why: "the copyable commands, through the settings section",
	},
	"src/server/lock-file-reader.ts": {
		where: ["tests/security/untrusted-lock-files.test.ts", "tests/vault-tools/relay-client/bridge-locator.test.ts"],
		why: "lock files as untrusted input, through the cleanup and the relay's locator",
	},
	"src/vault-tools/regex/node-regex-thread.ts": {
		where: ["tests/vault-tools/regex/regex-scanner.test.ts"],
		why: "the Node worker thread, driven by the scanner's tests",
	},
	"src/vault-tools/regex/regex-worker-script.ts": {
		where: ["tests/vault-tools/regex/regex-scanner.test.ts", "tests/vault-tools/regex/web-regex-thread.test.ts"],
		why: "the worker's code, run in both kinds of worker",
	},
	"src/vault-tools/serve/http-token-record.ts": {
		where: ["tests/vault-tools/http-token-record.test.ts"],
		why: "the token record's rules, tested under the vault-tools folder",
	},
	"main.ts": {
		where: ["tests/obsidian/bundle.test.ts", "tests/obsidian/bundle-story.test.ts"],
		why: "the plugin's entry: one re-export, tested by loading the built main.js as Obsidian does",
	},
	"src/plugin.ts": {
		where: [
			"tests/obsidian/plugin-lazy-start.test.ts",
			"tests/obsidian/settings/excluded-files-plugin.test.ts",
			"tests/obsidian/bundle.test.ts",
		],
		why: "the plugin class against the fake obsidian module, by feature, and through the built main.js",
	},
	"src/cli/main.ts": {
		where: ["tests/cli/claude-code-bridge-command.test.ts"],
		why: "the package's command: run as the built dist/cli.cjs in a child process",
	},
	"src/headless/main.ts": {
		where: ["tests/headless/headless-host.test.ts", "tests/headless/context-commands.test.ts"],
		why: "the headless host's entry: run as the built dist/headless.cjs in a child process",
	},
	"src/headless/arguments.ts": {
		where: ["tests/headless/mcp-token-file.test.ts"],
		why: "the host's option parsing, tested with the token file and MCP port options it feeds",
	},
	"src/headless/headless-review-port.ts": {
		where: ["tests/contracts/diff-review-port.test.ts"],
		why: "a DiffReviewPort: held to the port's shared contract",
	},
	"src/headless/headless-workspace.ts": {
		where: ["tests/contracts/workspace-port.test.ts"],
		why: "a WorkspacePort: held to the port's shared contract",
	},
	"src/ide/bridge-host.ts": {
		where: [
			"tests/integration/token-rotation.test.ts",
			"tests/ide/doctor/doctor.test.ts",
			"tests/robustness/startup-failures.test.ts",
		],
		why: "the host over real sockets: rotation, start failures, the doctor's view of it",
	},
	"src/ide/diagnostics/diagnostic-types.ts": {
		where: ["tests/ide/tools/get-diagnostics.test.ts"],
		why: "diagnostic shapes and codes, checked in getDiagnostics' answers",
	},
	"src/ide/diagnostics/diagnostics-engine.ts": {
		where: ["tests/ide/diagnostics/rules/diagnose-note.test.ts", "tests/ide/tools/get-diagnostics.test.ts"],
		why: "the engine is how the rules run: the rule tests and getDiagnostics drive it",
	},
	"src/review/diff-layout.ts": {
		where: ["tests/shared/word-diff.test.ts"],
		why: "the review's line layout, tested with the word diff it lays out",
	},
	"src/ide/doctor/doctor-environment.ts": {
		where: ["tests/ide/doctor/doctor.test.ts"],
		why: "the doctor's injectable machine: every doctor test builds one",
	},
	"src/ide/ide-limits.ts": {
		where: ["tests/ide/vault-adapter.test.ts", "tests/integration/notifications.test.ts"],
		why: "timing and size constants, tested by the limits they set on files/read and notifications",
	},
	"src/ide/workspace/private-workspace.ts": {
		where: ["tests/vault/privacy/vault-privacy.test.ts"],
		why: "privacy over the workspace port: tested with the boundary that builds it",
	},
	"src/obsidian/bridge/bridge-runtime.ts": {
		where: ["tests/obsidian/plugin-lazy-start.test.ts"],
		why: "the plugin's lazy start of the bridge, tested through the plugin",
	},
	"src/obsidian/settings/claude-permissions-sync.ts": {
		where: ["tests/obsidian/settings/claude-permissions-settings.test.ts"],
		why: "tested with the settings section that previews and writes the rules",
	},
	"src/obsidian/settings/excluded-files.ts": {
		where: ["tests/obsidian/settings/claude-permissions-settings.test.ts"],
		why: "Obsidian's excluded files as private paths, tested in the settings section that uses them",
	},
	"src/obsidian/settings/previewed-permissions.ts": {
		where: [
			"tests/obsidian/settings/claude-permissions-settings.test.ts",
			"tests/obsidian/settings/excluded-files-plugin.test.ts",
		],
		why: "the record of a previewed write, tested in the permissions settings flow",
	},
	"src/obsidian/vault-tools/vault-tools-component.ts": {
		where: ["tests/obsidian/vault-tools-plugin.test.ts"],
		why: "the vault tools' component, tested inside the plugin against the fake obsidian module",
	},
	"src/vault-tools/kit/ports.ts": {
		where: ["tests/vault-tools/kit/write-flow.test.ts"],
		why: "the words of a rejection, read in the write flow's answers",
	},
	"src/protocol/json-rpc.ts": {
		where: ["tests/integration/json-rpc-errors.test.ts", "tests/robustness/json-rpc-fuzz.test.ts"],
		why: "message parsing and errors, tested over the socket and by fuzzing",
	},
	"src/protocol/mcp-types.ts": {
		where: ["tests/ide/tools/open-diff-review.test.ts", "tests/integration/mcp-lifecycle.test.ts"],
		why: "MCP types with textResult/toolError helpers, checked in every tool answer",
	},
	"src/protocol/tool-registry.ts": {
		where: ["tests/integration/ide-tools.test.ts", "tests/protocol/encoded-json.test.ts"],
		why: "the registry and its change events, tested through tools/list and list_changed",
	},
	"src/server/http/mcp-http-server.ts": {
		where: ["tests/server/http/vault-tools-http.test.ts", "tests/robustness/stop-while-starting.test.ts"],
		why: "the HTTP endpoint over real sockets: every status code, in tests/server/http/vault-tools-http",
	},
	"src/server/limits.ts": {
		where: ["tests/integration/upgrade-rules.test.ts", "tests/server/connection-manager.test.ts"],
		why: "the server's fixed numbers, tested by the limits the connection manager enforces",
	},
	"src/settings.ts": {
		where: ["tests/obsidian/settings/settings-tab.test.ts", "tests/robustness/secrets-at-rest.test.ts"],
		why: "settings shape and migration, tested through the settings tab and the data.json at rest",
	},
	"src/vault/folder/folder-vault-index.ts": {
		where: ["tests/contracts/vault-index.test.ts", "tests/vault-tools/tools/move-note.test.ts"],
		why: "a VaultIndex: held to the port's shared contract, and by the vault tools over it",
	},
	"src/vault/notes/vault-index.ts": {
		where: ["tests/vault-tools/resources/content-methods.test.ts", "tests/vault-tools/search-text-now.test.ts"],
		why: "the VaultIndex port (types, NoteChangedError), held by tests/contracts/vault-index.contract.ts",
	},
	"src/vault/privacy/visible-vault.ts": {
		where: ["tests/vault-tools/read-tools.test.ts", "tests/protocol/mcp-session.test.ts"],
		why: "privacy at the port, tested through every vault tool that reads through it",
	},
	"src/vault-tools/create-vault-tools.ts": {
		where: ["tests/protocol/mcp-session.test.ts", "tests/server/http/vault-tools-http.test.ts"],
		why: "the tools' wiring, tested by serving them in sessions and by the privacy suite",
	},
	"src/vault-tools/relay-client/relay-connection.ts": {
		where: ["tests/vault-tools/relay-client/bridge-relay.test.ts"],
		why: "the relay's WebSocket client, tested against a real bridge in the relay tests",
	},
	"src/vault-tools/serve/http-endpoint.ts": {
		where: ["tests/server/http/vault-tools-http.test.ts"],
		why: "the HTTP transport's glue, tested over real HTTP",
	},
	"src/vault-tools/serve/relay-methods.ts": {
		where: ["tests/vault-tools/relay.test.ts"],
		why: "the relay methods, tested end to end from the stdio relay to the bridge",
	},
	"src/vault-tools/serve/vault-tools-port.ts": {
		where: ["tests/headless/mcp-config.test.ts", "tests/headless/mcp-token-file.test.ts"],
		why: "the headless HTTP port and token file, tested through the host's mcp-config and token commands",
	},
	"src/vault-tools/text/apply-edits.ts": {
		where: ["tests/vault-tools/edit-fuzz.test.ts"],
		why: "edits applied all or none, fuzzed in edit-fuzz; ops by example in tests/vault-tools/write-tools",
	},
	"src/vault-tools/text/edit-targets.ts": {
		where: ["tests/vault-tools/edit-fuzz.test.ts"],
		why: "edit targets, fuzzed in edit-fuzz; each target kind by example in tests/vault-tools/write-tools",
	},
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
	return ts.createSourceFile(
		path,
		readFileSync(join(ROOT, path), "utf8"),
		ts.ScriptTarget.Latest,
		true,
		path.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS,
	);
}

/** A statement that emits no JavaScript: an interface, a type alias, an import, or a type-only re-export. */
function declaresOnlyTypes(statement: ts.Statement): boolean {
	if (
		ts.isInterfaceDeclaration(statement) ||
		ts.isTypeAliasDeclaration(statement) ||
		ts.isImportDeclaration(statement)
	)
		return true;
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
		.map((specifier) =>
			relative(ROOT, join(ROOT, dirname(file), specifier))
				.split("\\")
				.join("/")
				.replace(/\.(ts|js|mjs|cjs)$/, ""),
		);
}

/** Each entry point's bundle, as esbuild.config.mjs declares it: `{ entryPoints: ["x.ts"], outfile: "y" }`. */
function bundlesByEntryPoint(): Map<string, string> {
	const bundles = new Map<string, string>();
	const visit = (node: ts.Node): void => {
		if (ts.isObjectLiteralExpression(node)) {
			const property = (name: string): ts.Expression | undefined =>
				node.properties.find(
					(candidate): candidate is ts.PropertyAssignment =>
						ts.isPropertyAssignment(candidate) && candidate.name.getText() === name,
				)?.initializer;
			const entries = property("entryPoints");
			const outfile = property("outfile");
			if (entries && ts.isArrayLiteralExpression(entries) && outfile && ts.isStringLiteral(outfile)) {
				for (const entry of entries.elements)
					if (ts.isStringLiteral(entry)) bundles.set(entry.text, outfile.text);
			}
		}
		ts.forEachChild(node, visit);
	};
	visit(parse("esbuild.config.mjs"));
	return bundles;
}

/** The string literals of a file and of the test helpers it imports (one level), where a bundle's path is named. */
function stringsReachedFrom(test: string): string[] {
	const files = [
		test,
		...importedPaths(test)
			.map((path) => `${path}.ts`)
			.filter((path) => path.startsWith("tests/") && existsSync(join(ROOT, path))),
	];
	const strings: string[] = [];
	for (const file of files) {
		// A file joining a name to DIST_DIR (tests/helpers/built-dist.ts) names `dist/<name>`.
		const inDist = importedPaths(file).includes("tests/helpers/built-dist");
		const visit = (node: ts.Node): void => {
			if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
				strings.push(inDist ? `dist/${node.text}` : node.text);
			ts.forEachChild(node, visit);
		};
		visit(parse(file));
	}
	return strings;
}

/** Why a listed `where` file does not count: it is missing, or imports neither the source nor a module importing it, nor runs its bundle. */
function whereProblem(source: string, test: string, bundles: Map<string, string>): string | undefined {
	if (!existsSync(join(ROOT, test))) return `${test} does not exist`;
	const wanted = source.replace(/\.ts$/, "");
	if (importedPaths(test).includes(wanted)) return undefined;
	// One step removed: the test imports the module that uses the source (e.g. the tool set that wires a tool).
	const through = importedPaths(test).filter(
		(path) => path.startsWith("src/") && existsSync(join(ROOT, `${path}.ts`)),
	);
	if (through.some((path) => importedPaths(`${path}.ts`).includes(wanted))) return undefined;
	// An entry point, or a module an entry point imports itself, may be tested by running the entry point's bundle.
	const entry = ENTRY_POINTS.includes(source)
		? source
		: ENTRY_POINTS.find((point) => existsSync(join(ROOT, point)) && importedPaths(point).includes(wanted));
	if (entry === undefined) return `${test} does not import ${source}`;
	const bundle = bundles.get(entry) ?? bundles.get(entry === "src/plugin.ts" ? "main.ts" : entry);
	if (bundle === undefined) return `esbuild.config.mjs builds no bundle from ${entry}`;
	if (!/\.test\.ts$/.test(test)) return `${test} is not a test file`;
	return stringsReachedFrom(test).some((text) => text === bundle || text.endsWith(`/${bundle}`))
		? undefined
		: `${test} neither imports ${source} nor runs its bundle ${bundle}`;
}

const SOURCES = [...sourceFiles("src"), "main.ts"].sort();

describe("tests mirror src/", () => {
	it("gives every source file its test at the mirrored path, or no runtime code, or a place on TESTED_ELSEWHERE", () => {
		const missing = SOURCES.filter(
			(source) =>
				!existsSync(join(ROOT, mirroredTest(source))) && !isTypeOnly(source) && !(source in TESTED_ELSEWHERE),
		);
		expect(missing.map((source) => `${source}: add ${mirroredTest(source)}`)).toEqual([]);
	});

	it("lists only files that exist and have no mirrored test yet, so the list only shrinks", () => {
		const stale = Object.keys(TESTED_ELSEWHERE).flatMap((source) => {
			if (!existsSync(join(ROOT, source))) return [`${source} no longer exists`];
			if (existsSync(join(ROOT, mirroredTest(source))))
				return [`${source} has ${mirroredTest(source)}: take it off the list`];
			if (isTypeOnly(source)) return [`${source} declares only types: take it off the list`];
			return [];
		});
		expect(stale).toEqual([]);
	});

	it("names for each listed file real tests that import it (or run its bundle), and a short reason", () => {
		const bundles = bundlesByEntryPoint();
		const problems = Object.entries(TESTED_ELSEWHERE).flatMap(([source, { where, why }]) => [
			...(where.length === 0 ? [`${source}: where is empty`] : []),
			...(why.trim().length === 0 || why.length >= 120
				? [`${source}: why must say something in under 120 characters`]
				: []),
			...where
				.map((test) => whereProblem(source, test, bundles))
				.filter((problem): problem is string => problem !== undefined)
				.map((problem) => `${source}: ${problem}`),
		]);
		expect(problems).toEqual([]);
	});

	it("tells type-only files from files with runtime code by their syntax, not their look", () => {
		const check = (text: string): boolean =>
			ts.createSourceFile("probe.ts", text, ts.ScriptTarget.Latest, true).statements.every(declaresOnlyTypes);
		expect(
			check(
				`import type { A } from "./a";\nexport interface B { a: A }\nexport type C = B | string;\nexport type { D } from "./d";`,
			),
		).toBe(true);
		expect(check(`export interface B { a: string }\nexport const LIMIT = 3;`)).toBe(false);
		expect(check(`export { value } from "./a";`)).toBe(false);
		expect(check(`export enum Kind { A }`)).toBe(false);
		expect(check(`// export const x = 1;\nexport type X = "export function f() {}";`)).toBe(true);
	});

	it("reads each bundled entry point's bundle from esbuild.config.mjs", () => {
		const bundles = bundlesByEntryPoint();
		expect(
			ENTRY_POINTS.filter((entry) => entry !== "src/plugin.ts").map((entry) => [entry, bundles.has(entry)]),
		).toEqual(ENTRY_POINTS.filter((entry) => entry !== "src/plugin.ts").map((entry) => [entry, true]));
	});
});
