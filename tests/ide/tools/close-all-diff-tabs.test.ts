import { createCloseAllDiffTabsTool } from "../../../src/ide/tools/close-all-diff-tabs";
import { createOpenDiffTool } from "../../../src/ide/tools/open-diff";
import { callTool } from "./ide-tool-fixture";
import { makeReviewSetup } from "./review-tool-fixture";

const setup = makeReviewSetup();
afterAll(() => setup.vault.remove());

describe("closeAllDiffTabs", () => {
	it("closes only the calling session's reviews and counts them", async () => {
		const openDiff = createOpenDiffTool(setup.openDiff);
		const mine = [
			callTool(openDiff, setup.openDiffArgs("mine 1"), 1),
			callTool(openDiff, setup.openDiffArgs("mine 2"), 1),
		];
		const theirs = callTool(openDiff, setup.openDiffArgs("theirs"), 2);
		await Promise.all([setup.shown("mine 1"), setup.shown("mine 2"), setup.shown("theirs")]);

		const closeAll = createCloseAllDiffTabsTool(setup.reviews);
		expect(await callTool(closeAll, {}, 1)).toEqual({ content: [{ type: "text", text: "CLOSED_2_DIFF_TABS" }] });
		for (const answer of mine) expect((await answer).content[0]?.text).toBe("DIFF_REJECTED");
		expect([...setup.port.views.keys()]).toEqual(["theirs"]);
		expect(await callTool(closeAll, {}, 1)).toEqual({ content: [{ type: "text", text: "CLOSED_0_DIFF_TABS" }] });

		setup.reviews.reject("theirs");
		await theirs;
	});
});
