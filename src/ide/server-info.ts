import type { ServerInfo } from "../protocol/mcp-types";

/** Shown to the client in `initialize`. Not "Claude Code JetBrains Plugin": the CLI special-cases that name. */
export const SERVER_INFO: ServerInfo = { name: "obsidian-claude-code-bridge", version: "0.1.0" };

/** The name `/ide` shows: Obsidian plus the vault's name, so two vaults are told apart. */
export function ideNameFor(vaultName: string, variant?: string): string {
	const base = `Obsidian · ${vaultName}`;
	return variant ? `${base} (${variant})` : base;
}
