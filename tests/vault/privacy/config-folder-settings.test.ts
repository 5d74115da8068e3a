import { parseConfigFolderSettings } from "../../../src/vault/privacy/config-folder-settings";

describe("parseConfigFolderSettings: one config folder's plugin settings, failing closed", () => {
	it("reads the privacy keys, the vault tools' switch and prompts folder as the plugin stores them", () => {
		const data = JSON.stringify({
			privateFolders: ["Secret", 4, " "],
			privateTags: ["#private"],
			vaultTools: { enabled: false, promptsFolder: " Prompts " },
			fixedPort: 1234,
		});
		expect(parseConfigFolderSettings(".vault-config", { data, app: undefined })).toEqual({
			kind: "read",
			folders: ["Secret"],
			tags: ["#private"],
			excluded: [],
			vaultToolsOff: true,
			promptsFolder: "Prompts",
		});
		expect(parseConfigFolderSettings(".vault-config", { data: "{}", app: undefined })).toEqual({
			kind: "read",
			folders: [],
			tags: [],
			excluded: [],
			vaultToolsOff: false,
		});
	});

	it("has nothing to say for a folder without the plugin's settings", () => {
		expect(parseConfigFolderSettings(".git", { data: undefined, app: undefined })).toEqual({ kind: "absent" });
	});

	it("adds the excluded files from app.json only with the plugin's switch on, and fails closed when it is on and app.json cannot be read", () => {
		const data = JSON.stringify({ excludedFilesArePrivate: true });
		expect(
			parseConfigFolderSettings(".vault-config", {
				data,
				app: JSON.stringify({ userIgnoreFilters: ["Archive/"] }),
			}),
		).toMatchObject({ kind: "read", excluded: ["Archive"] });
		expect(
			parseConfigFolderSettings(".vault-config", {
				data: "{}",
				app: JSON.stringify({ userIgnoreFilters: ["Archive/"] }),
			}),
		).toMatchObject({ kind: "read", excluded: [] });
		expect(
			parseConfigFolderSettings(".vault-config", { data, app: { error: ".vault-config/app.json: EACCES" } }),
		).toEqual({ kind: "unreadable", detail: ".vault-config/app.json: EACCES" });
		expect(parseConfigFolderSettings(".vault-config", { data, app: "[]" })).toEqual({
			kind: "unreadable",
			detail: ".vault-config/app.json: not a JSON object",
		});
	});

	it("names the file and the problem when the settings are not what the plugin writes", () => {
		expect(parseConfigFolderSettings(".cfg", { data: "{", app: undefined })).toMatchObject({
			kind: "unreadable",
			detail: expect.stringMatching(
				/^\.cfg\/plugins\/claude-code-bridge\/data\.json: not valid JSON \(.+\)$/,
			) as unknown,
		});
		expect(parseConfigFolderSettings(".cfg", { data: "[]", app: undefined })).toEqual({
			kind: "unreadable",
			detail: ".cfg/plugins/claude-code-bridge/data.json: not a JSON object",
		});
		expect(
			parseConfigFolderSettings(".cfg", { data: JSON.stringify({ privateFolders: null }), app: undefined }),
		).toEqual({
			kind: "unreadable",
			detail: '.cfg/plugins/claude-code-bridge/data.json: "privateFolders" is not a list of folders',
		});
	});
});
