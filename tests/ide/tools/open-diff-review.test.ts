import { mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createOpenDiffTool, type OpenDiffToolDeps } from "../../../src/ide/tools/open-diff";
import { PendingReviews, type PendingReviewsOptions } from "../../../src/review/pending-reviews";
import { VaultPaths } from "../../../src/vault/vault-paths";
import type { ToolCallContext, ToolResult } from "../../../src/protocol/mcp-types";
import { makeTempDir } from "../../helpers/temp-dir";
import { waitUntil } from "../../helpers/wait-until";
import { FakeReviewPort } from "../../review/fake-review-port";

// openDiff over the pending reviews: the IDE's wire (absolute paths in; FILE_SAVED or DIFF_REJECTED out) end to end.

const temp = makeTempDir("reviews");
const vault = join(temp.path, "vault");
mkdirSync(vault);
writeFileSync(join(vault, "note.md"), "# Note\n\nOld text.\n");
afterAll(() => temp.remove());

const TAB = "✻ [Claude Code] note.md (abc123) ⧉";

interface OpenDiffRequest {
	oldFilePath: string;
	newFilePath: string;
	newFileContents: string;
	tabName: string;
}

function setup(
	maxPendingPerClient?: number,
	options: Partial<Pick<PendingReviewsOptions, "privacy">> & Pick<OpenDiffToolDeps, "clientName"> = {},
) {
	const port = new FakeReviewPort();
	const paths = new VaultPaths(vault);
	const manager = new PendingReviews({
		paths,
		port,
		maxPendingPerClient,
		...(options.privacy ? { privacy: options.privacy } : {}),
	});
	const tool = createOpenDiffTool({
		paths,
		reviews: manager,
		...(options.privacy ? { privacy: options.privacy } : {}),
		...(options.clientName ? { clientName: options.clientName } : {}),
	});
	const openDiff = (req: OpenDiffRequest, ctx: ToolCallContext): Promise<ToolResult> =>
		tool.call(
			{
				old_file_path: req.oldFilePath,
				new_file_path: req.newFilePath,
				new_file_contents: req.newFileContents,
				tab_name: req.tabName,
			},
			ctx,
		);
	return { port, manager, openDiff };
}

function request(tabName = TAB, proposal = "# Note\n\nNew text.\n", path = join(vault, "note.md")): OpenDiffRequest {
	return { oldFilePath: path, newFilePath: path, newFileContents: proposal, tabName };
}

function context(sessionId = 1) {
	const controller = new AbortController();
	return { controller, context: { sessionId, signal: controller.signal } };
}

/** Starts an openDiff and waits until its view is shown. */
async function open(setupResult: ReturnType<typeof setup>, req: OpenDiffRequest = request(), sessionId = 1) {
	const { controller, context: ctx } = context(sessionId);
	const answer = setupResult.openDiff(req, ctx);
	await waitUntil(
		() =>
			setupResult.port.views.get(req.tabName) !== undefined ||
			setupResult.manager.findPending(req.tabName) !== undefined,
		"the review to be shown",
	);
	return { answer, controller };
}

const texts = (result: ToolResult) => result.content.map((block) => block.text);

