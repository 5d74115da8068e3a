import { existsSync, realpathSync } from "node:fs";
import { join } from "node:path";
import type { SandboxSupport } from "../claude-cli/shell-sandbox";
import type { SessionGuard, ShellSandbox } from "./session-guard";

/** The places a shell command must not reach, vault-relative (the bridge's `privatePlaces()`). */
export interface VaultPrivatePlaces {
	folders: readonly string[];
	tags: readonly string[];
	/** Every note private by a tag as the notes are known now. */
	notes: readonly string[];
	configFolder?: string;
}

export interface VaultSessionGuardOptions {
	places: VaultPrivatePlaces;
	vaultRoot: string;
	/** Folders held out of the shell beside the private ones and the config folder (the vault's trash). */
	heldOut: readonly string[];
	/** What configures Claude Code in the vault, vault-relative: no shell command may write it. */
	configuring: readonly string[];
	/** Whether the CLI's shell sandbox runs on this machine (asked at each session start). */
	sandboxSupport: () => Promise<SandboxSupport>;
	/** Whether the user trusted this vault's own Claude Code configuration on this device. Default: not trusted. */
	projectConfigTrusted?: () => Promise<boolean>;
	/** Claude Code's deny rules over the private folders and the config folder, when the user asked for them. */
	denyRules?: () => Promise<readonly string[]>;
}

/**
 * A session's guard; when the shell runs without the sandbox, why (for the panel to say); with it, whether there are
 * notes private by a tag, which the sandbox does not hold out.
 */
export interface PanelGuard {
	guard: SessionGuard;
	sandboxMissing?: string;
	tagPrivateReadable?: boolean;
}

/**
 * The guard of one panel session, as the vault is when it starts: the deny rules for the private folders and the
 * config folder handed to the CLI when the user asked for them (the project settings file they were written to is
 * not loaded while the vault's configuration is untrusted), and, where the sandbox runs, every shell command held
 * out of the private folders, the config folder and the trash, and kept from writing what configures Claude Code in
 * the vault. Notes private by a tag are not listed: Claude Code describes its sandbox to the model, every denied path
 * included, so listing them would name them to the model in every request (the gate then allows a shell command
 * once at a time instead).
 */
export async function vaultSessionGuard(options: VaultSessionGuardOptions): Promise<PanelGuard> {
	const { places } = options;
	const [support, trusted, denyRules] = await Promise.all([
		options.sandboxSupport(),
		options.projectConfigTrusted?.() ?? Promise.resolve(false),
		options.denyRules?.(),
	]);
	const guard: SessionGuard = {
		projectConfigTrusted: trusted,
		...(denyRules !== undefined && { denyRules }),
		...(support.available && { sandbox: shellSandbox(options) }),
	};
	if (!support.available) return { guard, sandboxMissing: support.why };
	return places.notes.length > 0 ? { guard, tagPrivateReadable: true } : { guard };
}

function shellSandbox(options: VaultSessionGuardOptions): ShellSandbox {
	const { places } = options;
	const roots = vaultSpellings(options.vaultRoot);
	const relative = [
		...places.folders,
		...(places.configFolder === undefined ? [] : [places.configFolder]),
		...options.heldOut,
	]
		.map((path) =>
			path
				.trim()
				.replace(/\\/g, "/")
				.replace(/^\/+|\/+$/g, ""),
		)
		.filter((path) => path !== "");
	// Only places that exist: the sandbox binds over each one, and a folder made later is judged by the gate's question.
	const denyRead = unique(roots.flatMap((root) => relative.map((path) => join(root, path)))).filter((path) =>
		existsSync(path),
	);
	const configuring = roots.flatMap((root) => options.configuring.map((path) => join(root, path)));
	return { denyRead, denyWrite: unique([...denyRead, ...configuring]) };
}

/** The vault's folder as given and as the system resolves it: a command may reach it either way. */
function vaultSpellings(vaultRoot: string): string[] {
	try {
		return unique([vaultRoot, realpathSync(vaultRoot)]);
	} catch {
		return [vaultRoot];
	}
}

function unique(items: readonly string[]): string[] {
	return [...new Set(items)];
}
