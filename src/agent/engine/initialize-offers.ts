import type { AgentEvent, OfferedCommand, OfferedModel } from "../agent-session";
import { isJsonRecord, type JsonRecord } from "../claude-cli/json-lines";

/**
 * The slash commands and models in the CLI's answer to `initialize` (2.1.330: `commands` of `{name, description}`,
 * `models` of `{value, displayName, description}`), so the panel offers them before the first message; the
 * `system`/`init` record that also lists commands comes only once a message was sent.
 */
export function initializeOffers(answer: JsonRecord): AgentEvent | undefined {
	const commands: OfferedCommand[] = records(answer["commands"]).flatMap((command) =>
		typeof command["name"] === "string"
			? [{ name: command["name"], description: text(command["description"]) }]
			: [],
	);
	const models: OfferedModel[] = records(answer["models"]).flatMap((model) =>
		typeof model["value"] === "string"
			? [
					{
						value: model["value"],
						label: text(model["displayName"]) || model["value"],
						description: text(model["description"]),
					},
				]
			: [],
	);
	return commands.length === 0 && models.length === 0 ? undefined : { kind: "offers", commands, models };
}

function records(value: unknown): JsonRecord[] {
	return Array.isArray(value) ? value.filter(isJsonRecord) : [];
}

function text(value: unknown): string {
	return typeof value === "string" ? value : "";
}
