import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/**
 * Issue 15, finding 9: on a loaded machine a fixture's start took longer than Jest's hook timeout, and then the
 * teardown threw on the fixture that was never assigned, burying the real failure under a TypeError per test.
 * Checked in every test file, with TypeScript's parser:
 * - an async `beforeAll`/`beforeEach` (it starts a server or a process, or builds a vault) passes
 *   `FIXTURE_TIMEOUT_MS` (tests/helpers/fixture-timeout.ts) as its timeout;
 * - an `afterAll`/`afterEach` reaches a variable that a setup hook assigns only through `?.`, so it survives a
 *   setup that failed before the assignment.
 */

const ROOT = join(__dirname, "../..");
const SETUP = new Set(["beforeAll", "beforeEach"]);
const TEARDOWN = new Set(["afterAll", "afterEach"]);

interface HookProblem {
	where: string;
	problem: string;
}

function testFiles(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return testFiles(path);
		return entry.name.endsWith(".ts") ? [path] : [];
	});
}

/** A call of a Jest hook: `beforeAll(fn, timeout?)` and the like. */
function hookName(node: ts.Node): string | undefined {
	if (!ts.isCallExpression(node) || !ts.isIdentifier(node.expression)) return undefined;
	const name = node.expression.text;
	return SETUP.has(name) || TEARDOWN.has(name) ? name : undefined;
}

/** Every identifier a function assigns (`x = …`, `({ a: x } = …)`, `[x] = …`). */
function assignedNames(body: ts.Node): Set<string> {
	const names = new Set<string>();
	const collect = (target: ts.Node): void => {
		if (ts.isIdentifier(target)) names.add(target.text);
		else if (ts.isParenthesizedExpression(target)) collect(target.expression);
		else if (ts.isObjectLiteralExpression(target)) {
			for (const property of target.properties) {
				if (ts.isPropertyAssignment(property)) collect(property.initializer);
				else if (ts.isShorthandPropertyAssignment(property)) names.add(property.name.text);
			}
		} else if (ts.isArrayLiteralExpression(target)) target.elements.forEach(collect);
	};
	const visit = (node: ts.Node): void => {
		if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) collect(node.left);
		ts.forEachChild(node, visit);
	};
	visit(body);
	return names;
}

/** The problems of one file's hooks. */
function hookProblems(path: string, text: string): HookProblem[] {
	const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
	const where = (node: ts.Node): string =>
		`${relative(ROOT, path)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
	const hooks: { name: string; call: ts.CallExpression }[] = [];
	const find = (node: ts.Node): void => {
		const name = hookName(node);
		if (name !== undefined) hooks.push({ name, call: node as ts.CallExpression });
		ts.forEachChild(node, find);
	};
	find(source);

	const problems: HookProblem[] = [];
	const fromSetup = new Set<string>();
	for (const { name, call } of hooks.filter((hook) => SETUP.has(hook.name))) {
		const fn = call.arguments[0];
		if (fn === undefined) continue;
		for (const assigned of assignedNames(fn)) fromSetup.add(assigned);
		const isAsync =
			(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) &&
			(ts.getCombinedModifierFlags(fn) & ts.ModifierFlags.Async) !== 0;
		if (isAsync && call.arguments[1]?.getText(source) !== "FIXTURE_TIMEOUT_MS") {
			problems.push({ where: where(call), problem: `async ${name} without FIXTURE_TIMEOUT_MS as its timeout` });
		}
	}
	for (const { name, call } of hooks.filter((hook) => TEARDOWN.has(hook.name))) {
		const visit = (node: ts.Node): void => {
			const reached =
				ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node) || ts.isCallExpression(node)
					? node.expression
					: undefined;
			const optional =
				(ts.isPropertyAccessExpression(node) ||
					ts.isElementAccessExpression(node) ||
					ts.isCallExpression(node)) &&
				node.questionDotToken !== undefined;
			if (reached && ts.isIdentifier(reached) && fromSetup.has(reached.text) && !optional) {
				problems.push({
					where: where(node),
					problem: `${name} reaches ${reached.text}, which a setup hook assigns, without ?.`,
				});
			}
			ts.forEachChild(node, visit);
		};
		if (call.arguments[0]) visit(call.arguments[0]);
	}
	return problems;
}

describe("test hooks hold on a loaded machine", () => {
	const files = testFiles(join(ROOT, "tests")).filter((path) => !path.endsWith("hooks-hold-under-load.test.ts"));

	it("every async setup hook gives a fixture's start FIXTURE_TIMEOUT_MS, every teardown survives a failed setup", () => {
		const problems = files.flatMap((path) => hookProblems(path, readFileSync(path, "utf8")));
		expect(problems.map((problem) => `${problem.where}: ${problem.problem}`)).toEqual([]);
	});

	it("the check sees what it checks: a planted file breaks both rules", () => {
		const planted = [
			"let fixture: Fixture;",
			"beforeAll(async () => { fixture = await start(); });",
			"afterAll(() => fixture.stop());",
			"beforeEach(async () => { other = await start(); }, FIXTURE_TIMEOUT_MS);",
			"afterEach(() => other?.stop());",
		].join("\n");
		expect(hookProblems(join(ROOT, "tests/planted.test.ts"), planted).map((problem) => problem.problem)).toEqual([
			"async beforeAll without FIXTURE_TIMEOUT_MS as its timeout",
			"afterAll reaches fixture, which a setup hook assigns, without ?.",
		]);
	});
});
