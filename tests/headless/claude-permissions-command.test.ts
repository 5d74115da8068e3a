import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudePermissionsCommand } from "../../src/headless/claude-permissions-command";
import { HeadlessProcess } from "../helpers/headless-process";
import { makeTempDir } from "../helpers/temp-dir";
import { WAIT_TIMEOUT_MS } from "../helpers/fixture-timeout";

/** A renamed config folder (users can rename it); the host finds it by its plugins folder. */
const CONFIG_DIR = ".vault-config";

/** Sends a command and resolves with what the host printed after it, once `until` matches. */
async function run(host: HeadlessProcess, line: string, until: RegExp): Promise<string> {
	const before = host.stdout.length;
	host.send(line);
	return host.waitFor(
		() => (until.test(host.stdout.slice(before)) ? host.stdout.slice(before) : undefined),
		`the answer to ${line}`,
		WAIT_TIMEOUT_MS,
	);
}

describe("the headless claude-permissions command (real process)", () => {
	jest.setTimeout(30_000);
	const temp = makeTempDir("headless-permissions");
	const home = join(temp.path, "home");
	const vault = join(temp.path, "vault");
	let host: (HeadlessProcess & { port: number; lockFile: string }) | undefined;

	beforeAll(() => {
		mkdirSync(home);
		mkdirSync(join(vault, "Secret"), { recursive: true });
		mkdirSync(join(vault, CONFIG_DIR, "plugins"), { recursive: true });
		mkdirSync(join(vault, ".claude"));
		writeFileSync(
			join(vault, ".claude", "settings.json"),
			JSON.stringify({ model: "opus", permissions: { allow: ["Bash(npm test)"] } }, null, 2),
		);
	});
	afterEach(() => host?.kill());
	afterAll(() => temp.remove());

	it("show prints the rules and the exact change and writes nothing; write merges them; doctor sees them in place", async () => {
		host = await HeadlessProcess.start({
			vault,
			home,
			args: ["--private-folder", "Secret", "--private-tag", "private"],
		});
		const settingsBefore = readFileSync(join(vault, ".claude", "settings.json"), "utf8");

		const shown = await run(host, "claude-permissions show", /to make it\./);
		expect(shown).toContain("Deny rules for .claude/settings.json:\n  Read(./Secret)\n  Read(./Secret/**)");
		expect(shown).toContain(`  Read(./${CONFIG_DIR}/**)`);
		expect(shown).toContain("#private");
		expect(shown).toContain('+      "Read(./Secret/**)",');
		expect(readFileSync(join(vault, ".claude", "settings.json"), "utf8")).toBe(settingsBefore);

		const doctorBefore = await run(host, "doctor", /\d+ ok, \d+ warnings?, \d+ failures?/);
		expect(doctorBefore).toContain(
			"warn Claude Code's own file tools (Read, Grep, Edit) can open notes in private folders and the config folder",
		);
		expect(doctorBefore).toContain('Fix: Type "claude-permissions write" to write deny rules for them.');

		const written = await run(host, "claude-permissions write", /restart running sessions\./);
		expect(written).toMatch(/Wrote \.claude\/settings\.json: 12 added, 0 removed\./);
		const settings = JSON.parse(readFileSync(join(vault, ".claude", "settings.json"), "utf8")) as {
			model: string;
			permissions: { allow: string[]; deny: string[] };
		};
		expect(settings.model).toBe("opus");
		expect(settings.permissions.allow).toEqual(["Bash(npm test)"]);
		expect(settings.permissions.deny).toEqual(
			expect.arrayContaining([
				"Read(./Secret/**)",
				"Edit(./Secret/**)",
				`Read(./${CONFIG_DIR}/**)`,
				"Read(./.trash/**)",
			]),
		);

		const doctorAfter = await run(host, "doctor", /\d+ ok, \d+ warnings?, \d+ failures?/);
		expect(doctorAfter).toContain(
			"ok   Claude Code's own file tools (Read, Grep, Edit) are kept out of the private folders and the config folder: 12 deny rules in place in .claude/settings.json",
		);

		expect(await run(host, "claude-permissions write", /\n/)).toContain(
			"Nothing to change in .claude/settings.json.",
		);
	});

	it("a malformed settings file is refused with a clear error and left as it is; the host keeps running", async () => {
		const broken = join(temp.path, "broken");
		mkdirSync(join(broken, ".claude"), { recursive: true });
		writeFileSync(join(broken, ".claude", "settings.json"), "{ not json");
		host = await HeadlessProcess.start({ vault: broken, home, args: ["--private-folder", "Secret"] });
		const before = host.stderr.length;
		host.send("claude-permissions write");
		const error = await host.waitFor(
			() => /claude-permissions failed: (.*)/.exec(host?.stderr.slice(before) ?? "")?.[1],
			"the error",
			WAIT_TIMEOUT_MS,
		);
		expect(error).toMatch(/^\.claude\/settings\.json: It is not valid JSON .*it was left as it is\.$/);
		expect(readFileSync(join(broken, ".claude", "settings.json"), "utf8")).toBe("{ not json");
		expect((await host.status()).state).toBe("listening");
	});

	it("a record naming a settings file outside the vault is ignored, and said so: write and remove leave that file byte-identical", async () => {
		const userSettings = `${JSON.stringify({ permissions: { deny: ["Read(~/.ssh/**)", "Bash(curl:*)"] } }, null, 2)}\n`;
		const elsewhere = join(temp.path, "elsewhere", ".claude");
		mkdirSync(elsewhere, { recursive: true });
		writeFileSync(join(elsewhere, "settings.json"), userSettings);
		const redirected = join(temp.path, "redirected");
		mkdirSync(join(redirected, ".claude"), { recursive: true });
		const record = JSON.stringify({
			settingsFile: "../elsewhere/.claude/settings.json",
			rules: ["Read(~/.ssh/**)", "Bash(curl:*)"],
		});
		writeFileSync(join(redirected, ".claude", "claude-code-bridge-permissions.json"), record);
		host = await HeadlessProcess.start({ vault: redirected, home, args: ["--private-folder", "Secret"] });

		const written = await run(host, "claude-permissions write", /restart running sessions\./);
		expect(written).toContain(
			'.claude/claude-code-bridge-permissions.json names "../elsewhere/.claude/settings.json", which is not one of the vault\'s Claude Code settings files (.claude/settings.json, .claude/settings.local.json): it was ignored.',
		);
		expect(written).toMatch(/Wrote \.claude\/settings\.json: \d+ added, 0 removed\./);
		expect(readFileSync(join(elsewhere, "settings.json"), "utf8")).toBe(userSettings);

		writeFileSync(join(redirected, ".claude", "claude-code-bridge-permissions.json"), record);
		await run(host, "claude-permissions remove", /\n/);
		expect(readFileSync(join(elsewhere, "settings.json"), "utf8")).toBe(userSettings);
	});

	it("a settings.json that is a symlink to a file outside is refused in one line, its target untouched; the host keeps running", async () => {
		const userSettings = `${JSON.stringify({ permissions: { deny: ["Read(~/.ssh/**)"] } }, null, 2)}\n`;
		const elsewhere = join(temp.path, "elsewhere-link");
		mkdirSync(elsewhere);
		writeFileSync(join(elsewhere, "settings.json"), userSettings);
		const linked = join(temp.path, "linked");
		mkdirSync(join(linked, ".claude"), { recursive: true });
		symlinkSync(join(elsewhere, "settings.json"), join(linked, ".claude", "settings.json"));
		host = await HeadlessProcess.start({ vault: linked, home, args: ["--private-folder", "Secret"] });
		for (const line of ["claude-permissions write", "claude-permissions remove"]) {
			const before = host.stderr.length;
			host.send(line);
			const error = await host.waitFor(
				() => /claude-permissions failed: (.*)\n/.exec(host?.stderr.slice(before) ?? "")?.[1],
				"the error",
				WAIT_TIMEOUT_MS,
			);
			expect(error).toMatch(
				/^\.claude\/settings\.json is a symbolic link \(to .*elsewhere-link\/settings\.json\): the bridge writes Claude Code's rules only into a real file inside the vault, so nothing was written\./,
			);
		}
		expect(readFileSync(join(elsewhere, "settings.json"), "utf8")).toBe(userSettings);
		expect((await host.status()).state).toBe("listening");
	});

	it("a .claude folder that is a symlink is refused in one line, and nothing is written through it", async () => {
		const elsewhere = join(temp.path, "elsewhere-folder");
		mkdirSync(elsewhere);
		const linked = join(temp.path, "linked-folder");
		mkdirSync(linked);
		symlinkSync(elsewhere, join(linked, ".claude"), "dir");
		host = await HeadlessProcess.start({ vault: linked, home, args: ["--private-folder", "Secret"] });
		const before = host.stderr.length;
		host.send("claude-permissions write");
		const error = await host.waitFor(
			() => /claude-permissions failed: (.*)\n/.exec(host?.stderr.slice(before) ?? "")?.[1],
			"the error",
			WAIT_TIMEOUT_MS,
		);
		expect(error).toMatch(
			/^\.claude is a symbolic link \(to .*elsewhere-folder\): the bridge writes Claude Code's rules only into a real \.claude folder inside the vault, so nothing was written\./,
		);
		expect(readdirSync(elsewhere)).toEqual([]);
	});

	it("refuses an unknown action with its usage", async () => {
		host = await HeadlessProcess.start({ vault, home });
		const before = host.stderr.length;
		host.send("claude-permissions destroy");
		const error = await host.waitFor(
			() => /claude-permissions failed: (.*)/.exec(host?.stderr.slice(before) ?? "")?.[1],
			"the error",
			WAIT_TIMEOUT_MS,
		);
		expect(error).toBe("Usage: claude-permissions show|write|remove [--local]");
	});
});

describe("claude-permissions while the privacy settings cannot be read", () => {
	const temp = makeTempDir("headless-permissions-unreadable");
	afterAll(() => temp.remove());

	it("plans nothing (rules read in part would write or remove the wrong deny rules), and says why", async () => {
		mkdirSync(join(temp.path, ".claude"));
		const settings = JSON.stringify({ permissions: { deny: ["Read(./Secret/**)"] } });
		writeFileSync(join(temp.path, ".claude", "settings.json"), settings);
		const command = claudePermissionsCommand(temp.path, () => ({
			folders: [],
			tags: [],
			unreadable: "the privacy settings of Claude Code Bridge for this vault cannot be read (x)",
		}));
		for (const action of ["show", "write", "remove"]) {
			await expect(Promise.resolve(command.run([action]))).rejects.toThrow(
				"Nothing shown or changed: the privacy settings of Claude Code Bridge for this vault cannot be read (x)",
			);
		}
		expect(readFileSync(join(temp.path, ".claude", "settings.json"), "utf8")).toBe(settings);
	});
});
