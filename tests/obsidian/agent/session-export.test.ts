import { Transcript } from "../../../src/agent/transcript/panel-transcript";
import { exportSession } from "../../../src/obsidian/agent/session-export";
import { App } from "../../__mocks__/obsidian";

describe("exportSession", () => {
	it("writes the transcript as a new note in the folder, named by time and first line, never over another note", async () => {
		const app = new App("/vault", "Vault");
		const transcript = new Transcript();
		transcript.apply({ kind: "user-message", message: { text: "What is [[A]]? #tag", attachments: [] } });
		transcript.apply({ kind: "text-delta", blockId: "x", text: "A note." });
		const now = new Date("2026-11-27T09:30:00Z");
		const first = await exportSession(
			app as never,
			"Logs/Claude/",
			transcript.entries,
			{ sessionId: "s", title: "What is [[A]]? #tag" },
			now,
		);
		const second = await exportSession(
			app as never,
			"Logs/Claude",
			transcript.entries,
			{ title: "What is [[A]]? #tag" },
			now,
		);
		expect(first).toBe("Logs/Claude/Claude 2026-11-27 09-30 What is A tag.md");
		expect(second).toBe("Logs/Claude/Claude 2026-11-27 09-30 What is A tag 2.md");
		const text = app.vault.contents.get(first) ?? "";
		// The user's words as written, but a link or embed in them is not made live (issue 26, finding 8).
		expect(text).toContain("> What is &#91;[A]]? #tag");
		expect(text).toContain("**Claude**\n\nA note.");
	});

	it("uses the default folder when none is set", async () => {
		const app = new App("/vault", "Vault");
		const path = await exportSession(app as never, "  ", [], { title: "" }, new Date("2026-01-02T03:04:00Z"));
		expect(path).toBe("Claude sessions/Claude 2026-01-02 03-04 Session.md");
	});
});
