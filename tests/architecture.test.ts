import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import ts from "typescript";

// The module arrows of ARCHITECTURE.md, checked for every file under src/ (and main.ts), folder by folder.

const ROOT = join(__dirname, "..");

/**
 * The floors of the house, bottom first. An arrow may only point to a lower floor, or stay on its floor inside
 * one feature (for example `src/ide/doctor` → `src/ide`); the table below then lists every arrow one by one.
 */
const FLOORS: readonly (readonly string[])[] = [
	["src/shared"],
	["src/protocol", "src/server", "src/server/http"],
	["src/vault/markdown", "src/vault/notes", "src/vault", "src/vault/privacy", "src/vault/folder"],
	// A proposed edit waiting for the user, and the activity journal every surface's writes are recorded in, once,
	// below every feature that proposes or records one.
	["src/review", "src/journal"],
	// The features: siblings that never import each other.
	[
		"src/ide",
		"src/ide/claude-permissions",
		"src/ide/diagnostics",
		"src/ide/doctor",
		"src/ide/tools",
		"src/ide/workspace",
		"src/review",
		"src/vault-tools",
		"src/vault-tools/kit",
		"src/vault-tools/prompts",
		"src/vault-tools/regex",
		"src/vault-tools/relay-client",
		"src/vault-tools/resources",
		"src/vault-tools/serve",
		"src/vault-tools/stdio",
		"src/vault-tools/text",
		"src/vault-tools/tools",
		"src/agent",
		"src/agent/claude-cli",
		"src/agent/engine",
		"src/agent/gate",
		"src/agent/transcript",
		"src/agent/vault-config",
		"src/agent/inline-edit",
	],
	["src/assembly"],
	// The roots: Obsidian (plugin, its adapters and UI), the headless host, the package's command.
	// Obsidian's rooms by job, bottom first: the note store over the metadata cache, the editor, the review view,
	// the activity view, the agent panel, the vault tools, the settings tab, the running bridge.
	[
		"src/settings",
		"src/obsidian/notes",
		"src/obsidian/editor",
		"src/obsidian/review",
		"src/obsidian/activity",
		"src/obsidian/agent",
		"src/obsidian/vault-tools",
		"src/obsidian/settings",
		"src/obsidian/bridge",
		"src/plugin",
		"main.ts",
		"src/headless",
		"src/cli",
	],
];

/** The features of the feature floor; a feature is a folder and its subfolders. */
const FEATURES = ["src/ide", "src/vault-tools", "src/agent"];

/**
 * Each part of src/ (a folder's own files, a subfolder of a top-level folder with everything below it, or a
 * top-level file without its extension) and exactly the parts of ours it imports. A part may always import
 * itself. A new part, or a new arrow, fails the test until it is added here (and to ARCHITECTURE.md).
 */
