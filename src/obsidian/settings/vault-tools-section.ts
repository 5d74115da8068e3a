import { Notice, Setting, type ButtonComponent } from "obsidian";
import { isPort, type VaultToolsSettings } from "../../settings";
import { describeError } from "../../shared/describe-error";
import {
	SCOPE_EXPLAINED,
	connectVaultTools,
	parseMcpGet,
	removeVaultTools,
	GET_ARGUMENTS,
	type ClaudeMcpState,
	type ClaudeRunner,
	type HttpServerEntry,
} from "../../vault-tools/serve/claude-mcp-add";
import type { VaultToolsHttpStatus } from "../../vault-tools/serve/http-endpoint";
import { commandBlock } from "./command-block";
import { ALLOW_WITHOUT_ASKING, describeOutcome, describeState, terminalLines, vaultToolsEntry } from "./mcp-commands";

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
	/** The user's own Claude Code, run in the vault folder; undefined when the vault is not a local folder. */
	claudeRunner(): ClaudeRunner | undefined;
}

const TOOLS_OFF = 'Turn on "Serve vault tools" under More settings first.';

/**
 * The vault tools' rows, placed by the settings tab in its sections: the connect button, with the command for a
 * terminal folded (Claude's vault tools); the switch and the prompts folder (More settings);
 * review of writes (Reviews); the endpoint's status, HTTP port and token (Advanced). No command or JSON holds a
 * token: Claude Code fetches it with `claude-code-bridge mcp-headers`. `changed` is told of every change the user
 * makes.
 */
export class VaultToolsSettingsSection {
	private readonly settings: VaultToolsSettings;
	/** The endpoint's status, calls and clients (Advanced). */
	private status: HTMLElement | undefined;
	private connectState: HTMLElement | undefined;
	private terminal: HTMLElement | undefined;
	private connectButtons: ButtonComponent[] = [];
	/** Bumped at each look at Claude Code, so that an older answer never overwrites a newer one. */
	private lookGeneration = 0;
	private shownEntry: string | undefined;
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

