import { ideNameFor, SERVER_INFO } from "../../src/ide/server-info";

describe("server info", () => {
	it("never names itself as the JetBrains plugin, which the CLI special-cases", () => {
		expect(SERVER_INFO.name).toBe("obsidian-claude-code-bridge");
		expect(SERVER_INFO.name).not.toMatch(/JetBrains/i);
	});

	it("names the IDE after the vault, with a variant when given", () => {
		expect(ideNameFor("Notes")).toBe("Obsidian · Notes");
		expect(ideNameFor("Notes", "headless")).toBe("Obsidian · Notes (headless)");
	});
});
