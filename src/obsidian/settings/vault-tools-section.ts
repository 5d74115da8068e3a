import { Notice, Setting, type ButtonComponent } from "obsidian";
import { isPort, type VaultToolsSettings } from "../../settings";
import { describeError } from "../../shared/describe-error";
import type { VaultToolsHttpStatus } from "../../vault-tools/serve/http-endpoint";
import { commandBlock } from "./command-block";
import { httpAddCommand, httpConfigJson, stdioAddCommand, stdioConfigJson } from "./mcp-commands";

export interface VaultToolsStatus {
	/** Whether the bridge runs with the vault tools. */
	running: boolean;
	/** The HTTP endpoint, while the vault tools run. */
	http?: VaultToolsHttpStatus;
	/** stdio servers relaying through the bridge right now. */
	relays: number;
}

/** What the vault tools' settings rows need from the plugin. */
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

const NO_TOKEN = "It holds no token: Claude Code fetches the current one each time it connects.";

/**
 * The vault tools' rows, placed by the settings tab in its sections: on/off with the status (Claude's vault tools),
 * the one recommended `claude mcp add` line and the other ways to connect behind a disclosure, the prompts folder,
 * review of writes (Reviews), and the HTTP port and token (Advanced). No command or JSON holds a token: Claude Code
 * fetches it with `claude-code-bridge mcp-headers`. `changed` is told of every change the user makes.
 */
export class VaultToolsSettingsSection {
	private readonly settings: VaultToolsSettings;
	private status: HTMLElement | undefined;
	private otherWays: HTMLElement | undefined;
	private rotateButton: ButtonComponent | undefined;

	constructor(
		private readonly host: VaultToolsSettingsHost,
		private readonly changed: () => void,
	) {
		this.settings = host.vaultToolsSettings();
	}

	private async save(): Promise<void> {
		this.changed();
		await this.host.saveSettings();
	}

	/** Under the "Claude's vault tools" heading: on/off with the status, how to connect, the prompts folder. */
	display(containerEl: HTMLElement): void {
		const { host, settings } = this;
		const serve = new Setting(containerEl)
			.setName("Serve vault tools")
			.setDesc(
				"Tools Claude Code can call to search, read, link and edit notes the way Obsidian sees them. Private notes stay invisible to them.",
			)
			.addToggle((toggle) =>
				toggle.setValue(settings.enabled).onChange(async (value) => {
					settings.enabled = value;
					await this.save();
					await host.applyServerSettings();
					this.refresh();
				}),
			);
		this.status = serve.descEl.createDiv({ cls: "ccb-vault-tools-status" });

		const connect = new Setting(containerEl).setName("Add to Claude Code");
		const vaultPath = host.vaultPath;
		if (vaultPath === undefined) connect.setDesc("The vault is not on the local file system.");
		else {
			connect.setDesc(
				"Run this once in a terminal: it goes to the vault folder and adds the tools for Claude Code sessions started there (local scope, kept in your own Claude Code configuration, not in the vault). They relay to Obsidian while it runs, and read the vault folder when it does not.",
			);
			commandBlock(connect.descEl, stdioAddCommand(vaultPath), "Command copied.");
			const other = connect.descEl.createEl("details", { cls: "ccb-other-ways" });
			other.createEl("summary", { text: "Other ways to connect" });
			this.otherWays = other.createDiv();
		}

		new Setting(containerEl)
			.setName("Prompts folder")
			.setDesc(
				"Notes in this folder become prompts Claude Code offers as /mcp__obsidian__<note name> (description from the note's description property).",
			)
			.addText((text) =>
				text.setValue(settings.promptsFolder).onChange(async (value) => {
					settings.promptsFolder = value.trim();
					await this.save();
				}),
			);
		this.refresh();
	}

	/** Under "Reviews": whether a vault tool's write waits for the user's review. */
	displayReview(containerEl: HTMLElement): void {
		new Setting(containerEl)
			.setName("Review vault tool writes")
			.setDesc(
				"Show each change a vault tool wants to make in the review view, to accept, edit or reject. Off: changes are written at once.",
			)
			.addToggle((toggle) =>
				toggle.setValue(this.settings.reviewWrites).onChange(async (value) => {
					this.settings.reviewWrites = value;
					await this.save();
				}),
			);
	}