const ALLOWED_IMPORTS: Record<string, readonly string[]> = {
	"src/shared": [],
	"src/protocol": ["src/shared"],
	"src/server": ["src/shared"],
	"src/server/http": ["src/server", "src/shared"],
	// The vault, once: Markdown reading, the note model and its ports, paths, privacy, the folder adapter.
	"src/vault/markdown": ["src/shared"],
	"src/vault/notes": ["src/vault/markdown", "src/shared"],
	"src/vault": [],
	"src/vault/privacy": ["src/vault", "src/vault/markdown", "src/vault/notes", "src/shared"],
	"src/vault/folder": ["src/vault/markdown", "src/vault/notes", "src/shared"],
	// The review floor: one proposal and one decision model, the pending reviews.
	"src/review": ["src/vault", "src/vault/privacy", "src/shared"],
	// The Claude Code IDE features.
	"src/ide/workspace": ["src/vault", "src/vault/notes", "src/vault/privacy", "src/shared"],
	"src/ide/diagnostics": ["src/vault/markdown", "src/vault/notes"],
	"src/ide/claude-permissions": ["src/vault", "src/shared"],
	"src/ide/tools": [
		"src/ide/diagnostics",
		"src/ide/workspace",
		"src/review",
		"src/vault",
		"src/vault/privacy",
		"src/protocol",
		"src/shared",
	],
	"src/ide": [
		"src/ide/workspace",
		"src/vault",
		"src/vault/notes",
		"src/vault/privacy",
		"src/protocol",
		"src/server",
		"src/shared",
	],
	"src/ide/doctor": ["src/ide", "src/ide/claude-permissions", "src/server", "src/shared"],
	// Claude's vault tools.
	"src/vault-tools/text": ["src/vault/markdown", "src/vault/notes", "src/shared"],
	"src/vault-tools/regex": [],
	"src/vault-tools/kit": [
		"src/review",
		"src/vault-tools/regex",
		"src/vault-tools/text",
		"src/vault/notes",
		"src/vault/privacy",
		"src/protocol",
		"src/shared",
	],
	"src/vault-tools/tools": [
		"src/vault-tools/kit",
		"src/vault-tools/regex",
		"src/vault-tools/text",
		"src/vault/markdown",
		"src/vault/notes",
		"src/vault/privacy",
		"src/protocol",
		"src/shared",
	],
	"src/vault-tools": [
		"src/review",
		"src/vault-tools/kit",
		"src/vault-tools/regex",
		"src/vault-tools/tools",
		"src/vault/privacy",
		"src/protocol",
		"src/shared",
	],
	"src/vault-tools/prompts": ["src/vault/privacy", "src/protocol", "src/shared"],
	"src/vault-tools/resources": [
		"src/vault-tools/kit",
		"src/vault-tools/prompts",
		"src/vault/privacy",
		"src/protocol",
	],
	"src/vault-tools/serve": ["src/protocol", "src/server", "src/server/http", "src/shared"],
	"src/vault-tools/relay-client": ["src/protocol", "src/server", "src/shared"],
	// The stdio server's own parts: its channel, the relay's choice of bridge, the folder it reads and shares.
	"src/vault-tools/stdio": [
		"src/vault-tools/relay-client",
		"src/vault-tools/serve",
		"src/vault/folder",
		"src/vault/privacy",
		"src/vault",
		"src/protocol",
		"src/server",
		"src/shared",
	],
	// The activity and undo journal: records every surface's calls and writes.
	"src/journal": ["src/vault/notes", "src/vault/markdown", "src/protocol", "src/shared"],
	// The agent panel's engine, in rooms by job; `agent-session.ts` (the contract every room and the view share) imports only the review floor's decision type.
	// The contract names the panel's view of a review's decision after the review floor's one model.
	"src/agent": ["src/review"],
	// Finding, checking and starting the user's Claude Code, and its process speaking JSON lines.
	"src/agent/claude-cli": [],
	// The vault's own Claude Code configuration: what it would do, and the user's trust in it.
	"src/agent/vault-config": [],
	// The stream-json engine: sessions over the CLI's control protocol, attachments, the CLI's session files.
	"src/agent/engine": ["src/agent", "src/agent/claude-cli", "src/vault", "src/vault/privacy"],
	// The gate every tool call passes: rules, questions, file writes put to review.
	"src/agent/gate": ["src/agent", "src/review", "src/journal", "src/vault", "src/vault/privacy"],
	// The panel's transcript: its rows, the Markdown of replies, the export as a note.
	"src/agent/transcript": ["src/agent", "src/shared"],
	// Inline edits in a note: the passage, the prompt, the streamed reply, the suggestions and decisions, the session.
	"src/agent/inline-edit": ["src/agent", "src/agent/engine", "src/shared"],
	// Every feature built from ports, once, for every root.
	"src/assembly": [
		"src/agent",
		"src/agent/inline-edit",
		"src/agent/claude-cli",
		"src/agent/engine",
		"src/agent/gate",
		"src/ide",
		"src/ide/claude-permissions",
		"src/ide/diagnostics",
		"src/ide/tools",
		"src/ide/workspace",
		"src/review",
		"src/vault-tools",
		"src/vault-tools/kit",
		"src/vault-tools/prompts",
		"src/vault-tools/regex",
		"src/vault-tools/relay-client",
		"src/vault-tools/resources",
		"src/vault-tools/serve",
		"src/vault-tools/stdio",
		"src/journal",
		"src/vault",
		"src/vault/folder",
		"src/vault/markdown",
		"src/vault/notes",
		"src/vault/privacy",
		"src/protocol",
		"src/server",
		"src/shared",
	],
	// The roots.
	"src/settings": ["src/ide"],
	// Obsidian's rooms: the vault adapter (one note store over the metadata cache, the files, the diagnostics' notes).
	"src/obsidian/notes": ["src/vault/markdown", "src/vault/notes", "src/vault/privacy", "src/shared"],
	// The editor and workspace side: selection tracking, "Tag for Claude Code", inline edits, the workspace port.
	"src/obsidian/editor": ["src/agent/inline-edit", "src/ide", "src/ide/workspace", "src/vault", "src/shared"],
	// The review view: the panel, its suggestions and diff, the view, its port and registration.
	"src/obsidian/review": ["src/obsidian/editor", "src/review", "src/vault", "src/shared"],
	// The activity view and the plugin's journal store; its rows speak the panel's words for Claude's tools.
	"src/obsidian/activity": [
		"src/obsidian/notes",
		"src/obsidian/review",
		"src/assembly",
		"src/agent/transcript",
		"src/journal",
		"src/server",
		"src/shared",
	],
	// The agent panel's view, settings rows and the lazily loaded engine module.
	"src/obsidian/agent": [
		"src/agent",
		"src/agent/inline-edit",
		"src/agent/claude-cli",
		"src/agent/engine",
		"src/agent/gate",
		"src/agent/transcript",
		"src/agent/vault-config",
		"src/assembly",
		"src/settings",
		"src/shared",
	],
	"src/obsidian/vault-tools": [
		"src/obsidian/notes",
		"src/assembly",
		"src/settings",
		"src/vault-tools/regex",
		"src/vault-tools/resources",
		"src/vault-tools/serve",
		"src/vault",
		"src/vault/markdown",
		"src/vault/notes",
		"src/server",
		"src/shared",
	],
	// The settings tab and its sections; the settings' host (privacy rules, Claude Code's deny rules kept in step, what the panel reads).
	"src/obsidian/settings": [
		"src/obsidian/agent",
		"src/agent/claude-cli",
		"src/obsidian/vault-tools",
		"src/settings",
		"src/assembly",
		"src/agent/vault-config",
		"src/ide",
		"src/ide/claude-permissions",
		"src/ide/doctor",
		"src/vault",
		"src/vault/privacy",
		"src/vault-tools/serve",
		"src/shared",
	],
	// The running bridge: its component over Obsidian's adapters, the module loaded at layout ready, the status bar.
	"src/obsidian/bridge": [
		"src/obsidian/activity",
		"src/obsidian/editor",
		"src/obsidian/notes",
		"src/obsidian/review",
		"src/obsidian/vault-tools",
		"src/settings",
		"src/assembly",
		"src/ide",
		"src/ide/workspace",
		"src/vault",
		"src/vault/privacy",
		"src/server",
	],
	"src/plugin": [
		"src/obsidian/activity",
		"src/obsidian/agent",
		"src/obsidian/bridge",
		"src/obsidian/editor",
		"src/obsidian/notes",
		"src/obsidian/review",
		"src/obsidian/settings",
		"src/obsidian/vault-tools",
		"src/agent",
		"src/agent/inline-edit",
		"src/ide",
		"src/vault",
		"src/shared",
	],
	"main.ts": ["src/plugin"],
	"src/headless": [
		"src/assembly",
		"src/ide",
		"src/ide/claude-permissions",
		"src/ide/doctor",
		"src/ide/workspace",
		"src/review",
		"src/vault-tools/resources",
		"src/vault-tools/serve",
		"src/vault",
		"src/vault/folder",
		"src/vault/notes",
		"src/vault/privacy",
		"src/journal",
		"src/server",
		"src/shared",
	],
	"src/cli": ["src/headless", "src/assembly", "src/vault-tools/serve", "src/server", "src/shared"],
};

