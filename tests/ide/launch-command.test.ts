import { launchCommand } from "../../src/ide/launch-command";

describe("launchCommand", () => {
	it("quotes the vault path for a POSIX shell, escaping what double quotes would expand", () => {
		expect(launchCommand("/Users/me/My Vault", "darwin")).toBe('cd "/Users/me/My Vault" && claude --ide');
		expect(launchCommand('/v/$HOME "x" `y` a\\b', "linux")).toBe(
			'cd "/v/\\$HOME \\"x\\" \\`y\\` a\\\\b" && claude --ide',
		);
	});

	it("quotes the vault path for PowerShell on Windows, doubling single quotes", () => {
		expect(launchCommand("C:\\Users\\me\\Bob's $vault", "win32")).toBe(
			"cd 'C:\\Users\\me\\Bob''s $vault'; claude --ide",
		);
	});
});
