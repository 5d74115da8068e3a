import { existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deviceKey } from "../../src/journal/device-key";
import { makeTempDir } from "../helpers/temp-dir";

describe("deviceKey", () => {
	it("is made once in the user's data folder (0600 in a 0700 folder) and read the same by every host after", () => {
		const temp = makeTempDir("device-key");
		try {
			const vault = join(temp.path, "vault");
			mkdirSync(vault);
			const first = deviceKey(vault, { XDG_DATA_HOME: join(temp.path, "data") }, join(temp.path, "home"));
			const second = deviceKey(
				join(temp.path, "another vault"),
				{ XDG_DATA_HOME: join(temp.path, "data") },
				join(temp.path, "home"),
			);
			if (!("key" in first) || !("key" in second)) throw new Error("no key");
			expect(first.key).toHaveLength(32);
			expect(second.key.equals(first.key)).toBe(true);
			expect(second.since).toBe(first.since);
			const file = join(temp.path, "data", "claude-code-bridge", "keys", "journal.key");
			expect(statSync(file).mode & 0o777).toBe(0o600);
			expect(statSync(join(temp.path, "data", "claude-code-bridge", "keys")).mode & 0o777).toBe(0o700);
			expect(readFileSync(file, "utf8").trim()).toBe(first.key.toString("hex"));
			// Without XDG_DATA_HOME: ~/.local/share.
			const home = deviceKey(vault, {}, join(temp.path, "home"));
			expect(
				"key" in home &&
					existsSync(join(temp.path, "home", ".local", "share", "claude-code-bridge", "keys", "journal.key")),
			).toBe(true);
		} finally {
			temp.remove();
		}
	});

	it("refuses a data folder inside the vault (the key would sync with it), a key file that is a link, and one that is no key", () => {
		const temp = makeTempDir("device-key-refused");
		try {
			const vault = join(temp.path, "vault");
			mkdirSync(vault);
			expect(deviceKey(vault, { XDG_DATA_HOME: join(vault, ".data") }, temp.path)).toEqual({
				refused: expect.stringMatching(/inside the vault/) as unknown,
			});
			expect(existsSync(join(vault, ".data"))).toBe(false);
			const keys = join(temp.path, "linked", "claude-code-bridge", "keys");
			mkdirSync(keys, { recursive: true });
			writeFileSync(join(temp.path, "planted"), `${"a".repeat(64)}\n`);
			symlinkSync(join(temp.path, "planted"), join(keys, "journal.key"));
			expect(deviceKey(vault, { XDG_DATA_HOME: join(temp.path, "linked") }, temp.path)).toEqual({
				refused: expect.stringMatching(/could not be read/) as unknown,
			});
			expect(lstatSync(join(keys, "journal.key")).isSymbolicLink()).toBe(true);
			const garbled = join(temp.path, "garbled", "claude-code-bridge", "keys");
			mkdirSync(garbled, { recursive: true });
			writeFileSync(join(garbled, "journal.key"), "not a key\n");
			expect(deviceKey(vault, { XDG_DATA_HOME: join(temp.path, "garbled") }, temp.path)).toEqual({
				refused: expect.stringMatching(/is not a key/) as unknown,
			});
		} finally {
			temp.remove();
		}
	});
});
