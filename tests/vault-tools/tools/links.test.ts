import { createLinksTool } from "../../../src/vault-tools/tools/links";
import { toolOver } from "./vault-tool-env";

const tool = toolOver(
	createLinksTool,
	{
		"Hub.md": "# Hub\nSee [[Spoke]] and [[Ghost]].\nJump to [[#Hub]].\n",
		"Spoke.md": "Back to [[Hub]].\n",
		"Other.md": "Also [[Hub|the hub]] here.\n\nAnd [[Hub#Hub]] again.\n",
		"Private/Secret.md": "Secretly [[Hub]].\n",
	},
	{ isPrivate: (path) => path.startsWith("Private/") },
);
afterAll(() => tool.dispose());

describe("links", () => {
	it("lists outgoing links with where they lead, unresolved marked, and backlinks sorted by note and line", async () => {
		expect((await tool.call({ path: "Hub" })).text.split("\n")).toEqual([
			"Hub.md: 3 outgoing (1 unresolved), 3 backlinks from 2 notes",
			"out Hub.md:2: See [[Spoke]] and [[Ghost]]. | [[Spoke]] → Spoke.md",
			"out Hub.md:2: See [[Spoke]] and [[Ghost]]. | [[Ghost]] → UNRESOLVED",
			"out Hub.md:3: Jump to [[#Hub]]. | [[#Hub]] → Hub.md",
			"in Other.md:1: Also [[Hub|the hub]] here. | [[Hub|the hub]]",
			"in Other.md:3: And [[Hub#Hub]] again. | [[Hub#Hub]]",
			"in Spoke.md:1: Back to [[Hub]]. | [[Hub]]",
			"(total 6 links; showing 1-6)",
		]);
	});

	it("lists one direction, or only the unresolved outgoing links", async () => {
		expect((await tool.call({ path: "Hub", direction: "in" })).text.split("\n")[0]).toBe(
			"Hub.md: 3 backlinks from 2 notes",
		);
		expect((await tool.call({ path: "Hub", unresolved: true })).text.split("\n")).toEqual([
			"Hub.md: 1 outgoing unresolved",
			"out Hub.md:2: See [[Spoke]] and [[Ghost]]. | [[Ghost]] → UNRESOLVED",
			"(total 1 links; showing 1-1)",
		]);
	});

	it("never counts or shows a link from a private note", async () => {
		const answer = (await tool.call({ path: "Hub", direction: "in" })).text;
		expect(answer).not.toContain("Private");
		expect(answer).not.toContain("Secretly");
	});

	it("answers bad arguments as errors", async () => {
		expect((await tool.call({ path: "Hub", direction: "sideways" })).text).toBe(
			'links: "direction" must be in, out or both, not "sideways"',
		);
		expect((await tool.call({ path: "Hub", direction: "in", unresolved: true })).text).toBe(
			'links: "unresolved" lists outgoing links that lead nowhere; it cannot be combined with direction "in"',
		);
		expect((await tool.call({ path: "Hub", unresolved: "yes" })).text).toBe(
			'links: "unresolved" must be true or false, not a string',
		);
		expect((await tool.call({ direction: "in" })).isError).toBe(true);
	});
});
