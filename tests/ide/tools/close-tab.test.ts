import { createCloseTabTool } from "../../../src/ide/tools/close-tab";
import { createOpenDiffTool } from "../../../src/ide/tools/open-diff";
import { callTool } from "./ide-tool-fixture";
import { makeReviewSetup } from "./review-tool-fixture";

const setup = makeReviewSetup();
afterAll(() => setup.vault.remove());
const TAB_CLOSED = { content: [{ type: "text", text: "TAB_CLOSED" }] };

describe("close_tab", () => {
	it("rejects a review still pending, closes its view and answers TAB_CLOSED", async () => {
		const answer = callTool(createOpenDiffTool(setup.openDiff), setup.openDiffArgs("pending"));
		await setup.shown("pending");
		expect(await callTool(createCloseTabTool(setup.reviews), { tab_name: "pending" })).toEqual(TAB_CLOSED);
		expect((await answer).content[0]?.text).toBe("DIFF_REJECTED");
		expect(setup.port.views.has("pending")).toBe(false);
	});

	it("answers TAB_CLOSED for a tab that is not open, every time", async () => {
		const tool = createCloseTabTool(setup.reviews);
		expect(await callTool(tool, { tab_name: "never opened" })).toEqual(TAB_CLOSED);
		expect(await callTool(tool, { tab_name: "never opened" })).toEqual(TAB_CLOSED);
	});

	it("answers a missing or wrongly typed tab_name as an error result", async () => {
		const tool = createCloseTabTool(setup.reviews);
		expect(await callTool(tool, {})).toEqual({
			isError: true,
			content: [{ type: "text", text: 'close_tab: "tab_name" is required and must be a string' }],
		});
		expect((await callTool(tool, { tab_name: 7 })).content[0]?.text).toBe(
			'close_tab: "tab_name" is required and must be a string, not a number',
		);
	});
});
