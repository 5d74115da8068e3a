import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assembleHeadlessBridge, type HeadlessBridge } from "../../src/headless/headless-bridge";
import { makeTempDir } from "../helpers/temp-dir";
import { waitUntil } from "../helpers/wait-until";

interface ToolAnswer {
	content: { text: string }[];
	isError?: boolean;
}

describe("assembleBridge's vault tools", () => {
	const temp = makeTempDir("vault-tools-assembly");
	const vaultPath = join(temp.path, "vault");
	let review = true;
	let headless: HeadlessBridge;

	beforeAll(() => {
		mkdirSync(join(vaultPath, "Private"), { recursive: true });
		writeFileSync(join(vaultPath, "Note.md"), "# Note\n\nfirst line\nsecond line\n");
		writeFileSync(join(vaultPath, "Private/Hidden.md"), "# Hidden\n");
		writeFileSync(join(vaultPath, "Diary.md"), "Dear diary %% #private %%\n");
		headless = assembleHeadlessBridge({
			vaultPath,
			ideName: "assembly test",
			homeDir: join(temp.path, "home"),
			port: 0,
			privacyRules: () => ({ folders: ["Private"], tags: ["private"] }),
			log: () => undefined,
			reviewVaultToolWrites: () => review,
		});
	});

	afterAll(() => {
		headless?.dispose();
		temp.remove();
	});

	async function call(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
		const server = headless.bridge.vaultTools;
		if (!server) throw new Error("no vault tools");
		return (
			await server.request(
				"tools/call",
				{ name, arguments: args },
				{ sessionId: 3, signal: new AbortController().signal },
			)
		).parse() as ToolAnswer;
	}

	it("reads the review switch at each write: off applies at once, on waits for the review", async () => {
		review = false;
		const direct = await call("edit_note", {
			path: "Note",
			edits: [{ target: { oldText: "first line" }, op: "replace", content: "first line, edited" }],
		});
		expect(direct.content[0]?.text).toMatch(/^Applied 1 edit to Note\.md/);
		expect(headless.bridge.reviews.list()).toEqual([]);
		expect(readFileSync(join(vaultPath, "Note.md"), "utf8")).toContain("first line, edited");

		review = true;
		const pending = call("edit_note", {
			path: "Note",
			edits: [{ target: { oldText: "second line" }, op: "delete", content: "" }],
		});
		await waitUntil(() => headless.bridge.reviews.list().length === 1, "the review");
		const [info] = headless.bridge.reviews.list();
		expect(info).toMatchObject({
			note: "Note.md",
			session: 0,
			title: expect.stringMatching(/^Vault tools #\d+: edit_note Note\.md$/) as unknown,
		});
		headless.bridge.reviews.reject(info?.title ?? "");
		expect((await pending).content[0]?.text).toMatch(/rejected/);
		expect(readFileSync(join(vaultPath, "Note.md"), "utf8")).toContain("second line");
	});

	it("create_note onto a private note: the review shows why it cannot be made, and even an accept answers Claude as a Reject", async () => {
		review = true;
		const free = call("create_note", { path: "Free.md", content: "# Mine\n" });
		await waitUntil(() => headless.bridge.reviews.list().length === 1, "the review of the free path");
		headless.bridge.reviews.reject(headless.bridge.reviews.list()[0]?.title ?? "");
		const freeAnswer = (await free).content[0]?.text ?? "";

		const taken = call("create_note", { path: "Diary.md", content: "# Mine\n" });
		await waitUntil(() => headless.bridge.reviews.list().length === 1, "the review of the taken path");
		const pending = headless.bridge.reviews.findPending();
		expect(pending).toMatchObject({
			isNewFile: true,
			before: "",
			cannotApply: expect.stringMatching(/^A note the vault tools cannot show/) as unknown,
		});
		headless.bridge.reviews.accept(pending?.title ?? "");
		expect((await taken).content[0]?.text?.replace("Diary.md", "X")).toBe(freeAnswer.replace("Free.md", "X"));
		expect(freeAnswer).toMatch(/^Not created: the user rejected the change in the review/);
		expect(readFileSync(join(vaultPath, "Diary.md"), "utf8")).toBe("Dear diary %% #private %%\n");
	});

	it("active_note follows the editor's selection, and says nothing of a private note", async () => {
		headless.editor.select("Note.md", { line: 2, character: 0 }, { line: 2, character: 5 });
		expect((await call("active_note", {})).content[0]?.text).toBe(
			"Open: Note.md\nSelection: line 3, column 1 to line 3, column 6:\nfirst",
		);
		headless.editor.open("Private/Hidden.md");
		expect((await call("active_note", {})).content[0]?.text).toBe("No note is open.");
	});
});
