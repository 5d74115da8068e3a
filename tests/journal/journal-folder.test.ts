import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { journalFolder, vaultId } from "../../src/journal/journal-folder";
import { makeTempDir } from "../helpers/temp-dir";

describe("journalFolder", () => {
	it("is under $XDG_DATA_HOME, else ~/.local/share, per vault", () => {
		const temp = makeTempDir("journal-folder");
		try {
			const vault = join(temp.path, "My Vault");
			mkdirSync(vault);
			expect(journalFolder(vault, { XDG_DATA_HOME: join(temp.path, "data") }, join(temp.path, "home"))).toEqual({ folder: join(temp.path, "data", "claude-code-bridge", "journal", vaultId(vault)) });
			expect(journalFolder(vault, { XDG_DATA_HOME: "relative/ignored" }, join(temp.path, "home"))).toEqual({ folder: join(temp.path, "home", ".local", "share", "claude-code-bridge", "journal", vaultId(vault)) });
			expect(vaultId(vault)).toMatch(/^My_Vault-[0-9a-f]{12}$/);
		} finally {
			temp.remove();
		}
	});

	it("gives two vaults of the same name two journals, and a link to a vault the same one", () => {
		const temp = makeTempDir("journal-folder-ids");
		try {
			mkdirSync(join(temp.path, "one", "Notes"), { recursive: true });
			mkdirSync(join(temp.path, "two", "Notes"), { recursive: true });
			symlinkSync(join(temp.path, "one", "Notes"), join(temp.path, "Notes"));
			expect(vaultId(join(temp.path, "one", "Notes"))).not.toBe(vaultId(join(temp.path, "two", "Notes")));
			expect(vaultId(join(temp.path, "Notes"))).toBe(vaultId(join(temp.path, "one", "Notes")));
		} finally {
			temp.remove();
		}
	});

	it("refuses a data folder inside the vault", () => {
		const temp = makeTempDir("journal-folder-inside");
		try {
			const place = journalFolder(temp.path, {}, temp.path);
			expect(place).toEqual({ refused: expect.stringMatching(/inside the vault/) as unknown });
		} finally {
			temp.remove();
		}
	});
});
