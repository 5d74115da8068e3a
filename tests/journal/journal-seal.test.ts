import { randomBytes } from "node:crypto";
import { JournalSeal, trustWithoutSeal } from "../../src/journal/journal-seal";
import type { ChangeRecord, JournalRecord } from "../../src/journal/journal-records";

const KEY = randomBytes(32);
const SINCE = 1_000;
const edit: ChangeRecord = {
	type: "change",
	id: "c1",
	at: 2_000,
	session: { key: "s1", surface: "panel" },
	tool: "Edit",
	change: { kind: "edit", path: "Note.md", before: { hash: "a".repeat(64), bytes: 4 }, after: "b".repeat(64) },
};

/** A record as it reads back from the records file. */
const readBack = (record: JournalRecord): JournalRecord => JSON.parse(JSON.stringify(record)) as JournalRecord;

describe("JournalSeal", () => {
	it("a record this device sealed reads back as its own, however many times it is read", () => {
		const seal = new JournalSeal(KEY, "/vault", SINCE);
		const sealed = seal.seal(edit);
		expect(sealed.mac).toMatch(/^[0-9a-f]{64}$/);
		expect(seal.trust(readBack(sealed))).toBe("device");
		expect(seal.trust(readBack(readBack(sealed)))).toBe("device");
	});

	it("a record sealed in place has the line and the seal `seal` gives, and is sealed only once", () => {
		const seal = new JournalSeal(KEY, "/vault", SINCE);
		const record = structuredClone(edit);
		const line = seal.sealLine(record);
		expect(line).toBe(JSON.stringify(seal.seal(edit)));
		expect(line).toBe(JSON.stringify(record));
		expect(seal.trust(JSON.parse(line) as JournalRecord)).toBe("device");
		expect(() => seal.sealLine(record)).toThrow("sealed already");
		const withDetail: JournalRecord = {
			type: "call",
			id: "c2",
			at: 3_000,
			session: { key: "s1", surface: "ide", client: 'a "quoted" name' },
			tool: "read_note",
			notes: ["Ünïcode/Note \\ 1.md"],
			args: "path=…",
			outcome: "error",
			durationMs: 1.5,
			answerBytes: 10,
			detail: "line\u2028break",
		};
		expect(seal.sealLine(structuredClone(withDetail))).toBe(JSON.stringify(seal.seal(withDetail)));
	});

	it("a sealed record changed in any field (a path, a pre-image's hash) is unreadable", () => {
		const seal = new JournalSeal(KEY, "/vault", SINCE);
		const sealed = seal.seal(edit);
		const moved = { ...sealed, change: { ...edit.change, path: "../outside/victim.md" } } as ChangeRecord;
		const swapped = {
			...sealed,
			change: { ...edit.change, before: { hash: "c".repeat(64), bytes: 4 } },
		} as ChangeRecord;
		expect(seal.trust(readBack(moved))).toBe("unreadable");
		expect(seal.trust(readBack(swapped))).toBe("unreadable");
		expect(seal.trust(readBack({ ...sealed, mac: "not hex" }))).toBe("unreadable");
	});

	it("a record sealed on another device, or for another vault, is unreadable here", () => {
		const here = new JournalSeal(KEY, "/vault", SINCE);
		expect(here.trust(readBack(new JournalSeal(randomBytes(32), "/vault", SINCE).seal(edit)))).toBe("unreadable");
		expect(here.trust(readBack(new JournalSeal(KEY, "/other vault", SINCE).seal(edit)))).toBe("unreadable");
	});

	it("a record without a seal is older when dated before this device began sealing, else unreadable", () => {
		const seal = new JournalSeal(KEY, "/vault", SINCE);
		expect(seal.trust({ ...edit, at: SINCE - 1 })).toBe("older");
		expect(seal.trust({ ...edit, at: SINCE + 1 })).toBe("unreadable");
		expect(trustWithoutSeal(edit)).toBe("older");
		expect(trustWithoutSeal(new JournalSeal(KEY, "/vault", SINCE).seal(edit))).toBe("unreadable");
	});
});
