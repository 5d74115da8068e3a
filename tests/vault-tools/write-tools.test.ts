import { symlinkSync, mkdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import type { EditProposal, EditReview, ReviewDecision } from "../../src/review/edit-proposal";
import { makeTempDir } from "../helpers/temp-dir";
import { makeVault, type VaultFixture } from "./vault-fixture";

const NOTE =
	"---\ntitle: Plan\ntags: [a, b]  # kept as written\n---\n# Plan\n\nIntro.\n\n## Tasks\n\n- one ^t1\n- two\n\n## Notes\n\nText ^n1\n";

describe("edit_note", () => {
	let vault: VaultFixture;
	beforeEach(() => {
		vault = makeVault({ "Plan.md": NOTE, "Dup.md": "# A\n\n## Same\n\nfirst\n\n# B\n\n## Same\n\nsecond\n" });
	});
	afterEach(() => vault?.dispose());

	it("replaces, appends, prepends, inserts after and deletes by heading, block id, frontmatter and oldText", async () => {
		const answer = await vault.call("edit_note", {
			path: "Plan",
			edits: [
				{ target: "Plan > Tasks", op: "append", content: "- three" },
				{ target: "Notes", op: "replace", content: "New text." },
				{ target: "^t1", op: "replace", content: "- uno" },
				{ target: "frontmatter", op: "append", content: "status: open" },
				{ target: { oldText: "Intro." }, op: "prepend", content: "An " },
				{ target: "Tasks", op: "insert_after", content: "## Added" },
			],
		});
		expect(answer.isError).toBe(false);
		expect(answer.text).toMatch(/^Applied 6 edits to Plan\.md/);
		expect(vault.read("Plan.md")).toBe(
			"---\ntitle: Plan\ntags: [a, b]  # kept as written\nstatus: open\n---\n# Plan\n\nAn Intro.\n\n## Tasks\n\n- uno ^t1\n- two\n- three\n\n## Added\n## Notes\n\nNew text.\n",
		);
	});

	it("replaces the whole section, not just its body, when the content repeats the heading line (no duplicate heading)", async () => {
		await vault.call("edit_note", {
			path: "Plan",
			edits: [{ target: "Notes", op: "replace", content: "## Notes\n\nRewritten." }],
		});
		expect(vault.read("Plan.md")).toMatch(/## Tasks\n\n- one \^t1\n- two\n\n## Notes\n\nRewritten\.\n$/);
		expect(vault.read("Plan.md").split("## Notes")).toHaveLength(2);
	});

	it("adds text right after or before an oldText match, on the same line", async () => {
		await vault.call("edit_note", {
			path: "Plan",
			edits: [
				{ target: { oldText: "Intro" }, op: "append", content: "duction" },
				{ target: { oldText: "Text ^n1" }, op: "prepend", content: "Some " },
			],
		});
		expect(vault.read("Plan.md")).toContain("\nIntroduction.\n");
		expect(vault.read("Plan.md")).toContain("\nSome Text ^n1\n");
	});

	it("deletes a whole section, heading included", async () => {
		expect(
			(await vault.call("edit_note", { path: "Plan", edits: [{ target: "Tasks", op: "delete" }] })).isError,
		).toBe(false);
		expect(vault.read("Plan.md")).toBe(
			"---\ntitle: Plan\ntags: [a, b]  # kept as written\n---\n# Plan\n\nIntro.\n\n## Notes\n\nText ^n1\n",
		);
	});

	it("refuses a missing heading instead of appending it at the end, and changes nothing", async () => {
		const answer = await vault.call("edit_note", {
			path: "Plan",
			edits: [{ target: "Plan > Missing", op: "append", content: "x" }],
		});
		expect(answer).toMatchObject({ isError: true });
		expect(answer.text).toMatch(
			/no heading "Plan > Missing" in the note \(its headings: "Plan", "Plan > Tasks", "Plan > Notes"\)/,
		);
		expect(vault.read("Plan.md")).toBe(NOTE);
	});

	it("refuses an ambiguous heading, naming both, until a longer path makes it unique", async () => {
		const ambiguous = await vault.call("edit_note", {
			path: "Dup",
			edits: [{ target: "Same", op: "replace", content: "x" }],
		});
		expect(ambiguous.isError).toBe(true);
		expect(ambiguous.text).toMatch(
			/heading "Same" is ambiguous: it matches "A > Same" \(line 3\), "B > Same" \(line 9\)/,
		);
		expect(vault.read("Dup.md")).toContain("first");
		expect(
			(
				await vault.call("edit_note", {
					path: "Dup",
					edits: [{ target: "B > Same", op: "replace", content: "changed" }],
				})
			).isError,
		).toBe(false);
		expect(vault.read("Dup.md")).toBe("# A\n\n## Same\n\nfirst\n\n# B\n\n## Same\n\nchanged\n");
	});

	it("refuses oldText that is missing or occurs twice", async () => {
		expect(
			(await vault.call("edit_note", { path: "Plan", edits: [{ target: { oldText: "nope" }, op: "delete" }] }))
				.text,
		).toMatch(/oldText not found/);
		expect(
			(await vault.call("edit_note", { path: "Plan", edits: [{ target: { oldText: "- " }, op: "delete" }] }))
				.text,
		).toMatch(/oldText is ambiguous: it occurs more than once \(lines 11, 12\)/);
		expect(vault.read("Plan.md")).toBe(NOTE);
	});

	it("applies all edits of a call or none", async () => {
		const answer = await vault.call("edit_note", {
			path: "Plan",
			edits: [
				{ target: "Tasks", op: "append", content: "- three" },
				{ target: "^nope", op: "delete" },
			],
		});
		expect(answer.isError).toBe(true);
		expect(answer.text).toMatch(/edit 2: no block \^nope/);
		expect(vault.read("Plan.md")).toBe(NOTE);
	});

	it("answers an edit that changes nothing as an error, not a success", async () => {
		const answer = await vault.call("edit_note", {
			path: "Plan",
			edits: [{ target: { oldText: "Intro." }, op: "replace", content: "Intro." }],
		});
		expect(answer).toMatchObject({ isError: true });
		expect(answer.text).toMatch(/No change/);
	});

	it("refuses a stale version and accepts the current one", async () => {
		const read = await vault.call("read_note", { path: "Plan" });
		const version = /version (\S+)/.exec(read.text)?.[1] ?? "";
		vault.write("Plan.md", `${NOTE}more\n`);
		const stale = await vault.call("edit_note", {
			path: "Plan",
			version,
			edits: [{ target: "Tasks", op: "append", content: "- x" }],
		});
		expect(stale.isError).toBe(true);
		expect(stale.text).toMatch(/is stale/);
		expect(vault.read("Plan.md")).toBe(`${NOTE}more\n`);
		const fresh = /version (\S+)/.exec((await vault.call("outline", { path: "Plan" })).text)?.[1] ?? "";
		expect(
			(
				await vault.call("edit_note", {
					path: "Plan",
					version: fresh,
					edits: [{ target: "Tasks", op: "append", content: "- x" }],
				})
			).isError,
		).toBe(false);
	});

	it("keeps CRLF line ends and a missing final line end", async () => {
		vault.write("Crlf.md", "# A\r\n\r\nbody\r\n\r\n# B\r\nlast");
		await vault.call("edit_note", { path: "Crlf", edits: [{ target: "A", op: "append", content: "one\ntwo" }] });
		await vault.call("edit_note", { path: "Crlf", edits: [{ target: "B", op: "append", content: "end" }] });
		expect(vault.read("Crlf.md")).toBe("# A\r\n\r\nbody\r\none\r\ntwo\r\n\r\n# B\r\nlast\r\nend");
	});
});

describe("writes and review", () => {
	it("writes what the user accepted, reports a rejection and writes nothing then", async () => {
		let decision: (write: EditProposal) => ReviewDecision = (write) => ({
			kind: "accepted",
			text: `${write.after}user line\n`,
			edited: true,
		});
		const proposals: EditProposal[] = [];
		const review: EditReview = {
			propose: (write) => {
				proposals.push(write);
				return Promise.resolve(decision(write));
			},
		};
		const vault = makeVault({ "A.md": "# A\n" }, { review: () => review });
		try {
			const accepted = await vault.call("edit_note", {
				path: "A",
				edits: [{ target: "A", op: "append", content: "x" }],
			});
			expect(accepted.text).toMatch(/the user changed the text in the review/);
			expect(vault.read("A.md")).toBe("# A\nx\nuser line\n");
			expect(proposals[0]).toMatchObject({
				note: "A.md",
				before: "# A\n",
				after: "# A\nx\n",
				proposer: { tool: "edit_note" },
			});
			decision = () => ({ kind: "rejected" });
			const rejected = await vault.call("edit_note", {
				path: "A",
				edits: [{ target: "A", op: "append", content: "y" }],
			});
			expect(rejected).toMatchObject({ isError: false });
			expect(rejected.text).toMatch(/^Not applied: the user rejected the change/);
			expect(vault.read("A.md")).toBe("# A\nx\nuser line\n");
			const create = await vault.call("create_note", { path: "B", content: "b" });
			expect(create.text).toMatch(/^Not created/);
			expect(existsSync(join(vault.root, "B.md"))).toBe(false);
		} finally {
			vault.dispose();
		}
	});

	it("writes nothing when the note changed on disk while the review was open", async () => {
		let vault: VaultFixture | undefined;
		const review: EditReview = {
			propose: (write) => {
				vault?.write("A.md", "# A\nchanged elsewhere\n");
				return Promise.resolve({ kind: "accepted", text: write.after, edited: false });
			},
		};
		vault = makeVault({ "A.md": "# A\n" }, { review: () => review });
		try {
			const answer = await vault.call("edit_note", {
				path: "A",
				edits: [{ target: "A", op: "append", content: "x" }],
			});
			expect(answer.isError).toBe(true);
			expect(answer.text).toMatch(
				/changed \(outside the vault tools\) before the change could be written; nothing was written/,
			);
			expect(vault.read("A.md")).toBe("# A\nchanged elsewhere\n");
		} finally {
			vault.dispose();
		}
	});

	it("does not write after the call was cancelled during the review", async () => {
		const controller = new AbortController();
		const review: EditReview = {
			propose: (write) => {
				controller.abort();
				return Promise.resolve({ kind: "accepted", text: write.after, edited: false });
			},
		};
		const vault = makeVault({ "A.md": "# A\n" }, { review: () => review });
		try {
			const answer = await vault.call(
				"edit_note",
				{ path: "A", edits: [{ target: "A", op: "append", content: "x" }] },
				controller.signal,
			);
			expect(answer.text).toMatch(/cancelled/);
			expect(vault.read("A.md")).toBe("# A\n");
		} finally {
			vault.dispose();
		}
	});

	it("answers every write tool with the given reason when writes are unavailable, and reads still work", async () => {
		const vault = makeVault(
			{ "A.md": "# A\n" },
			{ writesUnavailable: () => "Obsidian is not running for this vault; start it to make changes" },
		);
		try {
			const calls: [string, Record<string, unknown>][] = [
				["create_note", { path: "B", content: "x" }],
				["edit_note", { path: "A", edits: [{ target: "A", op: "append", content: "x" }] }],
				["set_properties", { path: "A", set: { a: 1 } }],
				["move_note", { path: "A", to: "C" }],
			];
			for (const [name, args] of calls) {
				const answer = await vault.call(name, args);
				expect({ name, isError: answer.isError }).toEqual({ name, isError: true });
				expect(answer.text).toMatch(/Obsidian is not running for this vault/);
			}
			expect(vault.read("A.md")).toBe("# A\n");
			expect((await vault.call("read_note", { path: "A" })).blocks[1]).toBe("# A\n");
		} finally {
			vault.dispose();
		}
	});

	it("serialises writes per note: concurrent calls run one after the other and none is lost", async () => {
		const events: string[] = [];
		const review: EditReview = {
			propose: async (write) => {
				const mark = /MARK (\d+)/.exec(write.after.slice((write.before ?? "").length - 1))?.[1] ?? "?";
				events.push(`start ${mark}`);
				// Let the other calls run as far as they can before this review is decided.
				for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
				events.push(`end ${mark}`);
				return { kind: "accepted", text: write.after, edited: false };
			},
		};
		const vault = makeVault({ "A.md": "# A\n", "B.md": "# B\n" }, { review: () => review });
		try {
			const calls = [1, 2, 3, 4].map((n) =>
				vault.call("edit_note", { path: "A", edits: [{ target: "A", op: "append", content: `MARK ${n}` }] }),
			);
			const answers = await Promise.all(calls);
			expect(answers.map((answer) => answer.isError)).toEqual([false, false, false, false]);
			const text = vault.read("A.md");
			for (const n of [1, 2, 3, 4]) expect(text).toContain(`MARK ${n}`);
			// Each review ends before the next starts.
			for (let index = 0; index < events.length; index += 2)
				expect([events[index]?.split(" ")[0], events[index + 1]?.split(" ")[0]]).toEqual(["start", "end"]);
			expect(events).toHaveLength(8);
		} finally {
			vault.dispose();
		}
	});
});

describe("create_note and set_properties", () => {
	let vault: VaultFixture;
	beforeEach(() => {
		vault = makeVault({ "A.md": NOTE, "Bare.md": "Body only\n", "Bad.md": "---\n: [\n---\nx\n" });
	});
	afterEach(() => vault?.dispose());

	it("creates a note with its folders, and refuses an existing path or a non-note", async () => {
		expect((await vault.call("create_note", { path: "New/Deep/Note", content: "# N\n" })).text).toMatch(
			/^Created New\/Deep\/Note\.md/,
		);
		expect(vault.read("New/Deep/Note.md")).toBe("# N\n");
		expect((await vault.call("create_note", { path: "New/Deep/Note.md", content: "x" })).text).toMatch(
			/already exists; vault tools never overwrite/,
		);
		expect(vault.read("New/Deep/Note.md")).toBe("# N\n");
		expect((await vault.call("create_note", { path: "x.txt", content: "x" })).text).toMatch(
			/must be a Markdown note/,
		);
		expect((await vault.call("create_note", { path: "/etc/evil.md", content: "x" })).text).toMatch(
			/outside the vault/,
		);
	});

	it("refuses to create through a symbolic link that leads out of the vault", async () => {
		const outside = makeTempDir("vault-tools-outside");
		try {
			symlinkSync(outside.path, join(vault.root, "Link"));
			const answer = await vault.call("create_note", { path: "Link/escape.md", content: "x" });
			expect(answer.text).toMatch(/a symbolic link leads out of it/);
			expect(existsSync(join(outside.path, "escape.md"))).toBe(false);
		} finally {
			outside.remove();
		}
	});

	it("sets and removes properties, keeping everything after the frontmatter byte for byte", async () => {
		const body = NOTE.slice(NOTE.indexOf("# Plan"));
		await vault.call("set_properties", {
			path: "A",
			set: { status: "done", tags: ["a", "b", "c"] },
			remove: ["title"],
		});
		const text = vault.read("A.md");
		expect(text.endsWith(`---\n${body}`)).toBe(true);
		expect(text).toBe(`---\ntags: [a, b, c] # kept as written\nstatus: done\n---\n${body}`);
		const again = await vault.call("set_properties", { path: "A", set: { status: "done" } });
		expect(again).toMatchObject({ isError: true });
		expect(again.text).toMatch(/No change/);
	});

	it("adds a frontmatter block to a note without one, and refuses invalid YAML", async () => {
		await vault.call("set_properties", { path: "Bare", set: { n: 3, done: true } });
		expect(vault.read("Bare.md")).toBe("---\nn: 3\ndone: true\n---\nBody only\n");
		const bad = await vault.call("set_properties", { path: "Bad", set: { n: 1 } });
		expect(bad.isError).toBe(true);
		expect(bad.text).toMatch(/not valid YAML/);
		expect(vault.read("Bad.md")).toBe("---\n: [\n---\nx\n");
	});

	it("never writes into hidden folders", async () => {
		mkdirSync(join(vault.root, ".hidden"));
		expect((await vault.call("create_note", { path: ".hidden/plugins.md", content: "x" })).text).toMatch(
			/hidden folder/,
		);
		expect((await vault.call("move_note", { path: "A", to: ".trash/A.md" })).text).toMatch(/hidden folder/);
		expect(existsSync(join(vault.root, ".hidden/plugins.md"))).toBe(false);
	});
});
