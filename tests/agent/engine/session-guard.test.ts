import { guardSettings, UNTRUSTED_GUARD } from "../../../src/agent/engine/session-guard";

describe("guardSettings", () => {
	it("hands nothing over for a guard with no sandbox and no deny rules", () => {
		expect(guardSettings(UNTRUSTED_GUARD)).toBeUndefined();
		expect(guardSettings({ projectConfigTrusted: true, denyRules: [] })).toBeUndefined();
	});

	it("turns the sandbox on with no way out for the model, holding the given places out of reads and writes", () => {
		expect(
			guardSettings({
				projectConfigTrusted: false,
				sandbox: { denyRead: ["/v/Secret"], denyWrite: ["/v/Secret", "/v/.claude"] },
			}),
		).toEqual({
			sandbox: {
				enabled: true,
				allowUnsandboxedCommands: false,
				filesystem: { denyRead: ["/v/Secret"], denyWrite: ["/v/Secret", "/v/.claude"] },
			},
		});
	});

	it("hands the deny rules over as Claude Code's permissions.deny", () => {
		expect(guardSettings({ projectConfigTrusted: false, denyRules: ["Read(./Secret/**)"] })).toEqual({
			permissions: { deny: ["Read(./Secret/**)"] },
		});
	});
});