describe("openDiff over the pending reviews", () => {
	it("says who proposes: the IDE client by the name it gave, its session and openDiff", async () => {
		const s = setup(undefined, { clientName: (session) => (session === 7 ? "claude-code" : undefined) });
		await open(s, request("from the CLI"), 7);
		expect(s.port.views.get("from the CLI")?.proposer).toEqual({
			surface: "ide",
			client: "claude-code",
			session: 7,
			tool: "openDiff",
		});
		await open(s, request("unnamed client"), 8);
		expect(s.port.views.get("unnamed client")?.proposer).toEqual({
			surface: "ide",
			client: "Claude Code",
			session: 8,
			tool: "openDiff",
		});
		s.manager.dispose();
	});

	it("refuses a private note's edit without reading it: an error answer leaves it to the terminal", async () => {
		const s = setup(undefined, {
			privacy: { hides: (location) => location.relative === "note.md", isInPrivateFolder: () => false },
		});
		const refused = await s.openDiff(request("plain"), context().context);
		expect(refused.isError).toBe(true);
		expect(texts(refused)[0]).toMatch(/is private or hidden/);
		expect(s.port.views.size).toBe(0);
	});

	it("shows the current note against the proposal and answers FILE_SAVED with the proposal on accept", async () => {
		const s = setup();
		const { answer } = await open(s);
		const shown = s.port.views.get(TAB);
		expect(shown).toMatchObject({
			before: "# Note\n\nOld text.\n",
			after: "# Note\n\nNew text.\n",
			isNewFile: false,
			note: { relative: "note.md" },
		});
		expect(s.manager.accept(TAB)).toEqual({ kind: "accepted" });
		expect(texts(await answer)).toEqual(["FILE_SAVED", "# Note\n\nNew text.\n"]);
		expect(s.port.views.has(TAB)).toBe(false);
	});

	it("answers the edited text when the user changed the proposal before accepting", async () => {
		const s = setup();
		const { answer } = await open(s);
		s.manager.accept(TAB, "# Note\n\nMy own words.\n");
		expect(texts(await answer)).toEqual(["FILE_SAVED", "# Note\n\nMy own words.\n"]);
	});

	it("answers DIFF_REJECTED and the tab name on reject, and never TAB_CLOSED", async () => {
		const s = setup();
		const { answer } = await open(s);
		expect(s.manager.reject(TAB)).toBe(true);
		expect(texts(await answer)).toEqual(["DIFF_REJECTED", TAB]);
		expect(s.manager.reject(TAB)).toBe(false);
	});

	it("an IDE client's openDiff hears no reason: its view is told so, and the answer is DIFF_REJECTED and the tab name as always", async () => {
		const s = setup();
		const { answer } = await open(s);
		expect(s.port.views.get(TAB)?.hearsReason).toBe(false);
		expect(s.manager.reject(TAB, undefined, "not like this")).toBe(true);
		expect(await answer).toEqual({
			content: [
				{ type: "text", text: "DIFF_REJECTED" },
				{ type: "text", text: TAB },
			],
		});
	});

	it("counts closing the view as a rejection", async () => {
		const s = setup();
		const { answer } = await open(s);
		const shown = s.port.views.get(TAB);
		s.manager.viewClosed(TAB, shown?.id ?? -1);
		expect(texts(await answer)).toEqual(["DIFF_REJECTED", TAB]);
	});

	it("resolves the first request as rejected when the same tab name is opened again, and reuses the view", async () => {
		const s = setup();
		const first = await open(s);
		const firstReview = s.port.views.get(TAB);
		const second = await open(s, request(TAB, "second proposal"));
		await waitUntil(
			() => s.port.views.get(TAB)?.after === "second proposal",
			"the second proposal to replace the first",
		);
		expect(texts(await first.answer)).toEqual(["DIFF_REJECTED", TAB]);
		expect(s.port.closed).toEqual([]);
		// A late close of the replaced view must not decide the new review.
		s.manager.viewClosed(TAB, firstReview?.id ?? -1);
		expect(s.manager.findPending(TAB)?.after).toBe("second proposal");
		s.manager.accept(TAB);
		expect(texts(await second.answer)).toEqual(["FILE_SAVED", "second proposal"]);
	});

	it("rejects and closes a client's pending reviews when its signal aborts (disconnect), leaving others", async () => {
		const s = setup();
		const mine = await open(s, request("mine"), 1);
		const theirs = await open(s, request("theirs"), 2);
		mine.controller.abort();
		expect(texts(await mine.answer)).toEqual(["DIFF_REJECTED", "mine"]);
		expect(s.port.closed).toEqual(["mine"]);
		expect(s.manager.list().map((info) => info.title)).toEqual(["theirs"]);
		s.manager.reject("theirs");
		await theirs.answer;
	});

	it("close_tab rejects a pending review and succeeds again when the view is already gone", async () => {
		const s = setup();
		const { answer } = await open(s);
		s.manager.closeTab(TAB);
		expect(texts(await answer)).toEqual(["DIFF_REJECTED", TAB]);
		s.manager.closeTab(TAB);
		s.manager.closeTab("never opened");
		expect(s.port.refreshed).toEqual([]);
	});

	it("refreshes the note once when the CLI closes the tab after an accept", async () => {
		const s = setup();
		const { answer } = await open(s);
		s.manager.accept(TAB);
		await answer;
		s.manager.closeTab(TAB);
		s.manager.closeTab(TAB);
		expect(s.port.refreshed).toEqual(["note.md"]);
	});

	it("closeAllDiffTabs closes only the caller's reviews and leftover review views, never another client's", async () => {
		const s = setup();
		const mine = await open(s, request("mine"), 1);
		const theirs = await open(s, request("theirs"), 2);
		s.port.leftovers.add("from last run");
		expect(s.manager.closeAll(1)).toBe(2);
		expect(texts(await mine.answer)).toEqual(["DIFF_REJECTED", "mine"]);
		expect(s.port.closed.sort()).toEqual(["from last run", "mine"]);
		expect(s.manager.findPending("theirs")).toBeDefined();
		expect(s.manager.closeAll(1)).toBe(0);
		s.manager.reject("theirs");
		await theirs.answer;
	});

	it("shows a note that does not exist yet as new, with an empty original", async () => {
		const s = setup();
		const { answer } = await open(s, request(TAB, "Brand new.\n", join(vault, "Inbox", "new.md")));
		expect(s.port.views.get(TAB)).toMatchObject({
			isNewFile: true,
			before: "",
			note: { relative: "Inbox/new.md" },
		});
		s.manager.reject(TAB);
		await answer;
	});

	it("shows an empty proposal as removing everything and answers it only when the user accepts it", async () => {
		const s = setup();
		const { answer } = await open(s, request(TAB, ""));
		expect(s.port.views.get(TAB)).toMatchObject({ after: "", before: "# Note\n\nOld text.\n" });
		s.manager.reject(TAB);
		expect(texts(await answer)).toEqual(["DIFF_REJECTED", TAB]);
	});

	it("refuses paths outside the vault with an error result and no view", async () => {
		const s = setup();
		const outside = join(temp.path, "secret.md");
		const result = await s.openDiff(request(TAB, "x", outside), context().context);
		expect(result.isError).toBe(true);
		expect(texts(result)[0]).toMatch(/Path is outside the vault/);
		expect(s.port.views.size).toBe(0);
	});

	it("refuses more than the limit of pending reviews per client with a clear error", async () => {
		const s = setup(2);
		const first = await open(s, request("one"));
		const second = await open(s, request("two"));
		const third = await s.openDiff(request("three"), context(1).context);
		expect(third.isError).toBe(true);
		expect(texts(third)).toEqual([expect.stringMatching(/already has 2 edits waiting for review/)]);
		const otherClient = await open(s, request("four"), 2);
		expect(s.manager.list()).toHaveLength(3);
		s.manager.closeAll(1);
		s.manager.closeAll(2);
		await Promise.all([first.answer, second.answer, otherClient.answer]);
	});

	it("answers an error (so the terminal prompt decides) when the view cannot be shown", async () => {
		const s = setup();
		s.port.failNextShow = new Error("no workspace");
		const result = await s.openDiff(request(), context().context);
		expect(result.isError).toBe(true);
		expect(texts(result)[0]).toMatch(/Could not show the review in Obsidian: no workspace/);
		expect(s.manager.list()).toEqual([]);
	});

	it("hands pending reviews back to the terminal when reviewing is turned off", async () => {
		const s = setup();
		const { answer } = await open(s);
		s.manager.withdrawAll("turned off");
		expect(await answer).toEqual({ isError: true, content: [{ type: "text", text: "turned off" }] });
		expect(s.port.closed).toEqual([TAB]);
	});

	it("lists pending reviews with path, session, time and sizes", async () => {
		const s = setup();
		const { answer } = await open(s);
		const [info] = s.manager.list();
		expect(info).toMatchObject({
			title: TAB,
			note: "note.md",
			session: 1,
			beforeChars: 18,
			afterChars: 18,
			isNewFile: false,
		});
		expect(Number.isNaN(Date.parse(info?.since ?? ""))).toBe(false);
		expect(s.manager.findPending()?.title).toBe(TAB);
		s.manager.dispose();
		expect(texts(await answer)).toEqual(["DIFF_REJECTED", TAB]);
	});

	it("refuses an Accept whose note's folder was replaced by a link meanwhile: an error answer, never FILE_SAVED", async () => {
		mkdirSync(join(vault, "Moving"));
		writeFileSync(join(vault, "Moving", "n.md"), "# N\n");
		const outside = join(temp.path, "outside");
		mkdirSync(outside);
		const s = setup();
		const tab = "✻ [Claude Code] n.md (race) ⧉";
		const { answer } = await open(s, request(tab, "# N\nmore\n", join(vault, "Moving", "n.md")));
		renameSync(join(vault, "Moving"), join(temp.path, "Moving-away"));
		symlinkSync(outside, join(vault, "Moving"));
		expect(s.manager.accept(tab)).toEqual({
			kind: "refused",
			reason: "Moving/n.md was not saved: a folder on its path was replaced by a link leading out of the vault after the review opened",
		});
		const result = await answer;
		expect(result.isError).toBe(true);
		expect(texts(result)).not.toContain("FILE_SAVED");
		expect(s.port.closed).toEqual([tab]);
		expect(s.manager.findPending(tab)).toBeUndefined();
	});
});
