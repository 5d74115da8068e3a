import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { createGetWorkspaceFoldersTool } from "../../../src/ide/tools/get-workspace-folders";
import { callTool, jsonOf, makeToolVault } from "./ide-tool-fixture";

const vault = makeToolVault();
afterAll(() => vault.remove());

describe("getWorkspaceFolders", () => {
	it("answers the vault as the one workspace folder, named as given", async () => {
		expect(
			jsonOf(await callTool(createGetWorkspaceFoldersTool({ paths: vault.paths, vaultName: "My Vault" }))),
		).toEqual({
			success: true,
			folders: [{ name: "My Vault", uri: pathToFileURL(vault.root).href, path: vault.root }],
			rootPath: vault.root,
		});
	});

	it("names the folder after the vault's folder when no name is given", async () => {
		const answer = jsonOf(await callTool(createGetWorkspaceFoldersTool({ paths: vault.paths }))) as {
			folders: { name: string }[];
		};
		expect(answer.folders.map((folder) => folder.name)).toEqual([basename(vault.root)]);
	});
});
