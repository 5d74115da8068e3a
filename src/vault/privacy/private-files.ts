import type { VaultLocation } from "../vault-paths";
import { RefusedPathError, type VaultFileEntry, type VaultFileBytes } from "../notes/vault-files";
import type { HardLinkWarnings } from "./hard-link-warnings";
import type { PrivacyFilter, PrivacySubject } from "./privacy";

/**
 * Private files are not listed, and to `stat` they do not exist, exactly as a missing file does not: the port is
 * asked all the same (its answer dropped), so both take one lookup. `readBytes` of one fails as a missing file's would.
 */
export class PrivateFiles implements VaultFileBytes {
	constructor(
		private readonly port: VaultFileBytes,
		private readonly privacy: PrivacyFilter,
		private readonly locate: (relativePath: string) => VaultLocation | undefined,
		private readonly hardLinks: HardLinkWarnings,
	) {}

	async list(): Promise<VaultFileEntry[]> {
		// Listed paths come from the vault's own index, which does not follow symbolic links: judged as listed.
		return (await this.port.list()).filter((entry) => !this.privacy.isPrivate({ relative: entry.path }));
	}

	async stat(relativePath: string): Promise<{ size: number } | undefined> {
		const hidden = this.isPrivate(relativePath);
		const stat = await this.port.stat(relativePath);
		return hidden ? undefined : stat;
	}

	readBytes(relativePath: string): Promise<Uint8Array> {
		const location = this.locate(relativePath);
		if (this.privacy.isPrivate(location ?? { relative: relativePath }))
			return Promise.reject(new RefusedPathError(`Not found: ${relativePath}`));
		if (location) this.hardLinks.check(location);
		return this.port.readBytes(relativePath);
	}

	private isPrivate(relativePath: string): boolean {
		const location: PrivacySubject = this.locate(relativePath) ?? { relative: relativePath };
		return this.privacy.isPrivate(location);
	}
}
