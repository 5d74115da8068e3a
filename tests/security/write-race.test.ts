import { mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";
import type { JsonRpcAnswer, TestClient } from "../helpers/test-client";
import { pollUntil, waitUntil } from "../helpers/wait-until";

/**
 * Issue 15 finding 6 against the headless host's assembly (`diff accept` is its review): while a write waits for
 * review, a folder of the vault is replaced by a symbolic link to a folder outside it (or to a private folder
 * inside). Accepting then writes nothing anywhere: a vault tool answers a tool error, and `openDiff` never
 * answers FILE_SAVED (on which the CLI would write the note through the link).
 */
const NOTES: Record<string, string> = {
	"Drop/Keep.md": "# Keep\n",
	"Notes/A.md": "# A\n",
	"Secret/diary.md": "Diary\n",
};

interface ToolAnswer {
	content: { type: string; text: string }[];
	isError?: boolean;
}

describe("a folder swapped for a link while a review waits in the headless host", () => {
	let fixture: AssembledBridge;
	let outside: string;
	let moved = 0;

	beforeEach(async () => {
		fixture = await startAssembledBridge({
			privacy: { folders: ["Secret"] },
			populate: (vault) => {
				for (const [path, text] of Object.entries(NOTES)) {
					mkdirSync(dirname(join(vault, path)), { recursive: true });
					writeFileSync(join(vault, path), text);
				}
			},
		});
		outside = join(fixture.tempPath, "outside");
		mkdirSync(outside);
	}, FIXTURE_TIMEOUT_MS);
	afterEach(() => fixture?.stop());

	/** The attacker's move: the vault folder is moved away and a link to `target` takes its place. */
	const swapForLink = (folder: string, target: string): void => {
		renameSync(join(fixture.vaultPath, folder), join(fixture.tempPath, `moved-${++moved}`));
		symlinkSync(target, join(fixture.vaultPath, folder));
	};

	/** Calls a vault tool as the relay does, waits for its review of `path`, lets `attack` run, then accepts. */
	async function acceptAfter(
		name: string,
		args: Record<string, unknown>,
		path: string,
		attack: () => void,
	): Promise<{ answer: ToolAnswer; accepted: string }> {
		const server = fixture.bridge.vaultTools;
		if (!server) throw new Error("the headless bridge serves no vault tools");
		const pending = server.request("tools/call", { name, arguments: args } as never, {
			sessionId: 7,
			signal: new AbortController().signal,
		});
		await waitUntil(async () => (await fixture.command("diff list")).includes(path), `the review of ${path}`);
		attack();
		const accepted = await fixture.command(`diff accept ${path}`);
		return { answer: (await pending).parse() as ToolAnswer, accepted };
	}

	it("create_note Drop/evil.md: Drop swapped for a link out; diff accept writes nothing, inside or out", async () => {
		const { answer, accepted } = await acceptAfter(
			"create_note",
			{ path: "Drop/evil.md", content: "payload" },
			"Drop/evil.md",
			() => swapForLink("Drop", outside),
		);
		expect(readdirSync(outside)).toEqual([]);
		expect(accepted).toMatch(/^Not accepted: .*Drop\/evil\.md/);
		expect(answer.isError).toBe(true);
		expect(answer.content[0]?.text).toMatch(/^create_note: .*Drop\/evil\.md.*nothing was written/i);
		expect(await fixture.command("diff list")).toBe("No reviews pending.");
	});

	it("edit_note Notes/A.md: Notes swapped for a link to a byte-identical copy; the copy stays as it was", async () => {
		writeFileSync(join(outside, "A.md"), "# A\n");
		const { answer } = await acceptAfter(
			"edit_note",
			{ path: "Notes/A.md", edits: [{ target: "A", op: "append", content: "payload" }] },
			"Notes/A.md",
			() => swapForLink("Notes", outside),
		);
		expect(readdirSync(outside)).toEqual(["A.md"]);
		expect(readFileSync(join(outside, "A.md"), "utf8")).toBe("# A\n");
		expect(answer.isError).toBe(true);
		expect(answer.content[0]?.text).toMatch(/^edit_note: .*Notes\/A\.md.*nothing was written/i);
	});

	describe("openDiff (the CLI writes the file when the answer is FILE_SAVED)", () => {
		let client: TestClient;
		beforeEach(async () => {
			client = await fixture.client();
		}, FIXTURE_TIMEOUT_MS);

		async function openDiffThenAccept(
			path: string,
			attack: () => void,
		): Promise<{ answer: JsonRpcAnswer; accepted: string }> {
			const absolute = join(fixture.vaultPath, ...path.split("/"));
			const tabName = `✻ [Claude Code] ${path} (race01) ⧉`;
			const pending = client.request("tools/call", {
				name: "openDiff",
				arguments: {
					old_file_path: absolute,
					new_file_path: absolute,
					new_file_contents: "payload\n",
					tab_name: tabName,
				},
			});
			await pollUntil(
				async () => ((await fixture.command("diff list")).includes(tabName) ? true : undefined),
				`the review of ${path}`,
			);
			attack();
			const accepted = await fixture.command("diff accept race01");
			return { answer: await pending, accepted };
		}

		const answerText = (answer: JsonRpcAnswer): { isError: boolean; texts: string[] } => {
			const result = answer.result as ToolAnswer;
			return { isError: result.isError === true, texts: result.content.map((block) => block.text) };
		};

		it("an existing note whose folder became a link out: refused with a clear error, never FILE_SAVED", async () => {
			writeFileSync(join(outside, "A.md"), "# A\n");
			const { answer, accepted } = await openDiffThenAccept("Notes/A.md", () => swapForLink("Notes", outside));
			expect(accepted).toMatch(/^Not accepted: .*Notes\/A\.md/);
			const { isError, texts } = answerText(answer);
			expect(isError).toBe(true);
			expect(texts).not.toContain("FILE_SAVED");
			expect(texts[0]).toBe(
				"Notes/A.md was not saved: a folder on its path was replaced by a link leading out of the vault after the review opened; nothing was written.",
			);
			expect(readFileSync(join(outside, "A.md"), "utf8")).toBe("# A\n");
		});

		it("a new note whose folder became a link to a private folder inside the vault: refused, never FILE_SAVED", async () => {
			const { answer } = await openDiffThenAccept("Drop/new.md", () =>
				swapForLink("Drop", join(fixture.vaultPath, "Secret")),
			);
			const { isError, texts } = answerText(answer);
			expect(isError).toBe(true);
			expect(texts).not.toContain("FILE_SAVED");
			expect(readdirSync(join(fixture.vaultPath, "Secret"))).toEqual(["diary.md"]);
		});

		it("an untouched note is still accepted (FILE_SAVED with the proposal)", async () => {
			const { answer, accepted } = await openDiffThenAccept("Notes/A.md", () => undefined);
			expect(accepted).toMatch(/^Accepted /);
			expect(answerText(answer).texts).toEqual(["FILE_SAVED", "payload\n"]);
		});
	});
});
