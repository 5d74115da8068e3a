import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import { pause } from "../helpers/wait-until";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/** Notes whose private tag only a careful reader finds (the IDE tools' tag reader, see SECURITY.md). */
const TRICKY: Record<string, string> = {
	"Broken yaml.md": "---\ntags: [secret\n---\nzebra broken\n",
	"Capital key.md": "---\nTags: secret\n---\nzebra capital\n",
	"Duplicate key.md": "---\ntags: other\ntags: secret\n---\nzebra duplicate\n",
	"In comment.md": "zebra comment %% #secret %%\n",
	"Plain.md": "---\ntags: [secret]\n---\nzebra plain\n",
	"Public.md": "zebra public\n",
};

interface ToolAnswer {
	content: { text: string }[];
}

describe("the headless vault tools decide privacy as the IDE tools do", () => {
	let fixture: AssembledBridge;

	beforeAll(async () => {
		fixture = await startAssembledBridge({
			privacy: { tags: ["secret"] },
			populate: (root) => {
				for (const [path, text] of Object.entries(TRICKY)) {
					mkdirSync(dirname(join(root, path)), { recursive: true });
					writeFileSync(join(root, path), text);
				}
			},
		});
	}, FIXTURE_TIMEOUT_MS);

	afterAll(() => fixture?.stop());

	async function call(name: string, args: Record<string, unknown>): Promise<string> {
		const server = fixture.bridge.vaultTools;
		if (!server) throw new Error("no vault tools");
		const result = (
			await server.request(
				"tools/call",
				{ name, arguments: args },
				{ sessionId: 1, signal: new AbortController().signal },
			)
		).parse() as ToolAnswer;
		return result.content.map((block) => block.text).join("\n");
	}

	it("every note the IDE tools' tag reader calls private is missing from search and list_notes", async () => {
		const ideView = Object.keys(TRICKY).filter((path) => fixture.bridge.privacy.hides({ relative: path }));
		expect(ideView.sort()).toEqual([
			"Broken yaml.md",
			"Capital key.md",
			"Duplicate key.md",
			"In comment.md",
			"Plain.md",
		]);
		expect(await call("search", { query: "zebra" })).toMatch(/^Public\.md:1: zebra public\n/);
		expect(await call("search", { query: "zebra" })).not.toMatch(/broken|capital|duplicate|comment|plain/);
		expect(await call("list_notes", {})).toMatch(/^Public\.md\n/);
	});

	it("a note tagged private after a first call disappears on the next", async () => {
		expect(await call("search", { query: "later" })).toMatch(/^No matches/);
		writeFileSync(join(fixture.vaultPath, "Later.md"), "later text\n");
		await expect(
			askUntil(
				() => call("search", { query: "later" }),
				(answer) => answer.includes("Later.md"),
			),
		).resolves.toMatch(/^Later\.md:1: later text/);
		writeFileSync(join(fixture.vaultPath, "Later.md"), "---\nTags: secret\n---\nlater text, now private\n");
		await expect(
			askUntil(
				() => call("search", { query: "later" }),
				(answer) => !answer.includes("Later.md"),
			),
		).resolves.toMatch(/^No matches/);
	});
});

/** The folder index learns of a change from its watcher: ask again until the answer shows it (or give the last). */
async function askUntil(ask: () => Promise<string>, done: (answer: string) => boolean): Promise<string> {
	const deadline = Date.now() + 5000;
	for (;;) {
		const answer = await ask();
		if (done(answer) || Date.now() > deadline) return answer;
		await pause(10);
	}
}
