import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import type { JsonRpcAnswer, TestClient } from "../helpers/test-client";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/**
 * Issue 11, finding 8, in message (timing is measured by tests/security/existence-timing.ts, not asserted in a test): an
 * attacker holding the token must not learn whether a private note or hidden file EXISTS. Every bridge method and
 * tool that takes a path answers a private note, a tag-private note, a hidden file, a missing note in a private
 * folder and a missing note elsewhere with the same words and the same error code.
 */

const FILES: [string, string][] = [
	["Secret/diary.md", "folder-private text\n"],
	["Notes/tagged.md", "---\ntags: [private]\n---\ntag-private text\n"],
	["Notes/inline.md", "inline #private/health text\n"],
	[".vault-config/plugins/p/data.json", '{"apiKey":"x"}\n'],
	["Notes/open.md", "public\n"],
];
const ASKED = [
	"Secret/diary.md",
	"Notes/tagged.md",
	"Notes/inline.md",
	".vault-config/plugins/p/data.json",
	"Secret/missing.md",
	"Notes/missing.md",
];

describe("private, hidden and missing answer alike", () => {
	let fixture: AssembledBridge;
	let client: TestClient;

	beforeAll(async () => {
		fixture = await startAssembledBridge({
			privacy: { folders: ["Secret"], tags: ["#private"] },
			populate: (vault) => {
				for (const [path, text] of FILES) {
					mkdirSync(dirname(join(vault, path)), { recursive: true });
					writeFileSync(join(vault, path), text);
				}
			},
		});
		client = await fixture.client();
	}, FIXTURE_TIMEOUT_MS);

	afterAll(async () => {
		await fixture?.stop();
	});

	const absolute = (relative: string): string => join(fixture.vaultPath, ...relative.split("/"));
	const uri = (relative: string): string => pathToFileURL(absolute(relative)).href;
	const masked = (answer: JsonRpcAnswer, relative: string): string => {
		let text = JSON.stringify({ result: answer.result, error: answer.error });
		for (const spelling of [uri(relative), absolute(relative), relative])
			text = text.split(JSON.stringify(spelling).slice(1, -1)).join("<PATH>");
		return text;
	};

	const calls: [string, (relative: string) => Promise<JsonRpcAnswer>][] = [
		["files/read (relative)", (relative) => client.request("files/read", { path: relative })],
		["files/read (absolute)", (relative) => client.request("files/read", { path: absolute(relative) })],
		["resources/read", (relative) => client.request("resources/read", { uri: uri(relative) })],
		[
			"openFile",
			(relative) =>
				client.request("tools/call", {
					name: "openFile",
					arguments: { filePath: relative, makeFrontmost: false },
				}),
		],
		[
			"getDiagnostics",
			(relative) => client.request("tools/call", { name: "getDiagnostics", arguments: { uri: uri(relative) } }),
		],
		[
			"checkDocumentDirty",
			(relative) =>
				client.request("tools/call", { name: "checkDocumentDirty", arguments: { filePath: relative } }),
		],
	];

	it.each(calls)("%s gives one answer for all of them", async (_what, call) => {
		const answers = new Map<string, string[]>();
		for (const relative of ASKED) {
			const answer = masked(await call(relative), relative);
			answers.set(answer, [...(answers.get(answer) ?? []), relative]);
		}
		expect([...answers.entries()].map(([answer, paths]) => `${paths.join(", ")} → ${answer}`)).toHaveLength(1);
	});

	it("the public note is still read (the answers above are not a blanket refusal)", async () => {
		const answer = await client.request("files/read", { path: "Notes/open.md" });
		expect((answer.result as { text?: string } | undefined)?.text).toBe("public\n");
	});
});
