import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { JsonRpcAnswer, TestClient } from "../helpers/test-client";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import { pollUntil } from "../helpers/wait-until";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/**
 * Issue 11 finding 9 (openDiff), against the headless host over the wire with the token. Claude Code sends
 * `old_file_path` = `new_file_path` (/work/shared/claude-code-client.md, "openDiff"); an error answer makes it
 * fall back to its terminal prompt (protocol.md §4.3). So: a private or hidden note is never shown for review
 * (its current text would be read into the review, and an accept would let the CLI overwrite it from the
 * Obsidian view), and two different paths are refused instead of showing one file's diff for another.
 */
const FILES: Record<string, string> = {
	"Secret/diary.md": "Diary: LAUNCH-CODE-7431\n",
	"Notes/tagged.md": "---\ntags: [private]\n---\nSalary: QUOKKA-9922\n",
	".vault-config/plugins/p/data.json": '{"apiKey":"sk-live-PELICAN-5510"}\n',
	"Public/a.md": "Public A\n",
	"Public/b.md": "Public B\n",
};
const SECRETS = ["LAUNCH-CODE-7431", "QUOKKA-9922", "sk-live-PELICAN-5510"];

type Outcome = { kind: "answered"; answer: JsonRpcAnswer } | { kind: "shown" };

describe("openDiff refuses private, hidden and mismatched targets", () => {
	let fixture: AssembledBridge;
	let client: TestClient;
	let tab = 0;

	beforeAll(async () => {
		fixture = await startAssembledBridge({
			privacy: { folders: ["Secret"], tags: ["private"] },
			populate: (vault) => {
				for (const [path, text] of Object.entries(FILES)) {
					mkdirSync(dirname(join(vault, path)), { recursive: true });
					writeFileSync(join(vault, path), text);
				}
				symlinkSync(join(vault, "Secret"), join(vault, "pub"));
				symlinkSync(join(vault, ".vault-config"), join(vault, "cfg"));
			},
		});
		client = await fixture.client();
	}, FIXTURE_TIMEOUT_MS);
	afterAll(() => fixture?.stop());

	/** Calls openDiff and waits until it is answered or its review is pending (then rejects that review). */
	async function openDiff(oldPath: string, newPath: string): Promise<Outcome> {
		const id = `a${String(++tab).padStart(5, "0")}`;
		const tabName = `✻ [Claude Code] attack (${id}) ⧉`;
		let answer: JsonRpcAnswer | undefined;
		const absolute = (path: string): string => join(fixture.vaultPath, ...path.split("/"));
		void client
			.request("tools/call", {
				name: "openDiff",
				arguments: {
					old_file_path: absolute(oldPath),
					new_file_path: absolute(newPath),
					new_file_contents: "Proposed.\n",
					tab_name: tabName,
				},
			})
			.then((received) => (answer = received));
		const outcome = await pollUntil<Outcome>(async () => {
			if (answer) return { kind: "answered", answer };
			return (await fixture.command("diff list")).includes(tabName) ? { kind: "shown" } : undefined;
		}, `openDiff ${oldPath} → ${newPath} to be answered or shown`);
		if (outcome.kind === "shown") await fixture.command(`diff reject ${id}`);
		return outcome;
	}

	const refusal = (outcome: Outcome): string => {
		if (outcome.kind === "shown") return "a review was shown";
		const result = outcome.answer.result as { isError?: boolean; content?: { text?: string }[] } | undefined;
		return result?.isError === true
			? (result.content?.[0]?.text ?? "")
			: `not refused: ${JSON.stringify(outcome.answer)}`;
	};

	it.each([
		["a note in a private folder", "Secret/diary.md"],
		["a note with a private tag", "Notes/tagged.md"],
		["a file in the config folder", ".vault-config/plugins/p/data.json"],
		["a private note through a symlinked folder", "pub/diary.md"],
		["a hidden file through a symlinked folder", "cfg/plugins/p/data.json"],
		["a new note in a private folder", "Secret/new.md"],
	])("%s is refused and not shown for review", async (_what, path) => {
		const outcome = await openDiff(path, path);
		expect(refusal(outcome)).toMatch(/^openDiff refused: .* is private or hidden .*Answer in the terminal\.$/);
		expect(SECRETS.filter((secret) => JSON.stringify(outcome).includes(secret))).toEqual([]);
	});

	it.each([
		["two public notes", "Public/a.md", "Public/b.md"],
		["a private note's text proposed for a public one", "Secret/diary.md", "Public/a.md"],
		["a public note's review written to a private one", "Public/a.md", "Secret/diary.md"],
	])("old_file_path ≠ new_file_path (%s) is refused with a clear error", async (_what, oldPath, newPath) => {
		const outcome = await openDiff(oldPath, newPath);
		expect(refusal(outcome)).toMatch(
			/^openDiff refused: old_file_path \(.*\) and new_file_path \(.*\) name different files/,
		);
		expect(SECRETS.filter((secret) => JSON.stringify(outcome).includes(secret))).toEqual([]);
	});

	it("the same note by two spellings (a symlinked folder) is one note and reviewed", async () => {
		mkdirSync(join(fixture.vaultPath, "Shared"));
		writeFileSync(join(fixture.vaultPath, "Shared", "c.md"), "Shared C\n");
		symlinkSync(join(fixture.vaultPath, "Shared"), join(fixture.vaultPath, "alias"));
		expect((await openDiff("alias/c.md", "Shared/c.md")).kind).toBe("shown");
	});

	it("a public note is still reviewed, and private files are untouched", async () => {
		expect((await openDiff("Public/a.md", "Public/a.md")).kind).toBe("shown");
		expect(readFileSync(join(fixture.vaultPath, "Secret", "diary.md"), "utf8")).toBe(FILES["Secret/diary.md"]);
	});
});
