import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MemoryJournalStore } from "../../src/journal/memory-journal-store";
import { ACTIVITY_LIMIT, formatActivity } from "../../src/headless/activity-commands";
import { FolderVaultIndex } from "../../src/vault/folder/folder-vault-index";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

const ORIGINAL = Buffer.concat([
	Buffer.from([0xef, 0xbb, 0xbf]),
	Buffer.from("# Title\r\n\r\nalpha caf", "latin1"),
	Buffer.from([0xe9]),
	Buffer.from(" line\r\n", "latin1"),
]);

interface ToolAnswer {
	result?: { content: { text: string }[]; isError?: boolean };
}

/** Every link of every note and where it leads, as the folder adapter resolves them. */
async function resolvedLinks(vault: string): Promise<string[]> {
	const index = new FolderVaultIndex({ root: vault, watch: false });
	try {
		await index.refresh();
		return [...index.notePaths()]
			.sort()
			.flatMap((path) =>
				(index.facts(path)?.links ?? []).map(
					(link) => `${path}: ${link.original} → ${link.target ?? "unresolved"}`,
				),
			);
	} finally {
		index.dispose();
	}
}

describe("activity and undo in the headless host", () => {
	let fixture: AssembledBridge | undefined;
	let next = 1;

	beforeEach(async () => {
		fixture = await startAssembledBridge({
			populate: (vault) => {
				mkdirSync(join(vault, "Private"));
				writeFileSync(join(vault, "bytes.md"), ORIGINAL);
				writeFileSync(join(vault, "b.md"), "# B\n\n## Part\n\nSee [[b#Part]].\n");
				writeFileSync(join(vault, "a.md"), "# A\r\n\r\nTo [[b]] and [[b#Part|there]] and [md](b.md).\r\n");
				writeFileSync(join(vault, "c.md"), "![[b]]\n");
				writeFileSync(join(vault, "Private", "p.md"), "private link [[b]]\n");
			},
			privacy: { folders: ["Private"] },
			journalStore: new MemoryJournalStore(),
			reviewVaultToolWrites: () => false,
		});
	}, FIXTURE_TIMEOUT_MS);

	afterEach(async () => {
		await fixture?.stop();
	});

	/** A vault-tools session (the in-process transport): one journal session for all its calls. */
	function session(id = 5): (name: string, args: object) => Promise<ToolAnswer> {
		const answers = new Map<number, ToolAnswer>();
		const server = fixture!.bridge.vaultTools!.session({
			id,
			send: (text) => {
				const message = JSON.parse(text) as ToolAnswer & { id: number };
				answers.set(message.id, message);
			},
		});
		return async (name, args) => {
			const id = next++;
			await server.handleMessage(
				JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } }),
			);
			const answer = answers.get(id);
			if (answer?.result?.isError) throw new Error(answer.result.content[0]?.text);
			return answer ?? {};
		};
	}

	async function lastId(tool: string): Promise<string> {
		const [entry] = await fixture!.bridge.activity!.journal.entries({ tool });
		if (!entry) throw new Error(`no ${tool} entry`);
		return entry.id;
	}

	const file = (path: string): Buffer => readFileSync(join(fixture!.vaultPath, path));

	it("undoes an edit byte for byte: BOM, CRLF and bytes that are not UTF-8", async () => {
		const call = session();
		await call("edit_note", {
			path: "bytes.md",
			edits: [{ target: { oldText: "alpha" }, op: "replace", content: "beta" }],
		});
		expect(file("bytes.md").equals(ORIGINAL)).toBe(false);
		const id = await lastId("edit_note");
		expect(await fixture!.command(`undo ${id}`)).toBe(`Undone ${id}: restored bytes.md`);
		expect(file("bytes.md").equals(ORIGINAL)).toBe(true);
		await expect(fixture!.command(`undo ${id}`)).rejects.toThrow(/undone already/);
	});

	it("refuses an undo when the note changed since, with the reason, and writes nothing", async () => {
		const call = session();
		await call("edit_note", {
			path: "bytes.md",
			edits: [{ target: { oldText: "alpha" }, op: "replace", content: "beta" }],
		});
		writeFileSync(join(fixture!.vaultPath, "bytes.md"), "the user's own text\n");
		const id = await lastId("edit_note");
		await expect(fixture!.command(`undo ${id}`)).rejects.toThrow(
			`Not undone ${id}: bytes.md changed since; nothing was undone`,
		);
		expect(file("bytes.md").toString("utf8")).toBe("the user's own text\n");
	});

	it("undoes a move: the path and every link come back (private notes' links too), the rewritten notes byte for byte", async () => {
		const before = await resolvedLinks(fixture!.vaultPath);
		const bytes = ["a.md", "b.md", "c.md", "Private/p.md"].map((path) => [path, file(path)] as const);
		const call = session();
		await call("move_note", { path: "b.md", to: "Moved/b2.md" });
		expect(existsSync(join(fixture!.vaultPath, "b.md"))).toBe(false);
		expect(await resolvedLinks(fixture!.vaultPath)).not.toEqual(before);
		const entry = (await fixture!.bridge.activity!.journal.entries({ tool: "move_note" }))[0];
		expect(JSON.stringify(entry)).not.toContain("Private");
		const output = await fixture!.command(`undo ${entry.id}`);
		expect(output).toMatch(/^Undone .*: restored b\.md, /);
		expect(await resolvedLinks(fixture!.vaultPath)).toEqual(before);
		for (const [path, original] of bytes) expect([path, file(path).equals(original)]).toEqual([path, true]);
	});

	it("undoes a whole session newest first, so two edits of one note both come back", async () => {
		const call = session();
		await call("edit_note", {
			path: "a.md",
			edits: [{ target: { oldText: "To" }, op: "replace", content: "First" }],
		});
		await call("edit_note", {
			path: "a.md",
			edits: [{ target: { oldText: "First" }, op: "replace", content: "Second" }],
		});
		await call("read_note", { path: "c.md" });
		const original = "# A\r\n\r\nTo [[b]] and [[b#Part|there]] and [md](b.md).\r\n";
		expect(file("a.md").toString("utf8")).not.toBe(original);
		const entries = await fixture!.bridge.activity!.journal.entries({ tool: "edit_note" });
		const key = entries[0].session.key;
		const output = await fixture!.command(`undo --session ${key}`);
		expect(output.split("\n")).toEqual([
			`Undone ${entries[0].id}: restored a.md`,
			`Undone ${entries[1].id}: restored a.md`,
		]);
		expect(file("a.md").toString("utf8")).toBe(original);
	});

	it("undoes a create by moving the note to .trash, only while it is unchanged", async () => {
		const call = session();
		await call("create_note", { path: "New/fresh.md", content: "fresh\n" });
		const first = await lastId("create_note");
		await call("create_note", { path: "New/kept.md", content: "kept\n" });
		const second = await lastId("create_note");
		writeFileSync(join(fixture!.vaultPath, "New", "kept.md"), "kept, and the user wrote here\n");
		expect(await fixture!.command(`undo ${first}`)).toBe(`Undone ${first}: restored New/fresh.md`);
		expect(existsSync(join(fixture!.vaultPath, "New", "fresh.md"))).toBe(false);
		expect(readFileSync(join(fixture!.vaultPath, ".trash", "fresh.md"), "utf8")).toBe("fresh\n");
		await expect(fixture!.command(`undo ${second}`)).rejects.toThrow(/New\/kept\.md changed since/);
		expect(readFileSync(join(fixture!.vaultPath, "New", "kept.md"), "utf8")).toBe(
			"kept, and the user wrote here\n",
		);
		expect(readdirSync(join(fixture!.vaultPath, ".trash"))).toEqual(["fresh.md"]);
	});

	it("prints the activity newest first, grouped by session, filtered", async () => {
		await session(5)("read_note", { path: "a.md" });
		await session(6)("read_note", { path: "c.md" });
		await session(6)("outline", { path: "c.md" }).catch(() => undefined);
		const all = await fixture!.command("activity");
		const sessionLines = all.split("\n").filter((line) => line.startsWith("Session "));
		expect(sessionLines).toHaveLength(3);
		expect(all.indexOf("outline")).toBeLessThan(all.indexOf("path=a.md"));
		const filtered = await fixture!.command("activity note:a.md");
		expect(filtered).toContain("path=a.md");
		expect(filtered).not.toContain("c.md");
		await expect(fixture!.command("activity outcome:maybe")).rejects.toThrow(/unknown outcome "maybe"/);
	});
});

describe("formatActivity", () => {
	it("says how many older entries it left out", () => {
		const entries = Array.from({ length: ACTIVITY_LIMIT + 2 }, (_, index) => ({
			id: `e${index}`,
			at: 1_000_000 - index,
			session: { key: "s1", surface: "ide" as const },
			tool: "ping",
			notes: [],
			args: "",
			changes: [],
		}));
		const text = formatActivity(entries, ACTIVITY_LIMIT);
		expect(text).toContain("(2 older entries not shown");
		expect(text.split("\n").filter((line) => line.includes("ping"))).toHaveLength(ACTIVITY_LIMIT);
	});
});
