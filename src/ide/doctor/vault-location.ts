import { resolve, sep } from "node:path";
import { describeError } from "../../shared/describe-error";
import type { DoctorFileSystem } from "./doctor-environment";
import { fail, ok, type DoctorLine } from "./doctor-line";

/** The vault folder's own paths (not a place inside the vault: that is `vault/vault-paths`' `VaultLocation`). */
export interface VaultFolderPaths {
	/** The vault as the app knows it. */
	given: string;
	/** After symlinks: what Claude Code sees as its working folder inside the vault. */
	real: string;
}

/** A folder kept in sync by a cloud service, recognised from the usual install locations. */
export function syncedFolderName(path: string): string | undefined {
	const parts = path.split(/[\\/]/);
	const library = parts.indexOf("Library");
	if (library >= 0 && parts[library + 1] === "Mobile Documents") return "iCloud Drive";
	if (library >= 0 && parts[library + 1] === "CloudStorage" && parts[library + 2]) return parts[library + 2];
	const service = parts.find(
		(part) => part === "Dropbox" || part === "Google Drive" || /^OneDrive( - .+)?$/.test(part),
	);
	return service;
}

/** Resolves the vault's real path and says what about its location can trip up `cd` or discovery. */
export async function checkVaultLocation(
	vaultPath: string,
	fs: DoctorFileSystem,
): Promise<{ lines: DoctorLine[]; location?: VaultFolderPaths }> {
	let real: string;
	try {
		real = await fs.realpath(vaultPath);
	} catch (error) {
		return {
			lines: [
				fail(
					`The vault folder ${vaultPath} cannot be resolved: ${describeError(error)}`,
					"Check that the folder exists and that this user can open it, then restart the bridge.",
				),
			],
		};
	}
	const lines: DoctorLine[] = [];
	if (real !== vaultPath) {
		lines.push(
			ok(
				`The vault is reached through a symlink: ${vaultPath} → ${real}. Claude Code sees the real path as its working folder, so that is the path that must be in the lock file.`,
			),
		);
	}
	// A path with spaces needs no warning: every command the doctor and the settings tab print quotes it.
	const synced = syncedFolderName(real);
	if (synced) lines.push(ok(`The vault lies in a synced folder (${synced}); the lock file stays on this computer`));
	return { lines, location: { given: vaultPath, real } };
}

/** Whether Claude Code, started in `cwd`, counts a lock file with this workspace folder as its own (contains the cwd). */
export function folderContains(folder: string, cwd: string): boolean {
	const base = resolve(folder);
	return cwd === base || cwd.startsWith(base.endsWith(sep) ? base : base + sep);
}
