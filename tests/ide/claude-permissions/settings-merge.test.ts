import {
	MalformedSettingsError,
	denyRulesIn,
	mergeDenyRules,
} from "../../../src/ide/claude-permissions/settings-merge";

const OURS = ["Read(./Secret/**)", "Edit(./Secret/**)"];

describe("mergeDenyRules", () => {
	it("creates the file's text when there is none", () => {
		const merged = mergeDenyRules(undefined, OURS, []);
		expect(JSON.parse(merged.text)).toEqual({ permissions: { deny: OURS } });
		expect(merged).toMatchObject({ changed: true, added: OURS, removed: [] });
		expect(merged.text.endsWith("}\n")).toBe(true);
	});

	it("keeps every other key and rule, in their order, and appends ours", () => {
		const existing = JSON.stringify(
			{
				model: "opus",
				permissions: { allow: ["Bash(npm test)"], deny: ["Bash(curl *)", 42], defaultMode: "default" },
				env: { A: "1" },
			},
			null,
			4,
		);
		const merged = mergeDenyRules(existing, OURS, []);
		const parsed = JSON.parse(merged.text) as Record<string, unknown>;
		expect(parsed).toEqual({
			model: "opus",
			permissions: { allow: ["Bash(npm test)"], deny: ["Bash(curl *)", 42, ...OURS], defaultMode: "default" },
			env: { A: "1" },
		});
		expect(Object.keys(parsed)).toEqual(["model", "permissions", "env"]);
		expect(merged.text).toContain('\n    "model"');
	});

	it("keeps a tab-indented file tab-indented", () => {
		const merged = mergeDenyRules('{\n\t"model": "opus"\n}\n', OURS, []);
		expect(merged.text).toContain('\n\t"model": "opus"');
	});

	it("is idempotent: a second merge changes nothing and does not duplicate", () => {
		const first = mergeDenyRules(undefined, OURS, []);
		const second = mergeDenyRules(first.text, OURS, OURS);
		expect(second).toEqual({ text: first.text, changed: false, added: [], removed: [] });
	});

	it("does not add a rule the user already has", () => {
		const existing = JSON.stringify({ permissions: { deny: ["Read(./Secret/**)"] } });
		const merged = mergeDenyRules(existing, OURS, []);
		expect(merged.added).toEqual(["Edit(./Secret/**)"]);
		expect((JSON.parse(merged.text) as { permissions: { deny: string[] } }).permissions.deny).toEqual(OURS);
	});

	it("updates ours when the folders change, leaving the user's rules", () => {
		const existing = JSON.stringify({ permissions: { deny: ["Bash(rm *)", ...OURS] } });
		const wanted = ["Read(./Diary/**)", "Edit(./Diary/**)"];
		const merged = mergeDenyRules(existing, wanted, OURS);
		expect(merged.removed).toEqual(OURS);
		expect(merged.added).toEqual(wanted);
		expect((JSON.parse(merged.text) as { permissions: { deny: string[] } }).permissions.deny).toEqual([
			"Bash(rm *)",
			...wanted,
		]);
	});

	it("removes ours when turned off, and the deny list and permissions object if they become empty", () => {
		const existing = JSON.stringify({ model: "opus", permissions: { deny: OURS } });
		const merged = mergeDenyRules(existing, [], OURS);
		expect(JSON.parse(merged.text)).toEqual({ model: "opus" });
		expect(merged.removed).toEqual(OURS);
	});

	it("keeps the permissions object when it holds other keys after ours go", () => {
		const existing = JSON.stringify({ permissions: { allow: ["Read"], deny: OURS } });
		expect(JSON.parse(mergeDenyRules(existing, [], OURS).text)).toEqual({ permissions: { allow: ["Read"] } });
	});

	it("never takes out a user's rule that was never ours", () => {
		const existing = JSON.stringify({ permissions: { deny: ["Read(./Old/**)"] } });
		const merged = mergeDenyRules(existing, OURS, ["Read(./Gone/**)"]);
		expect((JSON.parse(merged.text) as { permissions: { deny: string[] } }).permissions.deny).toEqual([
			"Read(./Old/**)",
			...OURS,
		]);
	});

	it.each([
		["not JSON", '{ "permissions": { "deny": [ } }', /not valid JSON/],
		["JSON with comments", '{\n  // mine\n  "model": "opus"\n}', /not valid JSON/],
		["an array", "[]", /not an object/],
		["permissions of the wrong type", '{"permissions": []}', /"permissions" is not an object/],
		["deny of the wrong type", '{"permissions": {"deny": "Read(./x)"}}', /"permissions.deny" is not a list/],
	])("refuses %s with a clear error", (_what, text, message) => {
		expect(() => mergeDenyRules(text, OURS, [])).toThrow(MalformedSettingsError);
		expect(() => mergeDenyRules(text, OURS, [])).toThrow(message);
	});
});

describe("denyRulesIn", () => {
	it("says which of ours the file holds", () => {
		const text = JSON.stringify({ permissions: { deny: ["Read(./Secret/**)"] } });
		expect(denyRulesIn(text, OURS)).toEqual({ present: ["Read(./Secret/**)"], missing: ["Edit(./Secret/**)"] });
		expect(denyRulesIn(undefined, OURS)).toEqual({ present: [], missing: OURS });
	});
});
