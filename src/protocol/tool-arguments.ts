import type { JsonObject } from "./json-rpc";
import { toolError, type ToolResult } from "./mcp-types";

/** A tool argument that is missing or has the wrong type; the message says which and what was expected. */
export class ToolArgumentError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "ToolArgumentError";
	}
}

export function requiredString(args: JsonObject, name: string, tool: string): string {
	const value = args[name];
	if (typeof value !== "string") {
		throw new ToolArgumentError(
			`${tool}: "${name}" is required and must be a string${value === undefined ? "" : `, not ${typeName(value)}`}`,
		);
	}
	return value;
}

export function optionalString(args: JsonObject, name: string, tool: string): string | undefined {
	const value = args[name];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== "string")
		throw new ToolArgumentError(`${tool}: "${name}" must be a string, not ${typeName(value)}`);
	return value;
}

export function optionalBoolean(args: JsonObject, name: string, tool: string, fallback: boolean): boolean {
	const value = args[name];
	if (value === undefined || value === null) return fallback;
	if (typeof value !== "boolean")
		throw new ToolArgumentError(`${tool}: "${name}" must be true or false, not ${typeName(value)}`);
	return value;
}

/** A 0-based or 1-based line number as given; whole and not negative. */
export function optionalLine(args: JsonObject, name: string, tool: string): number | undefined {
	const value = args[name];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
		throw new ToolArgumentError(
			`${tool}: "${name}" must be a whole number of 0 or more, not ${JSON.stringify(value)}`,
		);
	}
	return value;
}

function typeName(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "an array";
	return `a ${typeof value}`;
}

/** The schema of a tool without arguments. */
export const NO_ARGUMENTS_SCHEMA: JsonObject = { type: "object", properties: {}, additionalProperties: false };

/** Runs a tool body, answering a bad argument with an error result the caller can act on. */
export async function answeringArgumentErrors(run: () => Promise<ToolResult> | ToolResult): Promise<ToolResult> {
	try {
		return await run();
	} catch (error) {
		if (error instanceof ToolArgumentError) return toolError(error.message);
		throw error;
	}
}
