import { readdirSync, readFileSync } from "node:fs";
import { join, sep } from "node:path";
import { ACCEPT_WITHOUT_REVIEW } from "../../src/review/edit-proposal";

describe("ACCEPT_WITHOUT_REVIEW", () => {
	it("accepts every proposal exactly as proposed", async () => {
		const signal = new AbortController().signal;
		const proposer = { surface: "vault-tools", client: "Claude's vault tools", tool: "edit_note" } as const;
		expect(
			await ACCEPT_WITHOUT_REVIEW.propose({
				note: "a.md",
				before: "old",
				after: "new text\n",
				proposer,
				title: "a",
				hearsReason: true,
				signal,
			}),
		).toEqual({ kind: "accepted", text: "new text\n", edited: false });
		expect(
			await ACCEPT_WITHOUT_REVIEW.propose({
				note: "b.md",
				before: undefined,
				after: "",
				proposer,
				title: "b",
				hearsReason: true,
				signal,
			}),
		).toEqual({ kind: "accepted", text: "", edited: false });
	});
});

describe("the IDE's wire", () => {
	it("FILE_SAVED is written in one file of src/: the IDE's openDiff tool", () => {
		const root = join(__dirname, "..", "..", "src");
		const holders = readdirSync(root, { recursive: true, encoding: "utf8" })
			.filter((file) => file.endsWith(".ts"))
			.filter((file) => readFileSync(join(root, file), "utf8").includes("FILE_SAVED"));
		expect(holders.map((file) => file.split(sep).join("/"))).toEqual(["ide/tools/open-diff.ts"]);
	});
});