	/** Under More settings: the switch and the prompts folder. */
	displayOptions(containerEl: HTMLElement): void {
		const { host, settings } = this;
		new Setting(containerEl)
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

	/** Under "Advanced": the HTTP endpoint's status, port and token. */
	displayAdvanced(containerEl: HTMLElement): void {
		const { host, settings } = this;
		const status = new Setting(containerEl).setName("Vault tools status");
		this.status = status.descEl.createDiv({ cls: "ccb-vault-tools-status" });
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

	/** Redraws the statuses, the HTTP ways to connect (they need the endpoint's port) and the rotate button. */
	refresh(): void {
		const status = this.host.vaultToolsStatus();
		this.status?.setText(statusLine(status, this.settings));
		this.rotateButton?.setDisabled(!status.running);
		this.showTerminalCommands();
	}

	/**
	 * Under "Claude's vault tools", "Connect to Claude Code": the button runs the user's own `claude mcp add-json` in
	 * the vault folder, then `claude mcp get`; the state is Claude Code's own answer, looked at when the tab opens;
	 * Remove takes the entry out; the same command is shown for a terminal, folded. Nothing of it holds a token.
	 */
	displayConnect(containerEl: HTMLElement): void {
		const connect = new Setting(containerEl).setName("Connect to Claude Code");
		if (this.host.vaultPath === undefined) {
			connect.setDesc("The vault is not on the local file system.");
			return;
		}
		connect.setDesc(
			`Lets Claude Code, started in this vault folder, use the vault tools while Obsidian is open. The button runs your own Claude Code once (${SCOPE_EXPLAINED}); no key is stored.`,
		);
		this.connectState = connect.descEl.createDiv({ cls: "ccb-vault-tools-state" });
		this.connectButtons = [];
		this.shownEntry = undefined;
		connect.addButton((button) => {
			button
				.setButtonText("Connect to Claude Code")
				.setCta()
				.onClick(() => this.runConnect());
			this.connectButtons.push(button);
		});
		connect.addButton((button) => {
			button.setButtonText("Remove").onClick(() => this.runRemove());
			this.connectButtons.push(button);
		});
		const terminal = connect.descEl.createEl("details", { cls: "ccb-other-ways" });
		terminal.createEl("summary", { text: "Run it yourself in a terminal" });
		this.terminal = terminal.createDiv();
		this.showTerminalCommands();
		void this.lookAtClaude();
	}

	/** The entry for the port the endpoint listens on (or keeps); undefined while there is none yet. */
	private entry(): HttpServerEntry | undefined {
		const vaultPath = this.host.vaultPath;
		const http = this.host.vaultToolsStatus().http;
		const port = http?.state === "listening" ? http.port : (this.settings.httpPort ?? undefined);
		if (vaultPath === undefined || port === undefined) return undefined;
		return vaultToolsEntry(port, vaultPath);
	}

	private showTerminalCommands(): void {
		const terminal = this.terminal;
		const vaultPath = this.host.vaultPath;
		if (!terminal || vaultPath === undefined) return;
		const entry = this.entry();
		const key = entry === undefined ? "" : JSON.stringify(entry);
		if (key === this.shownEntry) return;
		this.shownEntry = key;
		terminal.empty();
		if (entry === undefined) {
			terminal.createDiv({
				cls: "setting-item-description",
				text: "The vault tools are not listening (their status is under Advanced); the command names the port they listen on.",
			});
			return;
		}
		for (const line of terminalLines(entry, vaultPath)) {
			terminal.createDiv({ cls: "setting-item-description", text: `${line.terminal}:` });
			commandBlock(terminal, line.command, "Command copied. It holds no key.");
		}
		terminal.createDiv({
			cls: "setting-item-description",
			text: "Claude Code asks before each tool call; to let the vault tools run without asking, start it with:",
		});
		commandBlock(terminal, ALLOW_WITHOUT_ASKING, "Command copied.");
	}

	private setBusy(busy: boolean): void {
		for (const button of this.connectButtons) button.setDisabled(busy);
	}

	private showState(text: string): void {
		this.connectState?.setText(text);
	}

	/** Asks Claude Code what it has for this vault (read-only: `claude mcp get obsidian`). */
	async lookAtClaude(): Promise<ClaudeMcpState | undefined> {
		const runner = this.host.claudeRunner();
		const entry = this.entry();
		if (!runner || !entry) {
			this.showState(entry ? "" : TOOLS_OFF);
			return undefined;
		}
		const generation = ++this.lookGeneration;
		this.showState("Asking Claude Code…");
		const state = parseMcpGet(await runner(GET_ARGUMENTS), entry.url);
		if (generation === this.lookGeneration) this.showState(describeState(state));
		return state;
	}

	private async runConnect(): Promise<void> {
		const runner = this.host.claudeRunner();
		const entry = this.entry();
		if (!runner || !entry) {
			new Notice(TOOLS_OFF);
			return;
		}
		this.setBusy(true);
		const generation = ++this.lookGeneration;
		this.showState("Connecting…");
		try {
			const outcome = await connectVaultTools(runner, entry);
			if (generation === this.lookGeneration) this.showState(describeState(outcome.state));
			new Notice(describeOutcome(outcome));
		} catch (error) {
			this.showState(`Could not connect: ${describeError(error)}`);
		} finally {
			this.setBusy(false);
		}
	}

	private async runRemove(): Promise<void> {
		const runner = this.host.claudeRunner();
		const entry = this.entry();
		if (!runner) return;
		this.setBusy(true);
		const generation = ++this.lookGeneration;
		this.showState("Removing…");
		try {
			const state = await removeVaultTools(runner, entry?.url ?? "");
			if (generation === this.lookGeneration) this.showState(describeState(state));
			new Notice(
				state.kind === "absent"
					? "Vault tools removed from Claude Code for this vault."
					: `Claude Code still has an entry: ${describeState(state)}`,
			);
		} catch (error) {
			this.showState(`Could not remove: ${describeError(error)}`);
		} finally {
			this.setBusy(false);
		}
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
