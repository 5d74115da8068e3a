import { createOpenDiffTool } from "../../../src/ide/tools/open-diff";
import { callTool } from "./ide-tool-fixture";
import { makeReviewSetup } from "./review-tool-fixture";

const setup = makeReviewSetup();
afterAll(() => setup.vault.remove());

describe("openDiff", () => {
	it("shows the proposal and answers FILE_SAVED with the accepted text", async () => {
		const tool = createOpenDiffTool(setup.openDiff);
		const answer = callTool(tool, setup.openDiffArgs("tab-accept"));
		await setup.shown("tab-accept");
		expect(setup.port.views.get("tab-accept")).toMatchObject({
			before: "# Note\n\nOld text.\n",
			after: "# Note\n\nNew text.\n",
		});
		setup.reviews.accept("tab-accept", "# Note\n\nEdited.\n");
		expect(await answer).toEqual({
			content: [
				{ type: "text", text: "FILE_SAVED" },
				{ type: "text", text: "# Note\n\nEdited.\n" },
			],
		});
	});

	it("answers DIFF_REJECTED and the tab name when the user rejects", async () => {
		const answer = callTool(createOpenDiffTool(setup.openDiff), setup.openDiffArgs("tab-reject"));
		await setup.shown("tab-reject");
		setup.reviews.reject("tab-reject");
		expect(await answer).toEqual({
			content: [
				{ type: "text", text: "DIFF_REJECTED" },
				{ type: "text", text: "tab-reject" },
			],
		});
	});

	it("answers a rejection with a reason exactly as one without: the CLI's answer has no place for the reason", async () => {
		const answer = callTool(createOpenDiffTool(setup.openDiff), setup.openDiffArgs("tab-reason"));
		await setup.shown("tab-reason");
		setup.reviews.reject("tab-reason", undefined, "keep the old wording");
		expect(await answer).toEqual({
			content: [
				{ type: "text", text: "DIFF_REJECTED" },
				{ type: "text", text: "tab-reason" },
			],
		});
	});

	it("answers each missing or wrongly typed argument as an error result and shows nothing", async () => {
		const tool = createOpenDiffTool(setup.openDiff);
		const args = setup.openDiffArgs("tab-bad");
		for (const name of ["old_file_path", "new_file_path", "new_file_contents", "tab_name"] as const) {
			const result = await callTool(tool, { ...args, [name]: null });
			expect(result).toEqual({
				isError: true,
				content: [{ type: "text", text: `openDiff: "${name}" is required and must be a string, not null` }],
			});
		}
		expect(setup.port.views.has("tab-bad")).toBe(false);
	});

	it("requires the four arguments of the CLI's call and nothing else", () => {
		expect(createOpenDiffTool(setup.openDiff).inputSchema).toMatchObject({
			required: ["old_file_path", "new_file_path", "new_file_contents", "tab_name"],
			additionalProperties: false,
		});
	});
});
