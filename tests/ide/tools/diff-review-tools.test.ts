import { DiffReviewTools } from "../../../src/ide/tools/diff-review-tools";
import { ToolRegistry } from "../../../src/protocol/tool-registry";
import { callTool } from "./ide-tool-fixture";
import { makeReviewSetup } from "./review-tool-fixture";

const setup = makeReviewSetup();
afterAll(() => setup.vault.remove());

describe("DiffReviewTools", () => {
	it("lists and unlists openDiff, close_tab and closeAllDiffTabs together, telling the registry's listeners", () => {
		const registry = new ToolRegistry();
		let changes = 0;
		registry.onChange(() => changes++);
		const tools = new DiffReviewTools(registry, setup.openDiff);
		expect(tools.enabled).toBe(false);
		tools.setEnabled(true);
		expect(registry.list().map((tool) => tool.name)).toEqual(["openDiff", "close_tab", "closeAllDiffTabs"]);
		expect(tools.enabled).toBe(true);
		tools.setEnabled(true);
		expect(changes).toBe(3);
		tools.setEnabled(false);
		expect(registry.list()).toEqual([]);
		expect(tools.enabled).toBe(false);
	});

	it("hands pending reviews back to the terminal when turned off", async () => {
		const registry = new ToolRegistry();
		const tools = new DiffReviewTools(registry, setup.openDiff);
		tools.setEnabled(true);
		const openDiff = registry.find("openDiff");
		if (!openDiff) throw new Error("openDiff is not listed");
		const answer = callTool(openDiff, setup.openDiffArgs("pending"));
		await setup.shown("pending");
		tools.setEnabled(false);
		expect(await answer).toEqual({
			isError: true,
			content: [
				{ type: "text", text: "Reviewing edits in Obsidian was turned off; answer in the terminal instead." },
			],
		});
		expect(setup.port.views.has("pending")).toBe(false);
		expect(setup.reviews.findPending("pending")).toBeUndefined();
	});

	it("does not unlist another tool that took one of its names", () => {
		const registry = new ToolRegistry();
		const tools = new DiffReviewTools(registry, setup.openDiff);
		const other = {
			name: "openDiff",
			description: "someone else's",
			inputSchema: {},
			call: () => Promise.resolve({ content: [] }),
		};
		registry.register(other);
		expect(tools.enabled).toBe(false);
		tools.setEnabled(false);
		expect(registry.find("openDiff")).toBe(other);
	});
});
