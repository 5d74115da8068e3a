import { Notice, Setting, type ButtonComponent } from "obsidian";
import { isPort, type VaultToolsSettings } from "../../settings";
import { describeError } from "../../shared/describe-error";
import type { VaultToolsHttpStatus } from "../../vault-tools/serve/http-endpoint";
import { httpAddCommand, httpConfigJson, stdioAddCommand, stdioConfigJson } from "./mcp-commands";

export interface VaultToolsStatus {
	/** Whether the bridge runs with the vault tools. */
	running: boolean;
	/** The HTTP endpoint, while the vault tools run. */
	http?: VaultToolsHttpStatus;
	/** stdio servers relaying through the bridge right now. */
	relays: number;
}

/** What the "Vault tools for Claude" section needs from the plugin. */
export interface VaultToolsSettingsHost {
	readonly vaultPath: string | undefined;
	vaultToolsSettings(): VaultToolsSettings;
	saveSettings(): Promise<void>;
	/** Restarts the bridge so that switching the tools on or off, or a new port, takes effect. */
	applyServerSettings(): Promise<void>;
	vaultToolsStatus(): VaultToolsStatus;
	/** A new bearer token for the HTTP endpoint now (it lives in memory, never in data.json). */
	rotateMcpToken(): void;
}

/**
 * The settings tab's "Vault tools for Claude" section: on/off, review of writes, the HTTP port (fixed: a taken port
 * is an error, never silently replaced), the prompts folder, a status line, the token's rotation, and the commands
 * and JSON that add the server to Claude Code, each with a copy button (none holds a token: Claude Code fetches it
 * with `claude-code-bridge mcp-headers`). Returns a refresh for the status.
 */
export function displayVaultToolsSection(containerEl: HTMLElement, host: VaultToolsSettingsHost): { refresh(): void } {
	const settings = host.vaultToolsSettings();
	new Setting(containerEl).setName("Vault tools for Claude").setHeading();
	new Setting(containerEl)
		.setName("Serve vault tools")
		.setDesc("Tools Claude Code can call to search, read, link and edit notes the way Obsidian sees them. Private notes stay invisible to them.")
		.addToggle((toggle) =>
			toggle.setValue(settings.enabled).onChange(async (value) => {
				settings.enabled = value;
				await host.saveSettings();
				await host.applyServerSettings();
				refresh();
			}),
		);
	new Setting(containerEl)
		.setName("Review writes")
		.setDesc("Show each change a vault tool wants to make in Obsidian's review view, to accept, edit or reject. Off: changes are written at once.")
		.addToggle((toggle) =>
			toggle.setValue(settings.reviewWrites).onChange(async (value) => {
				settings.reviewWrites = value;
				await host.saveSettings();
			}),
		);
	const portSetting = new Setting(containerEl)
		.setName("HTTP port")
		.setDesc("The endpoint listens on 127.0.0.1 at this port, the same after every restart so Claude Code's configuration keeps working. Empty: a free port is chosen once and kept.")
		.addText((text) =>
			text
				.setPlaceholder("Chosen at first start")
				.setValue(settings.httpPort === null ? "" : String(settings.httpPort))
				.onChange(async (value) => {
					const trimmed = value.trim();
					const port = Number(trimmed);
					if (trimmed !== "" && !isPort(port)) {
						portSetting.setDesc(`"${trimmed}" is not a port (1–65535); the port stays ${settings.httpPort ?? "unset"}.`);
						return;
					}
					settings.httpPort = trimmed === "" ? null : port;
					await host.saveSettings();
				}),
		)
		.addButton((button) =>
			button.setButtonText("Apply").onClick(async () => {
				await host.applyServerSettings();
				refresh();
			}),
		);
	new Setting(containerEl)
		.setName("Prompts folder")
		.setDesc("Notes in this folder become prompts Claude Code offers as /mcp__obsidian__<note name> (description from the note's description property).")
		.addText((text) =>
			text.setValue(settings.promptsFolder).onChange(async (value) => {
				settings.promptsFolder = value.trim();
				await host.saveSettings();
			}),
		);

	const statusSetting = new Setting(containerEl).setName("Vault tools status");
	let rotateButton: ButtonComponent | undefined;
	new Setting(containerEl)
		.setName("Vault tools token")
		.setDesc("The HTTP endpoint's bearer token is new at every start. Claude Code fetches it whenever it connects, from a file only you can read under your home folder (never the vault or the plugin's data.json), so no configuration holds it.")
		.addButton((button) =>
			(rotateButton = button).setButtonText("Rotate token").onClick(() => {
				try {
					host.rotateMcpToken();
					new Notice("Vault tools token rotated: the old one no longer works. Claude Code fetches the new one when it reconnects.");
				} catch (error) {
					new Notice(`Could not rotate the token: ${describeError(error)}`);
				}
				refresh();
			}),
		);
	const stdioSetting = new Setting(containerEl).setName("Add to Claude Code (stdio, recommended)");
	stdioSetting.addButton((button) => button.setButtonText("Copy").onClick(() => copy(host.vaultPath ? stdioAddCommand(host.vaultPath) : undefined, "Command")));
	const httpSetting = new Setting(containerEl).setName("Add to Claude Code (HTTP)");
	httpSetting.addButton((button) => button.setButtonText("Copy").onClick(() => copy(httpCommand(httpAddCommand), "Command")));
	const jsonSetting = new Setting(containerEl).setName("JSON for .mcp.json or --mcp-config");
	jsonSetting
		.addButton((button) => button.setButtonText("Copy stdio JSON").onClick(() => copy(host.vaultPath ? stdioConfigJson(host.vaultPath) : undefined, "JSON")))
		.addButton((button) => button.setButtonText("Copy HTTP JSON").onClick(() => copy(httpCommand(httpConfigJson), "JSON")));

	/** The HTTP command or JSON while the endpoint listens and the vault is on disk. */
	function httpCommand(make: (url: string, vaultPath: string, port: number) => string): string | undefined {
		const http = host.vaultToolsStatus().http;
		const vaultPath = host.vaultPath;
		return http?.state === "listening" && http.url && vaultPath ? make(http.url, vaultPath, http.port) : undefined;
	}

	function refresh(): void {
		const status = host.vaultToolsStatus();
		statusSetting.setDesc(statusLine(status, settings));
		const vaultPath = host.vaultPath;
		stdioSetting.setDesc(vaultPath ? stdioAddCommand(vaultPath) : "The vault is not on the local file system.");
		httpSetting.setDesc(httpCommand(httpAddCommand) ?? "The HTTP endpoint is not listening (see the status above).");
		jsonSetting.setDesc(httpCommand(httpConfigJson) ?? (vaultPath ? stdioConfigJson(vaultPath) : ""));
		rotateButton?.setDisabled(!status.running);
	}

	refresh();
	return { refresh };
}

