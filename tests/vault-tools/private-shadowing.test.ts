import type { JsonObject } from "../../src/protocol/json-rpc";
import { ADAPTERS, type ServedVault } from "./private-served-vault";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/**
 * Issue 14: link resolution ignores private notes, so a private note never shadows a public one of the same name.
 * Obsidian resolves `[[Plan]]` to the note beside the linking one, else the shortest path: a private `Plan` there
 * made the public `Projects/Plan.md` unreachable by name (unresolved link, `read_note "Plan"` failing), which told
 * the private note exists. The vault with the private notes must answer exactly as the vault without them.
 */
const PUBLIC: Record<string, string> = {
	"Projects/Plan.md": "# Public plan\n\nThe plan everyone may read.\n",
	"Ideas/Deep/Idea.md": "# Public idea\n",
	"Notes/Hub.md": "See [[Plan]], [[Plan#Public plan]] and [plan](Plan.md).\n",
	"Top.md": "Root links [[Plan]], [[Idea]] and ![[Idea]].\n",
};
const PRIVATE: Record<string, string> = {
	// Beside Notes/Hub.md, and shorter than Projects/Plan.md from the root: Obsidian would pick it first.
	"Notes/Plan.md": "#private\n# Private plan\n\nSECRET-PLAN\n",
	// In a private folder, shorter than Ideas/Deep/Idea.md.
	"Secret/Idea.md": "# Private idea\n\nSECRET-IDEA\n",
};
const RULES = { folders: ["Secret"], tags: ["private"] };

const CALLS: [string, JsonObject][] = [
	["read_note", { path: "Plan" }],
	["read_note", { path: "[[Idea]]" }],
	["outline", { path: "Plan" }],
	["links", { path: "Notes/Hub.md" }],
	["links", { path: "Top.md" }],
	["links", { path: "Top.md", unresolved: true }],
	["links", { path: "Projects/Plan.md", direction: "in" }],
	["links", { path: "Ideas/Deep/Idea.md", direction: "in" }],
	["search", { query: "Plan", mode: "path" }],
];

describe.each(ADAPTERS)("a private note never shadows a public one: the vault tools over %s", (_name, serve) => {
	let withPrivate: ServedVault;
	let without: ServedVault;
	beforeAll(async () => {
		withPrivate = await serve({ ...PUBLIC, ...PRIVATE }, RULES);
		without = await serve(PUBLIC, RULES);
	}, FIXTURE_TIMEOUT_MS);
	afterAll(() => {
		withPrivate?.dispose();
		without?.dispose();
	});

	it.each(CALLS)("%s %j answers as in the vault without the private notes", async (name, args) => {
		const answer = await withPrivate.call(name, args);
		expect(answer).toEqual(await without.call(name, args));
		expect(answer.text).not.toMatch(/SECRET|Private plan|Private idea|Notes\/Plan|Secret\//);
	});

	it("resolves the links to the public notes (the comparison above is not between two failures)", async () => {
		expect((await withPrivate.call("read_note", { path: "Plan" })).text).toMatch(/^Projects\/Plan\.md \|/);
		expect((await withPrivate.call("links", { path: "Top.md", unresolved: true })).text).toBe(
			"Top.md: 0 outgoing unresolved\n(0 links)",
		);
		expect((await withPrivate.call("links", { path: "Projects/Plan.md", direction: "in" })).text).toMatch(
			/4 backlinks from 2 notes/,
		);
	});
});
