import { sep } from "node:path";
import { checkVaultLocation, folderContains, syncedFolderName } from "../../../src/ide/doctor/vault-location";
import type { DoctorFileSystem } from "../../../src/ide/doctor/doctor-environment";

/** A file system that only resolves real paths, from a table. */
function realpaths(table: Record<string, string>): DoctorFileSystem {
	const unused = (): Promise<never> => Promise.reject(new Error("not used"));
	return {
		lstat: unused,
		stat: unused,
		readFile: unused,
		readdir: unused,
		realpath: (path) => (path in table ? Promise.resolve(table[path] ?? path) : Promise.reject(new Error(`ENOENT: no such file or directory, realpath '${path}'`))),
	};
}

describe("syncedFolderName", () => {
	it("recognises the usual cloud-synced folders", () => {
		expect(syncedFolderName("/Users/me/Library/Mobile Documents/iCloud~md~obsidian/Documents/V")).toBe("iCloud Drive");
		expect(syncedFolderName("/Users/me/Library/CloudStorage/GoogleDrive-me@x.com/My Drive/V")).toBe("GoogleDrive-me@x.com");
		expect(syncedFolderName("/home/me/Dropbox/V")).toBe("Dropbox");
		expect(syncedFolderName("C:\\Users\\me\\OneDrive - Work\\V")).toBe("OneDrive - Work");
		expect(syncedFolderName("/home/me/Notes/V")).toBeUndefined();
	});
});

describe("checkVaultLocation", () => {
	it("says nothing of a plain path, and resolves its location", async () => {
		expect(await checkVaultLocation("/v/Notes", realpaths({ "/v/Notes": "/v/Notes" }))).toEqual({ lines: [], location: { given: "/v/Notes", real: "/v/Notes" } });
	});

	it("names a symlink and a synced folder without alarm, and warns about spaces with the fix", async () => {
		const linked = await checkVaultLocation("/v/link", realpaths({ "/v/link": "/home/me/Dropbox/Vault" }));
		expect(linked.lines.map((line) => line.level)).toEqual(["ok", "ok"]);
		expect(linked.lines[0]?.what).toMatch(/^The vault is reached through a symlink: \/v\/link → \/home\/me\/Dropbox\/Vault\./);
		expect(linked.lines[1]?.what).toBe("The vault lies in a synced folder (Dropbox); the lock file stays on this computer");
		const spaced = await checkVaultLocation("/v/My Vault", realpaths({ "/v/My Vault": "/v/My Vault" }));
		expect(spaced.lines).toEqual([{ level: "warn", what: "The vault's path has spaces: /v/My Vault", fix: expect.stringMatching(/^Start Claude Code with the launch command below/) as unknown as string }]);
	});

	it("fails with the reason when the folder cannot be resolved, and gives no location", async () => {
		const result = await checkVaultLocation("/gone", realpaths({}));
		expect(result.location).toBeUndefined();
		expect(result.lines).toHaveLength(1);
		expect(result.lines[0]).toMatchObject({ level: "fail", what: "The vault folder /gone cannot be resolved: ENOENT: no such file or directory, realpath '/gone'" });
	});
});

describe("folderContains", () => {
	it("is true for the folder itself and anything below it, not for a sibling sharing its prefix", () => {
		expect(folderContains("/v/Vault", "/v/Vault")).toBe(true);
		expect(folderContains("/v/Vault", `/v/Vault${sep}Sub`)).toBe(true);
		expect(folderContains(`/v/Vault${sep}`, `/v/Vault${sep}Sub`)).toBe(true);
		expect(folderContains("/v/Vault", "/v/Vault2")).toBe(false);
		expect(folderContains("/v/Vault/Sub", "/v/Vault")).toBe(false);
	});
});