async function copy(text: string | undefined, what: string): Promise<void> {
	if (text === undefined) {
		new Notice(`Nothing to copy: ${what === "JSON" ? "the endpoint is not listening" : "the vault tools are not running"}.`);
		return;
	}
	await navigator.clipboard.writeText(text);
	new Notice(`${what} copied.`);
}

/** One line: the endpoint's state (a taken port as an error), its calls and last call, its recent clients, and the stdio relays. */
export function statusLine(status: VaultToolsStatus, settings: VaultToolsSettings): string {
	if (!settings.enabled) return "Off.";
	if (!status.running) return "Not running (the bridge is off).";
	const http = status.http;
	const parts: string[] = [];
	if (!http || http.state === "stopped") parts.push("HTTP endpoint: starting");
	else if (http.state === "failed") parts.push(`Error: ${http.error ?? "the HTTP endpoint could not start"}`);
	else {
		const last = http.lastCallAt ? `, last at ${http.lastCallAt.toLocaleTimeString()}` : "";
		parts.push(`HTTP endpoint: ${http.url ?? `port ${http.port}`}, ${http.calls} call${http.calls === 1 ? "" : "s"}${last}${http.refused > 0 ? `, ${http.refused} refused` : ""}`);
		if (http.tokenRecordError !== undefined) parts.push(`Error: Claude Code cannot fetch the token: ${http.tokenRecordError}`);
		if (http.clients.length > 0) parts.push(`HTTP clients: ${http.clients.map((client) => `${client.userAgent} (last at ${client.lastCallAt.toLocaleTimeString()})`).join(", ")}`);
	}
	parts.push(`stdio clients: ${status.relays}`);
	return `${parts.map((part) => part.replace(/\.+$/, "")).join(". ")}.`;
}
