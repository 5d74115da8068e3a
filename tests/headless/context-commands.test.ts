import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HeadlessProcess } from "../helpers/headless-process";
import { connectOrThrow, connect, type TestClient } from "../helpers/test-client";
import { makeTempDir } from "../helpers/temp-dir";
import { pollUntil } from "../helpers/wait-until";

type Host = HeadlessProcess & { port: number; lockFile: string };

describe("the headless host's context commands (open, select, tag, rotate, status)", () => {
	const temp = makeTempDir("headless-context");
	const home = join(temp.path, "home");
	const vault = join(temp.path, "vault");
	const hosts: HeadlessProcess[] = [];
	const note = join(vault, "Notes", "My note.md");

	beforeAll(() => {
		mkdirSync(home);
		mkdirSync(join(vault, "Notes"), { recursive: true });
		mkdirSync(join(vault, "Private"));
		writeFileSync(note, "alpha\nbeta 😀 gamma\ndelta\n");
		writeFileSync(join(vault, "Private", "diary.md"), "secret\n");
		writeFileSync(join(vault, "Notes", "tagged.md"), "#confidential\ntext\n");
		writeFileSync(join(vault, "Notes", "welcome.md"), "opened before Claude connects\n");
		writeFileSync(join(temp.path, "outside.md"), "outside\n");
	});
	afterEach(() => hosts.splice(0).forEach((host) => host.kill()));
	afterAll(() => temp.remove());

	async function start(args: string[] = []): Promise<Host> {
		const host = await HeadlessProcess.start({ vault, home, args });
		hosts.push(host);
		return host;
	}

	/** Sends a command and resolves with the next line it prints on stdout or stderr. */
	async function run(host: Host, command: string): Promise<{ out?: string; err?: string }> {
		const [outBefore, errBefore] = [host.stdout.length, host.stderr.length];
		host.send(command);
		return pollUntil(() => {
			const out = firstLine(host.stdout.slice(outBefore));
			const err = firstLine(
				host.stderr
					.slice(errBefore)
					.split("\n")
					.filter((line) => !line.startsWith('{"trace":'))
					.join("\n"),
			);
			return out !== undefined || err !== undefined ? { out, err } : undefined;
		}, `output for ${command}`);
	}

	async function client(host: Host, pid = 999): Promise<TestClient> {
		const lock = JSON.parse(readFileSync(host.lockFile, "utf8")) as { authToken: string };
		const connected = await connectOrThrow(host.port, { token: lock.authToken });
		await connected.initialize();
		connected.notify("ide_connected", { pid });
		await host.waitForTrace((event) => event.method === "ide_connected", "ide_connected");
		return connected;
	}

	/**
	 * A client past its welcome: a note is open before it connects, so the welcome (sent a moment after
	 * ide_connected) is a selection_changed to wait for; after it, only the test's commands send anything.
	 */
	async function welcomedClient(host: Host): Promise<TestClient> {
		const welcome = join(vault, "Notes", "welcome.md");
		expect(await run(host, "open Notes/welcome.md")).toEqual({ out: `Opened ${welcome}`, err: undefined });
		const claude = await client(host);
		const greeting = await claude.waitForNotification("selection_changed");
		expect(greeting.params).toMatchObject({ filePath: welcome });
		claude.notifications.length = 0;
		return claude;
	}

	it("open, select and tag reach a connected client as selection_changed and at_mentioned", async () => {
		const host = await start();
		const claude = await welcomedClient(host);

		expect(await run(host, 'open "Notes/My note.md"')).toEqual({ out: `Opened ${note}`, err: undefined });
		const opened = await claude.waitForNotification("selection_changed");
		expect(opened.params).toMatchObject({ text: "", filePath: note, selection: { isEmpty: true } });

		const count = claude.notifications.length;
		expect(await run(host, 'select "Notes/My note.md" 1:5 2:3')).toEqual({
			out: `Selected 12 characters in ${note}`,
			err: undefined,
		});
		const selected = await claude.waitForNotification("selection_changed", 5000, count);
		expect(selected.params).toMatchObject({
			text: "😀 gamma\ndel",
			filePath: note,
			selection: { start: { line: 1, character: 5 }, end: { line: 2, character: 3 }, isEmpty: false },
		});

		expect(await run(host, 'tag "Notes/My note.md" 1 2')).toEqual({ out: `Tagged ${note}`, err: undefined });
		const tagged = await claude.waitForNotification("at_mentioned");
		expect(tagged.params).toEqual({ filePath: note, lineStart: 1, lineEnd: 2 });

		const mentions = () => claude.notifications.filter((n) => n.method === "at_mentioned").length;
		expect(await run(host, "tag Notes/")).toEqual({ out: `Tagged ${join(vault, "Notes")}/`, err: undefined });
		expect(await run(host, `tag "${note}" 0`)).toEqual({ out: `Tagged ${note}`, err: undefined });
		await claude.waitFor(() => (mentions() >= 3 ? true : undefined), "three mentions");
		expect(claude.notifications.filter((n) => n.method === "at_mentioned").map((n) => n.params)).toEqual([
			{ filePath: note, lineStart: 1, lineEnd: 2 },
			{ filePath: `${join(vault, "Notes")}/` },
			{ filePath: note, lineStart: 0, lineEnd: 0 },
		]);
		await claude.close();
	});

	it("queues tags while nobody is connected and delivers them in order after connect", async () => {
		const host = await start();
		expect(await run(host, 'tag "Notes/My note.md" 0 1')).toEqual({
			out: "Queued the tag until Claude Code connects (1 waiting)",
			err: undefined,
		});
		expect(await run(host, "tag Notes/tagged.md")).toEqual({
			out: "Queued the tag until Claude Code connects (2 waiting)",
			err: undefined,
		});
		const claude = await client(host);
		await claude.waitFor(
			() => (claude.notifications.filter((n) => n.method === "at_mentioned").length >= 2 ? true : undefined),
			"two mentions",
		);
		expect(claude.notifications.filter((n) => n.method === "at_mentioned").map((n) => n.params)).toEqual([
			{ filePath: note, lineStart: 0, lineEnd: 1 },
			{ filePath: join(vault, "Notes", "tagged.md") },
		]);
		await claude.close();
	});

	it.each([
		["open without a path", "open", "open failed: Usage: open <path>"],
		["open outside the vault", "open ../outside.md", "open failed: Path is outside the vault: ../outside.md"],
		["open an absolute path elsewhere", "open /etc/passwd", "open failed: Path is outside the vault: /etc/passwd"],
		[
			"select without positions",
			"select Notes/tagged.md",
			"select failed: select needs a start and an end position: select <path> <line>:<character> <line>:<character> (0-based; select Notes/tagged.md 0:0 0:5 selects the first five characters)",
		],
		[
			"select with one position only",
			"select Notes/tagged.md 0:0",
			"select failed: select needs a start and an end position: select <path> <line>:<character> <line>:<character> (0-based; select Notes/tagged.md 0:0 0:5 selects the first five characters)",
		],
		[
			"select with a bad position",
			"select Notes/tagged.md 1-2 3:4",
			'select failed: Expected a position as <line>:<character> (0-based), not "1-2"',
		],
		[
			"select with a negative position",
			"select Notes/tagged.md -1:0 0:1",
			'select failed: Expected a position as <line>:<character> (0-based), not "-1:0"',
		],
		[
			"select outside the vault",
			"select ../outside.md 0:0 0:1",
			"select failed: Path is outside the vault: ../outside.md",
		],
		[
			"a line with an unclosed quote",
			'open "Notes/My note.md',
			'Unclosed quote in: open "Notes/My note.md (close it with ")',
		],
		["tag without a path", "tag", "tag failed: Usage: tag <path> [<startLine> <endLine>]"],
		["tag with a bad line", "tag Notes/tagged.md one", 'tag failed: Expected a 0-based line number, not "one"'],
		["tag a folder with lines", "tag Notes/ 1 2", "tag failed: A folder tag has no lines"],
		["tag outside the vault", "tag ../outside.md", "tag failed: Path is outside the vault: ../outside.md"],
	])("%s prints a clear error and keeps running", async (_what, command, message) => {
		const host = await start();
		expect(await run(host, command)).toEqual({ out: undefined, err: message });
		expect((await host.status()).state).toBe("listening");
	});

	it("open of a missing note inside the vault says there is no such note, without the system's error code", async () => {
		const host = await start();
		expect(await run(host, "open Notes/missing.md")).toEqual({
			out: undefined,
			err: "open failed: No note Notes/missing.md in the vault",
		});
		expect(await run(host, "select Nope.md 0:0 0:1")).toEqual({
			out: undefined,
			err: "select failed: No note Nope.md in the vault",
		});
	});

	it("status is one line of JSON; rotate rewrites the lock file, closes sessions (1008), the old token gets 401", async () => {
		const host = await start();
		const before = await host.status();
		expect(before).toEqual({
			state: "listening",
			port: host.port,
			lockFile: host.lockFile,
			tokenFingerprint: expect.any(String) as unknown,
			clients: [],
		});
		const oldToken = (JSON.parse(readFileSync(host.lockFile, "utf8")) as { authToken: string }).authToken;
		const claude = await client(host, 31337);
		const withClient = await host.status();
		expect(withClient.clients).toEqual([
			{ id: 1, pid: 31337, client: "test-client", since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown },
		]);

		const { out } = await run(host, "rotate");
		expect(out).toMatch(/^Token rotated \(fingerprint \S+\); run \/ide in Claude Code to reconnect$/);
		expect((await claude.closed).code).toBe(1008);
		const newToken = (JSON.parse(readFileSync(host.lockFile, "utf8")) as { authToken: string }).authToken;
		expect(newToken).not.toBe(oldToken);
		const after = await host.status();
		expect(after.lockFile).toBe(host.lockFile);
		expect((after as unknown as { tokenFingerprint: string }).tokenFingerprint).not.toBe(
			(before as unknown as { tokenFingerprint: string }).tokenFingerprint,
		);
		expect(out).toContain((after as unknown as { tokenFingerprint: string }).tokenFingerprint);
		const refused = await connect(host.port, { token: oldToken });
		expect(refused.kind === "refused" && refused.status).toBe(401);
		const again = await connectOrThrow(host.port, { token: newToken });
		await again.close();
	});

	it("--private-folder and --private-tag keep those notes out of selection_changed, tags and files/read", async () => {
		const host = await start(["--private-folder", "Private", "--private-tag", "#Confidential"]);
		const claude = await welcomedClient(host);
		expect(await run(host, "open Private/diary.md")).toEqual({
			out: `Opened ${join(vault, "Private", "diary.md")}`,
			err: undefined,
		});
		expect(await run(host, "select Notes/tagged.md 0:0 1:2")).toMatchObject({
			out: expect.stringMatching(/^Selected/) as unknown,
		});
		expect(await run(host, "tag Private/diary.md")).toEqual({
			out: "Not sent: the note is private (excluded)",
			err: undefined,
		});
		expect(await run(host, "tag Notes/tagged.md 0 0")).toEqual({
			out: "Not sent: the note is private (excluded)",
			err: undefined,
		});
		const diary = await claude.request("files/read", { path: "Private/diary.md" });
		// Answered as a missing note would be (issue 11, finding 8).
		expect(diary.error).toEqual({ code: -32602, message: "Not found: Private/diary.md" });
		const tagged = await claude.request("files/read", { path: "Notes/tagged.md" });
		expect(tagged.error).toEqual({ code: -32602, message: "Not found: Notes/tagged.md" });
		const open = await claude.request("files/read", { path: "Notes/My note.md" });
		expect(open.result).toMatchObject({ text: "alpha\nbeta 😀 gamma\ndelta\n" });
		// A public note still gets through afterwards, so the silence above is not a dead connection.
		await run(host, 'open "Notes/My note.md"');
		await claude.waitForNotification("selection_changed");
		expect(claude.notifications.map((n) => [n.method, n.params?.filePath])).toEqual([["selection_changed", note]]);
		await claude.close();
	});
});

function firstLine(text: string): string | undefined {
	const end = text.indexOf("\n");
	return end < 0 ? undefined : text.slice(0, end);
}
