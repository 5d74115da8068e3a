import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import type { TestClient } from "../helpers/test-client";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/**
 * Issue 11, finding 6: diagnostics of a PUBLIC note must not reveal anything about private notes it links into.
 * An attacker who can get a note with probing links into the vault (the model writes files with its own tools)
 * reads the diagnostics: whether `Secret/diary#Some heading` is reported would tell which headings, block ids
 * and notes exist in the private folder. The decision (SECURITY.md): a link into a private folder, or one that
 * resolves to a private note, is never checked, whatever the target holds or whether it exists.
 */

const PROBES = [
	"[[Secret/diary#Real heading]]",
	"[[Secret/diary#No such heading]]",
	"[[Secret/diary#^realid]]",
	"[[Secret/diary#^noid]]",
	"[[Secret/diary]]",
	"[[Secret/ghost]]",
	"[[Secret/ghost#Heading]]",
	"![[Secret/ghost.png]]",
	"[text](Secret/ghost.md)",
	"[[../Secret/ghost]]",
	"[[tagged#No such heading]]",
	"[[tagged#Real tagged heading]]",
	"[[.vault-config/ghost]]",
];
const CONTROL = "[[really-missing-public-note]]";

describe("links from a public note into private notes are reported the same whatever the private note holds", () => {
	let fixture: AssembledBridge;
	let client: TestClient;

	beforeAll(async () => {
		fixture = await startAssembledBridge({
			privacy: { folders: ["Secret"], tags: ["#private"] },
			populate: (vault) => {
				for (const [path, text] of [
					["Secret/diary.md", "# Real heading\ntext ^realid\n"],
					["Notes/tagged.md", "#private\n# Real tagged heading\n"],
					["Notes/probe.md", [...PROBES, CONTROL].join("\n") + "\n"],
				] as const) {
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

	it("reports the public control link and none of the probes", async () => {
		const answer = await client.request("tools/call", {
			name: "getDiagnostics",
			arguments: { uri: pathToFileURL(join(fixture.vaultPath, "Notes", "probe.md")).href },
		});
		const entries = JSON.parse((answer.result as { content: { text: string }[] }).content[0]?.text ?? "[]") as {
			diagnostics: { range: { start: { line: number } }; message: string }[];
		}[];
		const reported = (entries[0]?.diagnostics ?? []).map(
			(diagnostic) => `${[...PROBES, CONTROL][diagnostic.range.start.line] ?? "?"}: ${diagnostic.message}`,
		);
		expect(reported).toEqual([
			`${CONTROL}: Unresolved link: no note or file named or at "really-missing-public-note" in the vault`,
		]);
	});
});

/**
 * Issue 14: link resolution ignores private notes. A private `Plan` nearer than the public `Projects/Plan.md` made
 * `[[Plan#No such heading]]` go unchecked, while without it the link is checked against the public note: the
 * difference told that the private note exists. Links that lead to a public note once private notes are set aside
 * are checked against it, exactly as in the vault without the private notes.
 */
describe("a private note never shadows a public one in getDiagnostics", () => {
	const SHADOWED =
		["[[Plan#No such heading]]", "[[Plan#Public plan]]", "[[Plan]]", "[[Idea#Nope]]", "![[Idea]]"].join("\n") +
		"\n";
	const PUBLIC: [string, string][] = [
		["Projects/Plan.md", "# Public plan\n"],
		["Ideas/Deep/Idea.md", "# Public idea\n"],
		["Notes/probe.md", SHADOWED],
	];
	const PRIVATE: [string, string][] = [
		// Beside the probe: Obsidian picks it first.
		["Notes/Plan.md", "#private\n# Private plan\n"],
		// In a private folder, and shorter than the public one.
		["Secret/Idea.md", "# Nope\n"],
	];

	async function diagnosticsOfProbe(files: [string, string][]): Promise<string[]> {
		const fixture = await startAssembledBridge({
			privacy: { folders: ["Secret"], tags: ["#private"] },
			populate: (vault) => {
				for (const [path, text] of files) {
					mkdirSync(dirname(join(vault, path)), { recursive: true });
					writeFileSync(join(vault, path), text);
				}
			},
		});
		try {
			const client = await fixture.client();
			const answer = await client.request("tools/call", {
				name: "getDiagnostics",
				arguments: { uri: pathToFileURL(join(fixture.vaultPath, "Notes", "probe.md")).href },
			});
			const entries = JSON.parse((answer.result as { content: { text: string }[] }).content[0]?.text ?? "[]") as {
				diagnostics: { range: { start: { line: number } }; message: string }[];
			}[];
			return (entries[0]?.diagnostics ?? []).map(
				(diagnostic) => `${diagnostic.range.start.line}: ${diagnostic.message}`,
			);
		} finally {
			await fixture.stop();
		}
	}

	it("reports the links exactly as in the vault without the private notes", async () => {
		const without = await diagnosticsOfProbe(PUBLIC);
		expect(without).toEqual([
			'0: Heading not found: "Plan" has no heading "No such heading"',
			'3: Heading not found: "Idea" has no heading "Nope"',
		]);
		expect(await diagnosticsOfProbe([...PUBLIC, ...PRIVATE])).toEqual(without);
	}, 30_000);
});
