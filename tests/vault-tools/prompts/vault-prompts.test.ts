import { JsonRpcError } from "../../../src/protocol/json-rpc";
import { VaultPrompts } from "../../../src/vault-tools/prompts/vault-prompts";
import { createReadNoteTool } from "../../../src/vault-tools/tools/read-note";
import { toolOver } from "../tools/vault-tool-env";

const vault = toolOver(
	createReadNoteTool,
	{
		"Claude prompts/Summarise note.md":
			"---\ndescription: Summarise a note\narguments:\n  - name: note\n    description: which note\n    required: true\n  - tone\n  - bad name!\n---\n\nSummarise {{note}} in a {{ tone }} tone. Keep {{other}}.\n",
		"Claude prompts/Plain.md": "Just text.\n",
		"Claude prompts/Sub/Plain.md": "Another plain.\n",
		"Claude prompts/Secret.md": "secret prompt\n",
		"Elsewhere.md": "not a prompt\n",
	},
	{ isPrivate: (path) => path.endsWith("Secret.md") },
);
afterAll(() => vault.dispose());
const prompts = new VaultPrompts(vault.env.vault, () => " /Claude prompts/ ");

describe("VaultPrompts", () => {
	it("lists the prompts folder's visible notes by file name, with descriptions and arguments", async () => {
		expect(await prompts.list({})).toEqual({
			prompts: [
				{ name: "Plain", description: "Prompt from the note Claude prompts/Plain.md" },
				{ name: "Plain-2", description: "Prompt from the note Claude prompts/Sub/Plain.md" },
				{
					name: "Summarise-note",
					description: "Summarise a note",
					arguments: [{ name: "note", description: "which note", required: true }, { name: "tone" }],
				},
			],
		});
	});

	it("fills in the given arguments, blanks declared ones not given, and leaves others as written", async () => {
		expect(await prompts.get({ name: "Summarise-note", arguments: { note: "[[Plan]]" } })).toEqual({
			description: "Summarise a note",
			messages: [
				{ role: "user", content: { type: "text", text: "Summarise [[Plan]] in a  tone. Keep {{other}}.\n" } },
			],
		});
	});

	it("refuses a missing required argument, an unknown or private prompt, and a bad cursor", async () => {
		await expect(prompts.get({ name: "Summarise-note" })).rejects.toThrow('Prompt "Summarise-note" needs "note"');
		await expect(prompts.get({ name: "Secret" })).rejects.toThrow(
			'Unknown prompt "Secret"; prompts/list names the prompts (notes in the "Claude prompts" folder)',
		);
		await expect(prompts.get({})).rejects.toThrow(JsonRpcError);
		await expect(prompts.list({ cursor: "x" })).rejects.toThrow("Invalid cursor");
	});

	it("pages the list after 50 prompts", async () => {
		const files: Record<string, string> = {};
		for (let index = 0; index < 53; index++) files[`P/n${String(index).padStart(2, "0")}.md`] = "x\n";
		const many = toolOver(createReadNoteTool, files);
		try {
			const paged = new VaultPrompts(many.env.vault, () => "P");
			const first = await paged.list({});
			expect((first.prompts as unknown[]).length).toBe(50);
			expect(first.nextCursor).toBe("50");
			const second = await paged.list({ cursor: "50" });
			expect((second.prompts as { name: string }[]).map((prompt) => prompt.name)).toEqual(["n50", "n51", "n52"]);
			expect(second.nextCursor).toBeUndefined();
		} finally {
			many.dispose();
		}
	});
});
