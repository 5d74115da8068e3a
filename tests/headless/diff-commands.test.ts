import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HeadlessProcess } from "../helpers/headless-process";
import { connectOrThrow, type TestClient } from "../helpers/test-client";
import { makeTempDir } from "../helpers/temp-dir";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";
import { waitUntil } from "../helpers/wait-until";
import { diffCommand } from "../../src/headless/diff-commands";
import { PendingReviews } from "../../src/review/pending-reviews";
import { FakeReviewPort } from "../review/fake-review-port";
import { makeToolVault } from "../ide/tools/ide-tool-fixture";

describe("the headless host's diff commands", () => {
	const temp = makeTempDir("headless-diff");
	const home = join(temp.path, "home");
	const vault = join(temp.path, "vault");
	const note = join(vault, "note.md");
	let host: HeadlessProcess & { port: number; lockFile: string };
	let client: TestClient;

	beforeAll(() => {
		mkdirSync(home);
		mkdirSync(vault);
	});

	beforeEach(async () => {
		writeFileSync(note, "# Note\n\nOld text.\n");
		host = await HeadlessProcess.start({ vault, home });
		const lock = JSON.parse(readFileSync(host.lockFile, "utf8")) as { authToken: string };
		client = await connectOrThrow(host.port, { token: lock.authToken });
		await client.initialize();
	}, FIXTURE_TIMEOUT_MS);

	afterEach(async () => {
		await client?.close();
		host?.kill();
	});
	afterAll(() => temp.remove());

	function openDiff(id: number, tabName: string, contents: string): void {
		client.send({
			jsonrpc: "2.0",
			id,
			method: "tools/call",
			params: {
				name: "openDiff",
				arguments: { old_file_path: note, new_file_path: note, new_file_contents: contents, tab_name: tabName },
			},
		});
	}

	/** Sends a command and waits for its (first-time) output; each pattern needs one capture group. */
	async function runCommand(line: string, expected: RegExp, stream: "stdout" | "stderr" = "stdout"): Promise<string> {
		host.send(line);
		return host.waitForOutput(expected, 5000, stream);
	}

	it("announces a review, lists it as JSON, and accepts it with the text of a file", async () => {
		openDiff(10, "✻ [Claude Code] note.md (aa11bb) ⧉", "# Note\n\nNew text.\n");
		await host.waitForOutput(/(Review pending: .* for note\.md \(\+1 -1 lines\))/);
		const listed = JSON.parse(await runCommand("diff list", /^(\{"tab_name".*\})$/m)) as Record<string, unknown>;
		expect(listed).toMatchObject({
			tab_name: "✻ [Claude Code] note.md (aa11bb) ⧉",
			path: "note.md",
			session: 1,
			originalChars: 18,
			proposedChars: 18,
			isNewFile: false,
		});
		const edited = join(temp.path, "edited.md");
		writeFileSync(edited, "# Note\n\nEdited by me.\n");
		await runCommand(`diff accept --text-file "${edited}"`, /(Accepted .* with the text of .*)/);
		const answer = await client.waitForAnswer(10);
		expect(answer.result).toEqual({
			content: [
				{ type: "text", text: "FILE_SAVED" },
				{ type: "text", text: "# Note\n\nEdited by me.\n" },
			],
		});
		expect(readFileSync(note, "utf8")).toBe("# Note\n\nOld text.\n");
		expect(await runCommand("diff list", /(No reviews pending\.)/)).toBeTruthy();
	});

	it("rejects a review named by part of its tab name, and asks for a name when several are pending", async () => {
		openDiff(20, "✻ [Claude Code] note.md (cc22dd) ⧉", "one");
		openDiff(21, "✻ [Claude Code] note.md (ee33ff) ⧉", "two");
		// Each openDiff reads its note before its review shows, so the two may show in either order: wait for both.
		await host.waitForOutput(/(ee33ff)/);
		await host.waitForOutput(/(cc22dd)/);
		await runCommand("diff reject", /(diff failed: 2 reviews are pending; name one)/, "stderr");
		await runCommand("diff reject cc22dd", /(Rejected .*cc22dd.*)/);
		expect((await client.waitForAnswer(20)).result).toEqual({
			content: [
				{ type: "text", text: "DIFF_REJECTED" },
				{ type: "text", text: "✻ [Claude Code] note.md (cc22dd) ⧉" },
			],
		});
		await runCommand('diff accept "✻ [Claude Code] note.md (ee33ff) ⧉"', /(Accepted .*ee33ff.*)/);
		expect((await client.waitForAnswer(21)).result).toEqual({
			content: [
				{ type: "text", text: "FILE_SAVED" },
				{ type: "text", text: "two" },
			],
		});
	});

	it("diff reject <name> <reason…>: an IDE client's openDiff is answered exactly as without a reason, and the host says the reason went nowhere", async () => {
		openDiff(30, "✻ [Claude Code] note.md (ab12cd) ⧉", "three");
		await host.waitForOutput(/(ab12cd)/);
		const said = await runCommand('diff reject ab12cd keep "the old text"', /(Rejected .*ab12cd.*)/);
		expect(said).toBe(
			'Rejected "✻ [Claude Code] note.md (ab12cd) ⧉"; the reason was not passed on: Claude Code\'s openDiff answer carries none',
		);
		expect((await client.waitForAnswer(30)).result).toEqual({
			content: [
				{ type: "text", text: "DIFF_REJECTED" },
				{ type: "text", text: "✻ [Claude Code] note.md (ab12cd) ⧉" },
			],
		});
		expect(readFileSync(note, "utf8")).toBe("# Note\n\nOld text.\n");
	});

	it("says clearly what the read-only tools can only record without an editor", async () => {
		const answer = await client.request("tools/call", {
			name: "openFile",
			arguments: { filePath: "note.md", startText: "Old" },
		});
		expect(answer.result).toEqual({
			content: [
				{
					type: "text",
					text: `Opened file: ${note} (headless host: no editor window; the note is recorded as open, with its selection)`,
				},
			],
		});
		const selection = await client.request("tools/call", { name: "getCurrentSelection", arguments: {} });
		const text = (selection.result as { content: { text: string }[] }).content[0]?.text ?? "";
		expect(JSON.parse(text)).toMatchObject({
			success: true,
			text: "Old",
			filePath: note,
			selection: { start: { line: 2, character: 0 }, end: { line: 2, character: 3 } },
		});
	});
});

describe("diff reject with a reason, for a proposer that hears it (the vault tools, the agent panel)", () => {
	const vault = makeToolVault({ "note.md": "old\n" });
	afterAll(() => vault.remove());

	it("diff reject x because …: the words after the name reach the proposer as its reason", async () => {
		const reviews = new PendingReviews({ paths: vault.paths, port: new FakeReviewPort() });
		const path = join(vault.root, "note.md");
		const answer = reviews.propose({
			note: "note.md",
			before: "old\n",
			after: "new\n",
			title: "Vault tools #1: edit_note note.md",
			proposer: { surface: "vault-tools", client: "Claude's vault tools", tool: "edit_note" },
			hearsReason: true,
			signal: new AbortController().signal,
		});
		await waitUntil(() => reviews.findPending() !== undefined, "the review to be pending");
		const command = diffCommand(reviews);
		expect(await command.run(["reject", "#1", "because", "it belongs in Drafts"])).toBe(
			'Rejected "Vault tools #1: edit_note note.md"; Claude is told the reason',
		);
		expect(await answer).toEqual({ kind: "rejected", reason: "because it belongs in Drafts" });
		expect(readFileSync(path, "utf8")).toBe("old\n");
	});
});