	/** Under "Advanced": the HTTP endpoint's port and token. */
	displayAdvanced(containerEl: HTMLElement): void {
		const { host, settings } = this;
		const portSetting = new Setting(containerEl)
			.setName("Vault tools HTTP port")
			.setDesc(
				"The HTTP endpoint listens on 127.0.0.1 at this port, the same after every restart so Claude Code's configuration keeps working. Empty: a free port is chosen once and kept.",
			)
			.addText((text) =>
				text
					.setPlaceholder("Chosen at first start")
					.setValue(settings.httpPort === null ? "" : String(settings.httpPort))
					.onChange(async (value) => {
						const trimmed = value.trim();
						const port = Number(trimmed);
						if (trimmed !== "" && !isPort(port)) {
							portSetting.setDesc(
								`"${trimmed}" is not a port (1–65535); the port stays ${settings.httpPort ?? "unset"}.`,
							);
							return;
						}
						settings.httpPort = trimmed === "" ? null : port;
						await this.save();
					}),
			)
			.addButton((button) =>
				button.setButtonText("Apply").onClick(async () => {
					this.changed();
					await host.applyServerSettings();
					this.refresh();
				}),
			);
		new Setting(containerEl)
			.setName("Vault tools HTTP token")
			.setDesc(
				"New at every start, and never shown here. Claude Code fetches it when it connects, from a file only you can read under your home folder (never the vault or the plugin's data.json).",
			)
			.addButton((button) =>
				(this.rotateButton = button).setButtonText("Rotate vault tools HTTP token").onClick(() => {
					this.changed();
					try {
						host.rotateMcpToken();
						new Notice(
							"Vault tools HTTP token rotated: the old one no longer works. Claude Code fetches the new one when it reconnects.",
						);
					} catch (error) {
						new Notice(`Could not rotate the vault tools HTTP token: ${describeError(error)}`);
					}
					this.refresh();
				}),
			);
		this.refresh();
	}

	/** Redraws the status, the HTTP ways to connect (they need the endpoint's port) and the rotate button. */
	refresh(): void {
		const status = this.host.vaultToolsStatus();
		this.status?.setText(statusLine(status, this.settings));
		this.rotateButton?.setDisabled(!status.running);
		const other = this.otherWays;
		const vaultPath = this.host.vaultPath;
		if (!other || vaultPath === undefined) return;
		other.empty();
		const http = status.http;
		if (http?.state === "listening" && http.url) {
			other.createDiv({
				cls: "setting-item-description",
				text: "Over HTTP, while Obsidian runs (Claude Code runs claude-code-bridge mcp-headers to get the token):",
			});
			commandBlock(other, httpAddCommand(http.url, vaultPath, http.port), `Command copied. ${NO_TOKEN}`);
			other.createDiv({
				cls: "setting-item-description",
				text: "The same as JSON, for .mcp.json or claude --mcp-config:",
			});
			commandBlock(other, httpConfigJson(http.url, vaultPath, http.port), `JSON copied. ${NO_TOKEN}`);
		} else
			other.createDiv({
				cls: "setting-item-description",
				text: "Over HTTP: the endpoint is not listening (see the status above).",
			});
		other.createDiv({
			cls: "setting-item-description",
			text: "The recommended command as JSON, for .mcp.json or claude --mcp-config:",
		});
		commandBlock(other, stdioConfigJson(vaultPath), "JSON copied.");
	}
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
		parts.push(
			`HTTP endpoint: ${http.url ?? `port ${http.port}`}, ${http.calls} call${http.calls === 1 ? "" : "s"}${last}${http.refused > 0 ? `, ${http.refused} refused` : ""}`,
		);
		if (http.tokenRecordError !== undefined)
			parts.push(`Error: Claude Code cannot fetch the token: ${http.tokenRecordError}`);
		if (http.clients.length > 0)
			parts.push(
				`HTTP clients: ${http.clients.map((client) => `${client.userAgent} (last at ${client.lastCallAt.toLocaleTimeString()})`).join(", ")}`,
			);
	}
	parts.push(`stdio clients: ${status.relays}`);
	return `${parts.map((part) => part.replace(/\.+$/, "")).join(". ")}.`;
}
