import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
	assembleInlineEdit,
	BRIDGE_OFF_REFUSAL,
	INLINE_EDIT_TOOL,
	PRIVATE_NOTE_REFUSAL,
} from "../../src/assembly/inline-edit-assembly";
import { MemoryJournalStore } from "../../src/journal/memory-journal-store";
import { libraryYamlCodec } from "../../src/vault/folder/yaml-library-codec";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import { FakeAgentSession } from "../helpers/fake-agent-engine";

const PLAN = "# Plan\nWrite the first chapter.\n";

let fixture: AssembledBridge | undefined;
afterEach(async () => {
	await fixture?.stop();
	fixture = undefined;
});

async function bridge(): Promise<AssembledBridge> {
	fixture = await startAssembledBridge({
		journalStore: new MemoryJournalStore(),
		privacy: { folders: ["Private"], tags: ["private"] },
		populate: (vault) => {
			writeFileSync(join(vault, "Plan.md"), PLAN);
			mkdirSync(join(vault, "Private"));
			writeFileSync(join(vault, "Private", "Diary.md"), "Dear diary.\n");
			writeFileSync(join(vault, "Tagged.md"), "A note #private\n");
		},
	});
	return fixture;
}

function service(built: AssembledBridge | undefined, sessions: FakeAgentSession[] = []) {
	return assembleInlineEdit({
		bridge: () => built?.bridge,
		start: () => {
			const session = new FakeAgentSession({ permissionMode: "default" });
			sessions.push(session);
			return session;
		},
		yaml: libraryYamlCodec,
	});
}

describe("inline edits over the bridge", () => {
	it("refuse a private note before anything is sent, by folder, by saved tag, and by a tag only the editor holds yet; and say so while the bridge is off", async () => {
		const built = await bridge();
		const inline = service(built);
		expect(inline.refusal("Plan.md", PLAN)).toBeUndefined();
		expect(inline.refusal("Private/Diary.md", "Dear diary.\n")).toBe(PRIVATE_NOTE_REFUSAL);
		expect(inline.refusal("Tagged.md", "A note\n")).toBe(PRIVATE_NOTE_REFUSAL);
		expect(inline.refusal("Plan.md", "---\ntags: [private]\n---\n# Plan\n")).toBe(PRIVATE_NOTE_REFUSAL);
		expect(service(undefined).refusal("Plan.md", PLAN)).toBe(BRIDGE_OFF_REFUSAL);
	});

	it("record an accepted change in the journal as the panel's, with the note's bytes before it, so Undo puts them back", async () => {
		const built = await bridge();
		const sessions: FakeAgentSession[] = [];
		const run = service(built, sessions).start();
		expect(sessions).toHaveLength(1);
		const note = join(built.vaultPath, "Plan.md");
		const after = "# Plan\nWrite the second chapter.\n";
		await run.record(
			{ path: "Plan.md", text: after, summary: 'asked "next chapter"; accepted the one change' },
			() => {
				writeFileSync(note, after);
				return Promise.resolve();
			},
		);
		const activity = built.bridge.activity;
		const entries = (await activity?.journal.entries()) ?? [];
		const entry = entries.find((candidate) => candidate.tool === INLINE_EDIT_TOOL);
		expect(entry).toMatchObject({
			session: { surface: "panel", client: "claude-code" },
			notes: ["Plan.md"],
			args: 'asked "next chapter"; accepted the one change',
			outcome: "ok",
		});
		expect(entry?.changes).toHaveLength(1);
		expect(await activity?.undo?.entry(entry?.id ?? "")).toMatchObject({ kind: "undone" });
		expect(readFileSync(note, "utf8")).toBe(PLAN);
	});

	it("write nothing when the note turned private by the text to be written, or when the bridge went off", async () => {
		const built = await bridge();
		const run = service(built).start();
		const write = jest.fn(() => Promise.resolve());
		await expect(run.record({ path: "Plan.md", text: "# Plan #private\n", summary: "s" }, write)).rejects.toThrow(
			PRIVATE_NOTE_REFUSAL,
		);
		let on: AssembledBridge | undefined = built;
		const offLater = assembleInlineEdit({
			bridge: () => on?.bridge,
			start: () => new FakeAgentSession({ permissionMode: "default" }),
		}).start();
		on = undefined;
		await expect(offLater.record({ path: "Plan.md", text: PLAN, summary: "s" }, write)).rejects.toThrow(
			BRIDGE_OFF_REFUSAL,
		);
		expect(write).not.toHaveBeenCalled();
	});
});
