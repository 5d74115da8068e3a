/**
 * The parts of the plugin that run only once the workspace is ready: the bridge (server, `ws`, the IDE tools) and
 * Claude's vault tools. The plugin imports this module with a dynamic import at layout ready, so evaluating
 * main.js while Obsidian loads the plugin skips their module top levels and the Node modules they load.
 */
export { BridgeComponent } from "./bridge-component";
export { VaultToolsComponent } from "../vault-tools/vault-tools-component";
export { ObsidianNoteStore } from "../notes/obsidian-note-store";
export { windowPace } from "../notes/window-pace";
export { pluginJournal } from "../activity/plugin-journal";
