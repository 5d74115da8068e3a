import { CallRecorder } from "../../src/journal/call-recorder";
import { Journal } from "../../src/journal/journal";
import { MemoryJournalStore } from "../../src/journal/memory-journal-store";
import { outcomeClassifier } from "../../src/journal/outcome-classifier";

function recorder(extra: Partial<ConstructorParameters<typeof CallRecorder>[0]> = {}): {
	recorder: CallRecorder;
	journal: Journal;
} {
	const journal = new Journal({ store: new MemoryJournalStore() });
	return {
		journal,
		recorder: new CallRecorder({
			journal,
			surface: "vault-tools-http",
			references: { classify: (value) => ({ path: value }) },
			classify: outcomeClassifier(() => false),
			...extra,
		}),
	};
}

describe("CallRecorder", () => {
	it("records tool calls and methods, not the lifecycle or listings", async () => {
		const { recorder: observer, journal } = recorder();
		const session = { id: 0 };
		expect(
			observer.started({ method: "initialize", params: { clientInfo: { name: "claude-code" } }, session }),
		).toBeUndefined();
		expect(observer.started({ method: "tools/list", params: {}, session })).toBeUndefined();
		const call = observer.started({
			method: "tools/call",
			params: { name: "read_note", arguments: { path: "a.md" } },
			session,
		});
		const read = observer.started({ method: "resources/read", params: { uri: "x.md" }, session });
		expect(call?.id).toBeDefined();
		call?.finished({ kind: "result", result: { content: [{ type: "text", text: "x" }] }, bytes: 77 });
		read?.finished({ kind: "error", code: -32602, message: "Resource not found", bytes: 12 });
		const entries = await journal.entries();
		expect(entries.map((entry) => [entry.tool, entry.outcome, entry.answerBytes, entry.session.client])).toEqual([
			["resources/read", "error", 12, "claude-code"],
			["read_note", "ok", 77, "claude-code"],
		]);
		expect(entries[1]?.notes).toEqual(["a.md"]);
	});

	it("drops a call `keep` refuses", async () => {
		const { recorder: observer, journal } = recorder({ keep: () => false });
		observer
			.started({ method: "tools/call", params: { name: "read_note", arguments: {} }, session: { id: 1 } })
			?.finished({ kind: "result", result: {}, bytes: 1 });
		expect(await journal.entries()).toEqual([]);
	});

	it("records each call with the conversation turn running when it started", async () => {
		let turn: string | undefined = "t-1";
		const { recorder: observer, journal } = recorder({ surface: "panel", turn: () => turn });
		const session = { id: 0 };
		const first = observer.started({ method: "tools/call", params: { name: "edit_note", arguments: {} }, session });
		turn = "t-2";
		first?.finished({ kind: "result", result: {}, bytes: 1 });
		observer
			.started({ method: "tools/call", params: { name: "read_note", arguments: {} }, session })
			?.finished({ kind: "result", result: {}, bytes: 1 });
		expect((await journal.entries()).map((entry) => [entry.tool, entry.turn])).toEqual([
			["read_note", "t-2"],
			["edit_note", "t-1"],
		]);
	});

	it("takes the session's client and pid, one key per recorder", async () => {
		const { recorder: first, journal } = recorder({ surface: "ide" });
		const second = new CallRecorder({
			journal,
			surface: "ide",
			references: { classify: () => undefined },
			classify: outcomeClassifier(() => false),
		});
		first
			.started({
				method: "tools/call",
				params: { name: "a" },
				session: { id: 3, client: { name: "claude" }, pid: 77 },
			})
			?.finished({ kind: "result", result: {}, bytes: 1 });
		second
			.started({ method: "tools/call", params: { name: "b" }, session: { id: 4 } })
			?.finished({ kind: "result", result: {}, bytes: 1 });
		const [b, a] = await journal.entries();
		expect(a?.session).toMatchObject({ surface: "ide", client: "claude", pid: 77, connection: 3 });
		expect(b?.session.key).not.toBe(a?.session.key);
	});

	it("follows the session as it becomes known: a pid or client name given later reaches the later calls only", async () => {
		const { recorder: observer, journal } = recorder({ surface: "ide" });
		const call = (session: { id: number; client?: { name: string }; pid?: number }): void => {
			observer
				.started({ method: "tools/call", params: { name: "t" }, session })
				?.finished({ kind: "result", result: {}, bytes: 1 });
		};
		call({ id: 5 });
		call({ id: 5 });
		call({ id: 5, pid: 42 });
		call({ id: 5, client: { name: "claude" }, pid: 42 });
		call({ id: 6, client: { name: "claude" }, pid: 42 });
		const sessions = (await journal.entries()).reverse().map((entry) => entry.session);
		expect(sessions.map(({ client, pid, connection }) => [client, pid, connection])).toEqual([
			[undefined, undefined, 5],
			[undefined, undefined, 5],
			[undefined, 42, 5],
			["claude", 42, 5],
			["claude", 42, 6],
		]);
		expect(new Set(sessions.map((session) => session.key)).size).toBe(1);
	});

	it("summarises a call's arguments once, when its record is written, not while it runs; a failure's message is judged by them at once", async () => {
		const asked: string[] = [];
		const { recorder: observer, journal } = recorder({
			references: {
				classify: (value) => {
					asked.push(value);
					return value.startsWith("Private/") ? "private" : { path: value };
				},
			},
		});
		const session = { id: 1 };
		observer
			.started({ method: "tools/call", params: { name: "read_note", arguments: { path: "a.md" } }, session })
			?.finished({ kind: "result", result: {}, bytes: 1 });
		expect(asked).toEqual([]);
		observer
			.started({
				method: "tools/call",
				params: { name: "read_note", arguments: { path: "Private/p.md" } },
				session,
			})
			?.finished({ kind: "error", code: -32602, message: "Private/p.md is private", bytes: 1 });
		expect(asked).toEqual(["Private/p.md"]);
		const entries = await journal.entries();
		expect(asked).toEqual(["Private/p.md", "a.md"]);
		expect(entries.map((entry) => [entry.notes, entry.detail])).toEqual([
			[[], "(withheld)"],
			[["a.md"], undefined],
		]);
	});
});
