export type JsonObject = Record<string, unknown>;

export type RequestKind = "main" | "side";

export interface MessagesRequest {
	index: number;
	kind: RequestKind;
	receivedAt: number;
	/** For benchmarks: `performance.now()` when the whole request had arrived, and after the answer's first event was written. */
	timing?: { received: number; firstEventWritten?: number };
	headers: Record<string, string | string[] | undefined>;
	body: JsonObject;
}

export function isJsonObject(value: unknown): value is JsonObject {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The JSON schema the request asks the answer to follow (structured output), if any. */
export function requestedOutputSchema(body: JsonObject): JsonObject | undefined {
	const outputConfig = body["output_config"];
	if (!isJsonObject(outputConfig)) return undefined;
	const format = outputConfig["format"];
	if (!isJsonObject(format) || format["type"] !== "json_schema") return undefined;
	const schema = format["schema"];
	return isJsonObject(schema) ? schema : undefined;
}

/**
 * The agent loop always offers tools (Bash, Edit, Read, ...). The CLI's side requests (session title,
 * and similar) offer none, and ask for structured output.
 */
export function classifyMessagesRequest(body: JsonObject): RequestKind {
	const tools = body["tools"];
	const offersTools = Array.isArray(tools) && tools.length > 0;
	return offersTools && requestedOutputSchema(body) === undefined ? "main" : "side";
}

export function toolNames(body: JsonObject): string[] {
	const tools = body["tools"];
	if (!Array.isArray(tools)) return [];
	return tools.flatMap((tool) => (isJsonObject(tool) && typeof tool["name"] === "string" ? [tool["name"]] : []));
}

export function messagesOf(body: JsonObject): JsonObject[] {
	const messages = body["messages"];
	return Array.isArray(messages) ? messages.filter(isJsonObject) : [];
}

/** Every text the request carries (text blocks, tool results, string contents), in order. */
export function textsOf(value: unknown): string[] {
	if (typeof value === "string") return [value];
	if (Array.isArray(value)) return value.flatMap(textsOf);
	if (!isJsonObject(value)) return [];
	if (typeof value["text"] === "string") return [value["text"]];
	if ("content" in value) return textsOf(value["content"]);
	return [];
}

export function messageText(message: JsonObject): string {
	return textsOf(message["content"]).join("\n");
}

/** The texts of the system prompt and of all messages, joined: handy for `toContain` assertions. */
export function requestText(body: JsonObject): string {
	return [...textsOf(body["system"]), ...messagesOf(body).map(messageText)].join("\n");
}

/** Text of the last message with role "user" (the prompt just submitted, or the last tool result). */
export function lastUserText(body: JsonObject): string {
	const userMessages = messagesOf(body).filter((message) => message["role"] === "user");
	const last = userMessages[userMessages.length - 1];
	return last ? messageText(last) : "";
}
