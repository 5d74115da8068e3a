import {
	chmodSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import {
	checkWritable,
	readInsideVault,
	removeInsideVault,
	UnsafeSettingsPathError,
	writeInsideVault,
} from "../../../src/ide/claude-permissions/settings-location";
import { makeTempDir } from "../../helpers/temp-dir";

const FILE = ".claude/settings.json";
const temps: { remove: () => void }[] = [];
afterAll(() => temps.forEach((temp) => temp.remove()));

function vault(): string {
	const temp = makeTempDir("settings-location");
	temps.push(temp);
	return temp.path;
}

describe("settings inside the vault's .claude folder", () => {
	it("reads nothing when .claude or the file is missing, and the text when it is there", async () => {
		const root = vault();
		expect(await readInsideVault(root, FILE)).toBeUndefined();
		mkdirSync(join(root, ".claude"));
		expect(await readInsideVault(root, FILE)).toBeUndefined();
		writeFileSync(join(root, FILE), "{}");
		expect(await readInsideVault(root, FILE)).toBe("{}");
	});

	it("writes atomically, creating .claude, keeping an existing file's mode and leaving no temp file", async () => {
		const root = vault();
		await writeInsideVault(root, FILE, '{"a":1}');
		expect(readFileSync(join(root, FILE), "utf8")).toBe('{"a":1}');
		chmodSync(join(root, FILE), 0o600);
		await writeInsideVault(root, FILE, '{"a":2}');
		expect(readFileSync(join(root, FILE), "utf8")).toBe('{"a":2}');
		if (process.platform !== "win32") expect(statSync(join(root, FILE)).mode & 0o777).toBe(0o600);
		expect(readdirSync(join(root, ".claude"))).toEqual(["settings.json"]);
	});

	it("refuses a .claude that is a link, leading anywhere, and writes nothing", async () => {
		const root = vault();
		const elsewhere = vault();
		symlinkSync(elsewhere, join(root, ".claude"));
		await expect(writeInsideVault(root, FILE, "{}")).rejects.toThrow(UnsafeSettingsPathError);
		await expect(readInsideVault(root, FILE)).rejects.toThrow(
			/^\.claude is a symbolic link \(to .*\): the bridge writes Claude Code's rules only into a real \.claude folder inside the vault/,
		);
		await expect(checkWritable(root, FILE)).rejects.toThrow(UnsafeSettingsPathError);
		expect(readdirSync(elsewhere)).toEqual([]);
	});

	it("refuses a settings file that is a link or not a plain file", async () => {
		const root = vault();
		mkdirSync(join(root, ".claude"));
		const target = join(vault(), "target.json");
		writeFileSync(target, "original");
		symlinkSync(target, join(root, FILE));
		await expect(writeInsideVault(root, FILE, "{}")).rejects.toThrow(
			/^\.claude\/settings\.json is a symbolic link/,
		);
		expect(readFileSync(target, "utf8")).toBe("original");
		mkdirSync(join(root, ".claude", "settings.local.json"));
		await expect(readInsideVault(root, ".claude/settings.local.json")).rejects.toThrow(
			".claude/settings.local.json is not a plain file",
		);
	});

	it("refuses a .claude that is a file", async () => {
		const root = vault();
		writeFileSync(join(root, ".claude"), "not a folder");
		await expect(writeInsideVault(root, FILE, "{}")).rejects.toThrow(/^\.claude is not a folder/);
	});

	it("removes a link itself, never its target", async () => {
		const root = vault();
		mkdirSync(join(root, ".claude"));
		const target = join(vault(), "target.json");
		writeFileSync(target, "keep me");
		symlinkSync(target, join(root, FILE));
		await removeInsideVault(root, FILE);
		expect(existsSync(join(root, FILE))).toBe(false);
		expect(readFileSync(target, "utf8")).toBe("keep me");
		await removeInsideVault(vault(), FILE);
	});
});
