import { isJsonObject, requestedOutputSchema, type JsonObject } from "./messages-request";
import { textTurn, type ScriptedTurn } from "./sse-reply";

function sampleFor(schema: unknown, key: string): unknown {
	if (!isJsonObject(schema)) return null;
	switch (schema["type"]) {
		case "string":
			return key === "title" ? "Mock session" : "mock";
		case "number":
		case "integer":
			return 0;
		case "boolean":
			return false;
		case "array":
			return [];
		case "object":
			return sampleObject(schema);
		default:
			return null;
	}
}

function sampleObject(schema: JsonObject): JsonObject {
	const properties = isJsonObject(schema["properties"]) ? schema["properties"] : {};
	return Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, sampleFor(property, key)]));
}

/** A plausible answer to a side request: JSON matching the requested schema, or a short text. */
export function sideReply(body: JsonObject): ScriptedTurn {
	const schema = requestedOutputSchema(body);
	return textTurn(schema ? JSON.stringify(sampleObject(schema)) : "Mock side answer.");
}
