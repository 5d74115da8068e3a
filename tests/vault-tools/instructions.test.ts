import { VAULT_TOOL_NAMES } from "../../src/vault-tools/create-vault-tools";
import { VAULT_TOOLS_INSTRUCTIONS } from "../../src/vault-tools/instructions";

describe("the vault tools' MCP instructions (the initialize answer)", () => {
	it("are short, and name only tools that exist", () => {
		expect(VAULT_TOOLS_INSTRUCTIONS.length).toBeLessThanOrEqual(1_500);
		const named = VAULT_TOOLS_INSTRUCTIONS.match(/\b[a-z]+_[a-z]+\b/g) ?? [];
		expect(named.length).toBeGreaterThan(0);
		expect(named.filter((name) => !(VAULT_TOOL_NAMES as readonly string[]).includes(name))).toEqual([]);
	});

	it("say when to prefer them to Claude Code's own file tools, and why; lines, paging and version", () => {
		for (const fact of [
			"Read, Edit, Write, Grep",
			"every link",
			"review",
			"private",
			"1-based",
			"cursor",
			"offset",
			"version",
		]) {
			expect({ fact, present: VAULT_TOOLS_INSTRUCTIONS.includes(fact) }).toEqual({ fact, present: true });
		}
	});
});
