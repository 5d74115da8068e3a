/**
 * The activity journal read back is untrusted input (SECURITY.md §17), tried the way an attacker would: someone who
 * can write the vault's config folder (a shared or synced vault) plants records and a pre-image in the plugin's
 * journal there, then the user types `undo` in the built headless host (dist/headless.cjs), which records into and
 * undoes from that same folder. Every planted entry must be listed as unreadable, every undo refused with its
 * reason, and nothing touched: no secret copied into a note, no file outside the vault moved in, no private note
 * overwritten, no other plugin's settings trashed.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { HeadlessProcess } from "../helpers/headless-process";
import { makeTempDir } from "../helpers/temp-dir";

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");
const SECRET = "-----BEGIN OPENSSH PRIVATE KEY-----\nnot really\n";
const NOTE = "mine\n";
const DIARY = "dear diary\n";
const VICTIM = "outside the vault\n";
const OTHER_SETTINGS = '{"apiKey":"keep me"}\n';
const FORGED_MAC = "ab".repeat(32);

describe("a planted journal in the config folder drives no undo in the built headless host", () => {
	const temp = makeTempDir("journal-untrusted");
	const home = join(temp.path, "home");
	const vault = join(temp.path, "vault");
	const config = join(vault, ".config-x");
	const journal = join(config, "plugins", "claude-code-bridge", "journal");
	const secret = join(home, ".ssh", "id_rsa");
	const victim = join(temp.path, "outside", "victim.md");
	const otherSettings = join(config, "plugins", "other-plugin", "data.json");
	let host: HeadlessProcess | undefined;

	beforeAll(() => {
		mkdirSync(join(home, ".ssh"), { recursive: true });
		writeFileSync(secret, SECRET);
		mkdirSync(join(temp.path, "outside"));
		writeFileSync(victim, VICTIM);
		mkdirSync(join(vault, "Private"), { recursive: true });
		writeFileSync(join(vault, "Note.md"), NOTE);
		writeFileSync(join(vault, "Private", "diary.md"), DIARY);
		mkdirSync(join(config, "plugins", "other-plugin"), { recursive: true });
		writeFileSync(otherSettings, OTHER_SETTINGS);
		mkdirSync(join(config, "plugins", "claude-code-bridge"), { recursive: true });
		writeFileSync(
			join(config, "plugins", "claude-code-bridge", "manifest.json"),
			JSON.stringify({ id: "claude-code-bridge" }),
		);
	});

	/** What the attacker plants in the plugin's journal, which syncs with the config folder. */
	const plant = (keyMadeAt: number): void => {
		mkdirSync(join(journal, "blobs"), { recursive: true });
		// The pre-image of a planted edit of Note.md: a link to the user's SSH key.
		symlinkSync(secret, join(journal, "blobs", sha256(SECRET)));
		// The pre-image of a planted edit of a private note: the attacker's text, a plain file that hashes right.
		writeFileSync(join(journal, "blobs", sha256("attacker's text\n")), "attacker's text\n");
		const at = Date.now();
		const longAgo = keyMadeAt - 24 * 3_600_000;
		const session = { key: "s-planted", surface: "panel", client: "claude-code" };
		const call = (id: string, tool: string, mac?: string) => ({
			type: "call",
			id,
			at: id.startsWith("backdated") ? longAgo : at,
			session,
			tool,
			notes: [],
			args: "",
			outcome: "ok",
			durationMs: 1,
			answerBytes: 0,
			...(mac ? { mac } : {}),
		});
		const change = (id: string, tool: string, change: object, mac?: string) => ({
			type: "change",
			id,
			at: id.startsWith("backdated") ? longAgo : at,
			session,
			tool,
			change,
			...(mac ? { mac } : {}),
		});
		const records = [
			call("backdated", "Edit"),
			change("backdated", "Edit", {
				kind: "edit",
				path: "Note.md",
				before: { hash: sha256(SECRET), bytes: Buffer.byteLength(SECRET) },
				after: sha256(NOTE),
			}),
			change("backdated-private", "Edit", {
				kind: "edit",
				path: "Private/diary.md",
				before: { hash: sha256("attacker's text\n"), bytes: Buffer.byteLength("attacker's text\n") },
				after: sha256(DIARY),
			}),
			call("steal-key", "Edit"),
			change("steal-key", "Edit", {
				kind: "edit",
				path: "Note.md",
				before: { hash: sha256(SECRET), bytes: Buffer.byteLength(SECRET) },
				after: sha256(NOTE),
			}),
			call("pull-in", "Write", FORGED_MAC),
			change(
				"pull-in",
				"Write",
				{ kind: "create", path: "../outside/victim.md", after: sha256(VICTIM) },
				FORGED_MAC,
			),
			change("overwrite-private", "Edit", {
				kind: "edit",
				path: "Private/diary.md",
				before: { hash: sha256("attacker's text\n"), bytes: Buffer.byteLength("attacker's text\n") },
				after: sha256(DIARY),
			}),
			change(
				"trash-settings",
				"Write",
				{ kind: "create", path: ".config-x/plugins/other-plugin/data.json", after: sha256(OTHER_SETTINGS) },
				FORGED_MAC,
			),
		];
		writeFileSync(join(journal, "records.jsonl"), records.map((record) => `${JSON.stringify(record)}\n`).join(""));
	};

	afterAll(async () => {
		if (host) {
			await host.quit();
			host.kill();
		}
		temp.remove();
	});

	it("lists every planted entry as unreadable, refuses each undo with the reason, and touches nothing", async () => {
		// This device has used this version before: its key is in its data folder (never in the vault).
		const first = await HeadlessProcess.start({ vault, home, args: ["--private-folder", "Private"] });
		expect(await first.quit()).toBe(0);
		const key = join(home, ".local", "share", "claude-code-bridge", "keys", "journal.key");
		expect(statSync(key).mode & 0o777).toBe(0o600);
		expect(statSync(dirname(key)).mode & 0o777).toBe(0o700);
		plant(statSync(key).mtimeMs);
		host = await HeadlessProcess.start({ vault, home, args: ["--private-folder", "Private"] });
		expect(host.stdout).toContain(`Activity journal: ${journal}`);
		const listed = host.stdout.length;
		host.send("activity");
		await host.waitForOutput(/(Session s-planted[^\n]*)/);
		await host.waitFor(
			() => (host!.stdout.slice(listed).match(/unreadable: /g)?.length === 5 ? true : undefined),
			"five unreadable entries",
			10_000,
		);
		const listing = host.stdout.slice(listed);
		for (const id of ["steal-key", "pull-in", "overwrite-private", "trash-settings", "backdated-private"]) {
			expect(listing).toMatch(new RegExp(`${id}\\s+\\w+\\s+unreadable`));
		}
		expect(listing).toContain("unreadable: this device did not write it as it reads now");
		expect(listing).toContain("unreadable: it names a private note or a file of the config folder");
		// Dated before this device began sealing: shown as an older record, never undone.
		expect(listing).toContain("cannot be undone: written before this version; cannot be undone safely");
		// Nothing else the planted records name is shown.
		expect(listing).not.toMatch(/victim|diary|data\.json/);
		const older = host.stderr.length;
		host.send("undo backdated");
		await host.waitForOutput(
			/(undo failed: Not undone backdated: Edit \(backdated\) was written before this version; cannot be undone safely; nothing was undone)/,
			10_000,
			"stderr",
		);
		expect(host.stderr.length).toBeGreaterThan(older);
		for (const id of ["steal-key", "pull-in", "overwrite-private", "trash-settings", "backdated-private"]) {
			const before = host.stderr.length;
			host.send(`undo ${id}`);
			const refusal = await host.waitFor(
				() => new RegExp(`(undo failed: Not undone ${id}: [^\\n]*)`).exec(host!.stderr.slice(before))?.[1],
				`the refusal of ${id}`,
				10_000,
			);
			const why =
				id === "backdated-private"
					? "it names a private note or a file of the config folder"
					: "this device did not write it as it reads now (another device or an older version wrote it, or it was changed in the journal's folder)";
			expect(refusal).toBe(
				`undo failed: Not undone ${id}: the journal's record of ${id} is unreadable: ${why}; nothing was undone`,
			);
		}
		const before = host.stdout.length + host.stderr.length;
		host.send("undo --session s-planted");
		await host.waitFor(
			() => (host!.stdout.length + host!.stderr.length > before ? true : undefined),
			"the session's undo",
			10_000,
		);
		await host.waitForOutput(/(Not undone backdated: [^\n]*)/);
		expect(readFileSync(join(vault, "Note.md"), "utf8")).toBe(NOTE);
		expect(readFileSync(join(vault, "Private", "diary.md"), "utf8")).toBe(DIARY);
		expect(readFileSync(victim, "utf8")).toBe(VICTIM);
		expect(readFileSync(otherSettings, "utf8")).toBe(OTHER_SETTINGS);
		expect(readFileSync(secret, "utf8")).toBe(SECRET);
		expect(existsSync(join(vault, ".trash"))).toBe(false);
	});
});
