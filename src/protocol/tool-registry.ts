import type { ToolDefinition } from "./mcp-types";

/**
 * The tools a server lists, in a fixed order. Tools can be switched on and off at run time;
 * listeners hear about it so sessions can send `notifications/tools/list_changed`.
 */
export class ToolRegistry {
	private readonly tools = new Map<string, ToolDefinition>();
	private readonly listeners = new Set<() => void>();

	register(tool: ToolDefinition): void {
		if (this.tools.has(tool.name)) throw new Error(`Tool registered twice: ${tool.name}`);
		this.tools.set(tool.name, tool);
		this.changed();
	}

	unregister(name: string): void {
		if (this.tools.delete(name)) this.changed();
	}

	find(name: string): ToolDefinition | undefined {
		return this.tools.get(name);
	}

	list(): ToolDefinition[] {
		return [...this.tools.values()];
	}

	onChange(listener: () => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	private changed(): void {
		for (const listener of this.listeners) listener();
	}
}