/** Packages that tie code to the Obsidian app, and the only parts that may import them. */
const APP_PACKAGES = [/^obsidian$/, /^@codemirror\//, /^electron$/];
const MAY_IMPORT_APP_PACKAGES = [
	"src/obsidian/activity",
	"src/obsidian/agent",
	"src/obsidian/bridge",
	"src/obsidian/editor",
	"src/obsidian/notes",
	"src/obsidian/review",
	"src/obsidian/settings",
	"src/obsidian/vault-tools",
	"src/plugin",
];

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

/**
 * The part of src/ a repository path belongs to: `src/ide/tools/x.ts` → `src/ide/tools`,
 * `src/ide/tools/deep/y.ts` → `src/ide/tools`, `src/ide/notifier.ts` → `src/ide`, `src/plugin.ts` → `src/plugin`.
 */
function partOf(path: string): string {
	const segments = path.split("/");
	if (segments[0] !== "src") return path;
	if (segments.length === 2) return path.replace(/\.ts$/, "");
	if (segments.length === 3) return `src/${segments[1] ?? ""}`;
	return `src/${segments[1] ?? ""}/${segments[2] ?? ""}`;
}

/** The repository path a relative specifier points at (with `.ts` when it names a file). */
function resolveRelative(file: string, specifier: string): string {
	const target = relative(ROOT, join(ROOT, dirname(file), specifier))
		.split("\\")
		.join("/");
	return existsSync(join(ROOT, `${target}.ts`)) ? `${target}.ts` : target;
}

/** Every arrow between two parts, with the first file and specifier that draws it. */
function arrowsOf(sourceFilesToCheck: readonly string[], read: (file: string) => string[]): Map<string, string> {
	const arrows = new Map<string, string>();
	for (const file of sourceFilesToCheck) {
		for (const specifier of read(file).filter((candidate) => candidate.startsWith("."))) {
			const from = partOf(file);
			const to = partOf(resolveRelative(file, specifier));
			if (from !== to && !arrows.has(`${from} → ${to}`))
				arrows.set(`${from} → ${to}`, `${file} imports "${specifier}"`);
		}
	}
	return arrows;
}

/** The arrows that break the table: not listed for their part. */
function offendingArrows(arrows: Map<string, string>): string[] {
	return [...arrows].flatMap(([arrow, where]) => {
		const [from = "", to = ""] = arrow.split(" → ");
		const allowed = ALLOWED_IMPORTS[from];
		if (allowed === undefined || allowed.includes(to)) return [];
		return [`${where} (${arrow}); ${from} may import ${allowed.join(", ") || "nothing of ours"}`];
	});
}

const floorOf = (part: string): number => FLOORS.findIndex((floor) => floor.includes(part));
const featureOf = (part: string): string | undefined =>
	FEATURES.find((feature) => part === feature || part.startsWith(`${feature}/`));

const files = [...sourceFiles("src"), "main.ts"].map((file) => file.split("\\").join("/"));

describe("module arrows (ARCHITECTURE.md)", () => {
	it("covers every part of src/, each on one floor", () => {
		expect(files.length).toBeGreaterThan(50);
		const unknown = [...new Set(files.map(partOf))].filter(
			(part) => !(part in ALLOWED_IMPORTS) || floorOf(part) < 0,
		);
		if (unknown.length > 0) {
			throw new Error(
				`New part(s) of src/: ${unknown.join(", ")}. Add each to FLOORS and ALLOWED_IMPORTS in tests/architecture.test.ts with what it may import, and to ARCHITECTURE.md.`,
			);
		}
		expect(Object.keys(ALLOWED_IMPORTS).filter((part) => floorOf(part) < 0)).toEqual([]);
	});

	it("the table runs one way: down a floor, or inside one feature without a cycle; features never import each other", () => {
		const wrong: string[] = [];
		for (const [from, targets] of Object.entries(ALLOWED_IMPORTS)) {
			for (const to of targets) {
				if (!(to in ALLOWED_IMPORTS)) wrong.push(`${from} → ${to}: no such part`);
				if (floorOf(to) > floorOf(from)) wrong.push(`${from} → ${to} points up a floor`);
				const [fromFeature, toFeature] = [featureOf(from), featureOf(to)];
				if (fromFeature !== undefined && toFeature !== undefined && fromFeature !== toFeature)
					wrong.push(`${from} → ${to} crosses to a sibling feature`);
			}
		}
		expect(wrong).toEqual([]);
		// No cycle anywhere (depth-first search over the table).
		const state = new Map<string, "open" | "done">();
		const cycle: string[] = [];
		const visit = (part: string, path: string[]): void => {
			if (state.get(part) === "done" || cycle.length > 0) return;
			if (state.get(part) === "open") {
				cycle.push(...path.slice(path.indexOf(part)), part);
				return;
			}
			state.set(part, "open");
			for (const next of ALLOWED_IMPORTS[part] ?? []) visit(next, [...path, part]);
			state.set(part, "done");
		};
		for (const part of Object.keys(ALLOWED_IMPORTS)) visit(part, []);
		expect(cycle).toEqual([]);
	});

	it("every import of ours follows the table", () => {
		expect(offendingArrows(arrowsOf(files, importsOf))).toEqual([]);
	});

	it("the table lists no arrow the code does not draw", () => {
		const drawn = new Set(arrowsOf(files, importsOf).keys());
		const unused = Object.entries(ALLOWED_IMPORTS).flatMap(([from, targets]) =>
			targets.filter((to) => !drawn.has(`${from} → ${to}`)).map((to) => `${from} → ${to}`),
		);
		expect(unused).toEqual([]);
	});

	it("fails on an import that runs up a floor or across to a sibling feature", () => {
		const planted: Record<string, string[]> = {
			"src/vault/notes/planted.ts": ["../../ide/notifier"],
			"src/ide/tools/planted.ts": ["../../vault-tools/kit/tool-kit"],
			"src/vault-tools/tools/planted.ts": ["../../assembly/bridge-assembly"],
		};
		const offending = offendingArrows(arrowsOf(Object.keys(planted), (file) => planted[file] ?? []));
		expect(offending).toHaveLength(3);
	});

	it("only src/obsidian/ and src/plugin.ts import obsidian, @codemirror/* or electron", () => {
		const offending = files
			.filter((file) => !MAY_IMPORT_APP_PACKAGES.includes(partOf(file)))
			.flatMap((file) =>
				importsOf(file)
					.filter((specifier) => APP_PACKAGES.some((pattern) => pattern.test(specifier)))
					.map((specifier) => `${file} imports ${specifier}`),
			);
		expect(offending).toEqual([]);
	});

	it("the checks see what they check: obsidian is imported where it may be", () => {
		expect(
			files.filter((file) => partOf(file).startsWith("src/obsidian/") && importsOf(file).includes("obsidian"))
				.length,
		).toBeGreaterThan(5);
		expect(files.some((file) => importsOf(file).some((specifier) => specifier.startsWith("@codemirror/")))).toBe(
			true,
		);
	});
});
