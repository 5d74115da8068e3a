import { JsonRpcError } from "../../../src/protocol/json-rpc";
import { textResult, type ToolCallContext } from "../../../src/protocol/mcp-types";
import { folderAnswers, folderWritesUnavailable } from "../../../src/vault-tools/stdio/folder-answers";

const context = { sessionId: 1, signal: new AbortController().signal, journalId: "j1" } as ToolCallContext;

function answers(off: boolean) {
	const events: string[] = [];
	const served = folderAnswers({
		tools: [
			{
				name: "read_note",
				description: "",
				inputSchema: {},
				call: () => Promise.resolve(textResult("the note")),
			},
		],
		methods: new Map([["resources/list", () => Promise.resolve({ resources: [] })]]),
		vaultName: "Vault",
		turnedOff: () => off,
		answering: (journalId) => events.push(`answering ${journalId ?? "-"}`),
		reading: () => events.push("reading"),
		answered: () => events.push("answered"),
	});
	return { served, events };
}

describe("folderAnswers", () => {
	it("answers from the folder, marking the call as answered here and the folder as read, then answered", async () => {
		const { served, events } = answers(false);
		expect(await served.tools[0]?.call({}, context)).toEqual(textResult("the note"));
		expect(await served.methods.get("resources/list")?.({}, context)).toEqual({ resources: [] });
		expect(events).toEqual(["answering j1", "reading", "answered", "answering j1", "reading", "answered"]);
	});

	it("refuses every call while the vault tools are turned off in the plugin, reading nothing", async () => {
		const { served, events } = answers(true);
		const refused = await served.tools[0]?.call({}, context);
		expect(refused?.isError).toBe(true);
		expect(refused?.content[0]?.text).toMatch(/^read_note: the vault tools are turned off .* "Vault"/);
		expect(() => served.methods.get("resources/list")?.({}, context)).toThrow(JsonRpcError);
		expect(events).toEqual(["answering j1", "answering j1"]);
	});

	it("says why writes are unavailable: no bridge, or a bridge refused for privacy", () => {
		expect(folderWritesUnavailable("Vault", "/v", false)).toMatch(
			/^Obsidian is not running for the vault "Vault" \(\/v\)/,
		);
		expect(folderWritesUnavailable("Vault", "/v", true)).toMatch(
			/^the bridge running for the vault "Vault" was not used/,
		);
	});
});
