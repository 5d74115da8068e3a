import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FolderVault } from "../../../src/vault/folder/folder-vault";
import { FolderReading, warmFolder, WARM_UP_DONE } from "../../../src/vault-tools/stdio/folder-reading";
import { makeTempDir } from "../../helpers/temp-dir";
import { waitUntil } from "../../helpers/wait-until";

function vault(notes: number) {
	const temp = makeTempDir("folder-reading");
	mkdirSync(join(temp.path, "Sub"));
	for (let note = 0; note < notes; note++) writeFileSync(join(temp.path, "Sub", `n${note}.md`), `# ${note}\n#tag\n`);
	const folder = new FolderVault({ root: temp.path, watch: false, log: () => undefined });
	return {
		folder,
		remove: () => {
			folder.dispose();
			temp.remove();
		},
	};
}

describe("FolderReading", () => {
	it("reads every note once when no bridge answers and this session holds the folder", async () => {
		const { folder, remove } = vault(3);
		const logs: string[] = [];
		let claims = 0;
		const reading = new FolderReading({
			folder,
			host: { isHost: false, claim: () => Promise.resolve(++claims > 0) },
			relay: { current: () => Promise.resolve(undefined) },
			tagRules: () => true,
			log: (message) => logs.push(message),
		});
		try {
			await waitUntil(() => logs.some((line) => line.startsWith(WARM_UP_DONE)), "the warm-up");
			expect(logs).toEqual([expect.stringMatching(new RegExp(`^${WARM_UP_DONE}: read 3 notes in \\d+ ms$`))]);
			reading.reading();
			await new Promise((resolve) => setTimeout(resolve, 20));
			expect(logs).toHaveLength(1);
		} finally {
			reading.dispose();
			remove();
		}
	});

	it("reads nothing while a bridge answers", async () => {
		const { folder, remove } = vault(1);
		let claims = 0;
		const reading = new FolderReading({
			folder,
			host: { isHost: false, claim: () => Promise.resolve(++claims > 0) },
			relay: { current: () => Promise.resolve({}) },
			tagRules: () => false,
			log: () => undefined,
		});
		try {
			await new Promise((resolve) => setTimeout(resolve, 20));
			expect(claims).toBe(0);
		} finally {
			reading.dispose();
			remove();
		}
	});

	it("warmFolder stops when told to", async () => {
		const { folder, remove } = vault(2);
		try {
			expect(
				await warmFolder(
					folder,
					() => false,
					() => false,
				),
			).toBe(2);
			expect(
				await warmFolder(
					folder,
					() => true,
					() => false,
				),
			).toBe(2);
		} finally {
			remove();
		}
	});
});
