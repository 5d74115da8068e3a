import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import type { JsonRpcAnswer, TestClient } from "../helpers/test-client";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/**
 * Issue 11, findings 1, 2 and 3, as an attacker holding the token would try them against the headless host: a
 * private note or a hidden file reached through ANOTHER SPELLING of its path. A symbolic link inside the vault
 * to the private folder (`pub -> Secret`) or to the config folder (`cfg -> the config folder`), and a folder whose name
 * is stored in NFD while the rule is typed in NFC (Finder and HFS+ copies produce NFD names). Whatever the
 * spelling, the answer must be the one for a note that does not exist, and nothing may enter the diagnostics
 * index so that a later `getDiagnostics {}` lists it.
 */

const CAFE_NFC = "Caf\u00e9";
const CAFE_NFD = "Cafe\u0301";

const FILES: [string, string][] = [
	["Secret/diary.md", "# Real heading\nDIARY-SECRET-1234 and a link to [[diary-only-target]] ^realid\n"],
	[".vault-config/plugins/p/data.json", '{"apiKey":"sk-live-CONFIG-5678"}\n'],
	[".vault-config/snippets/leak.md", "CONFIG-NOTE-SECRET [[config-only-target]]\n"],
	[`${CAFE_NFD}/menu.md`, "NFD-SECRET-9012 [[nfd-only-target]]\n"],
	["Public/open.md", "A public note with [[a-public-broken-link]].\n"],
];
const SECRETS = [
	"DIARY-SECRET-1234",
	"sk-live-CONFIG-5678",
	"CONFIG-NOTE-SECRET",
	"NFD-SECRET-9012",
	"diary-only-target",
	"config-only-target",
	"nfd-only-target",
	"Real heading",
	"realid",
];

/** The private files as an attacker spells them; each must answer like `Public/missing.md`. */
const SPELLINGS = [
	"pub/diary.md",
	"cfg/plugins/p/data.json",
	"cfg/snippets/leak.md",
	`${CAFE_NFD}/menu.md`,
	`${CAFE_NFC}/menu.md`,
];
const MISSING = "Public/missing.md";

describe("another spelling of a private path (symbolic links, NFD) is as private as the path itself", () => {
	let fixture: AssembledBridge;
	let client: TestClient;

	beforeAll(async () => {
		fixture = await startAssembledBridge({
			debounceMs: 20,
			privacy: { folders: ["Secret", CAFE_NFC], tags: [] },
			populate: (vault) => {
				for (const [path, text] of FILES) {
					mkdirSync(dirname(join(vault, path)), { recursive: true });
					writeFileSync(join(vault, path), text);
				}
				symlinkSync(join(vault, "Secret"), join(vault, "pub"), "dir");
				symlinkSync(join(vault, ".vault-config"), join(vault, "cfg"), "dir");
			},
		});
		client = await fixture.client();
	}, FIXTURE_TIMEOUT_MS);

	afterAll(async () => {
		await fixture?.stop();
	});

	const absolute = (relative: string): string => join(fixture.vaultPath, ...relative.split("/"));
	const uri = (relative: string): string => pathToFileURL(absolute(relative)).href;
	const tool = (name: string, args: Record<string, unknown>): Promise<JsonRpcAnswer> =>
		client.request("tools/call", { name, arguments: args });
	/** The answer with every spelling of the asked path replaced, so a private and a missing path compare. */
	const masked = (answer: JsonRpcAnswer, relative: string): string => {
		let text = JSON.stringify({ result: answer.result, error: answer.error });
		for (const spelling of [uri(relative), absolute(relative), relative])
			text = text.split(JSON.stringify(spelling).slice(1, -1)).join("<PATH>");
		return text;
	};
	const leaks = (answer: unknown): string[] => SECRETS.filter((secret) => JSON.stringify(answer).includes(secret));

	it.each(SPELLINGS)(
		"getDiagnostics {uri: %s} answers as for a missing note, and the note never joins the whole-vault listing",
		async (spelling) => {
			const answer = await tool("getDiagnostics", { uri: uri(spelling) });
			const control = await tool("getDiagnostics", { uri: uri(MISSING) });
			expect(masked(answer, spelling)).toBe(masked(control, MISSING));
			const vault = await tool("getDiagnostics", {});
			expect(leaks(answer)).toEqual([]);
			expect(leaks(vault)).toEqual([]);
			// The public note's broken link is listed: the whole-vault answer is not simply empty.
			expect(JSON.stringify(vault)).toContain("a-public-broken-link");
		},
	);

	it.each(SPELLINGS)("files/read and resources/read of %s answer as for a missing file", async (spelling) => {
		for (const [method, params, control] of [
			["files/read", { path: spelling }, { path: MISSING }],
			["resources/read", { uri: uri(spelling) }, { uri: uri(MISSING) }],
		] as const) {
			const answer = await client.request(method, params);
			expect(leaks(answer)).toEqual([]);
			expect(masked(answer, spelling)).toBe(masked(await client.request(method, control), MISSING));
		}
	});

	it.each(SPELLINGS)(
		"openFile of %s, then the selection tools, reveal nothing; its startText is no oracle",
		async (spelling) => {
			const control = async (args: Record<string, unknown>): Promise<string> =>
				masked(await tool("openFile", { ...args, filePath: MISSING }), MISSING);
			for (const args of [
				{ startLine: 1, endLine: 100 },
				{ makeFrontmost: false },
				{ makeFrontmost: false, startText: SECRETS[0] },
				{ makeFrontmost: false, startText: "text that is in no note" },
			]) {
				const answer = await tool("openFile", { ...args, filePath: spelling });
				expect(leaks(answer)).toEqual([]);
				expect(masked(answer, spelling)).toBe(await control(args));
			}
			for (const name of ["getCurrentSelection", "getLatestSelection", "getOpenEditors"])
				expect(leaks(await tool(name, {}))).toEqual([]);
			for (const name of ["checkDocumentDirty", "saveDocument"]) {
				expect(masked(await tool(name, { filePath: spelling }), spelling)).toBe(
					masked(await tool(name, { filePath: MISSING }), MISSING),
				);
			}
			expect(leaks(client.notifications)).toEqual([]);
		},
	);

	it("resources/list lists the public note and none of the private ones under any spelling", async () => {
		const listed = await client.request("resources/list", {});
		const names = ((listed.result as { resources: { name: string }[] }).resources ?? []).map((resource) =>
			resource.name.normalize("NFC"),
		);
		expect(names).toContain("Public/open.md");
		expect(names.filter((name) => /diary|data\.json|leak|menu/.test(name))).toEqual([]);
	});
});
