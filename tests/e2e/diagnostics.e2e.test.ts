import path from "node:path";
import { useBridgeSessions, waitUntilConnected } from "./harness/bridge-session";
import { messagesOf, requestText, textsOf } from "./harness/messages-request";
import { textTurn, toolUseTurn } from "./harness/sse-reply";

const sessions = useBridgeSessions();

describe("getDiagnostics through the real CLI", () => {
	it("the model calls mcp__ide__getDiagnostics and receives the broken-link diagnostic of a note", async () => {
		const session = await sessions.start({
			notes: { "Projects/plan.md": "# Plan\n\nSee [[Missing note]] first.\n", "Projects/ok.md": "# Fine\n" },
			cliArgs: ["--ide", "--allowedTools", "mcp__ide__getDiagnostics"],
		});
		const { cli, mock, vault } = session;
		const notePath = path.join(vault, "Projects", "plan.md");
		mock.enqueue(
			toolUseTurn("mcp__ide__getDiagnostics", { uri: `file://${notePath}` }),
			textTurn("One broken link."),
		);
		await waitUntilConnected(session);
		await cli.prompt("Check my plan note for problems");
		const followUp = await mock.waitForMainRequest({ since: 1 });
		const toolResult = textsOf(messagesOf(followUp.body).at(-1)).join("\n");
		const diagnostics = JSON.parse(toolResult.slice(toolResult.indexOf("["))) as {
			uri: string;
			diagnostics: { message: string; code: string; range: { start: { line: number; character: number } } }[];
		}[];
		expect(diagnostics).toEqual([
			{
				uri: `file://${notePath}`,
				diagnostics: [
					expect.objectContaining({
						code: "unresolved-link",
						source: "Obsidian",
						severity: "Warning",
						range: { start: { line: 2, character: 4 }, end: { line: 2, character: 20 } },
					}),
				],
			},
		]);
		expect(diagnostics[0]?.diagnostics[0]?.message).toContain("Missing note");
		await cli.waitFor("One broken link.");
	});

	it("after an edit that breaks a link, the next model request carries the new diagnostic", async () => {
		const session = await sessions.start({
			notes: { "note.md": "# Note\n\nLinks to [[Other]].\n", "Other.md": "# Other\n" },
			cliArgs: ["--ide", "--permission-mode", "acceptEdits"],
		});
		const { cli, mock, vault } = session;
		const notePath = path.join(vault, "note.md");
		mock.enqueue(
			toolUseTurn("Read", { file_path: notePath }),
			toolUseTurn("Edit", { file_path: notePath, old_string: "[[Other]]", new_string: "[[Gone]]" }),
			textTurn("Done."),
		);
		await waitUntilConnected(session);
		await cli.prompt("Change the link");
		await cli.waitFor("Done.");
		await cli.prompt("Anything new?");
		const next = await mock.waitForMainRequest({ since: 3 });
		const text = requestText(next.body);
		expect(text).toContain("<new-diagnostics>");
		expect(text).toMatch(/\[Line 3:10\] [^\n]*Gone[^\n]* \[unresolved-link\] \(Obsidian\)/);
	});
});
