import { FILE_MISSING } from "./cli-edit";

/** NotebookEdit's input. */
export interface NotebookEditInput {
	cell_id?: string;
	new_source: string;
	cell_type?: "code" | "markdown";
	edit_mode?: "replace" | "insert" | "delete";
}

type NotebookResult = { ok: true; text: string } | { ok: false; message: string };

/**
 * The notebook's JSON after NotebookEdit, for the review: a cell replaced, inserted after `cell_id` (at the top
 * without one) or deleted. The CLI's own serialisation may space the JSON differently; the cells are the same.
 */
export function applyNotebookEdit(text: string | undefined, input: NotebookEditInput): NotebookResult {
	if (text === undefined) return { ok: false, message: FILE_MISSING };
	let notebook: unknown;
	try {
		notebook = JSON.parse(text);
	} catch {
		return { ok: false, message: "Notebook is not valid JSON." };
	}
	if (!isRecord(notebook) || !Array.isArray(notebook.cells))
		return { ok: false, message: "Notebook is not valid JSON." };
	const cells: unknown[] = [...(notebook.cells as unknown[])];
	const mode = input.edit_mode ?? "replace";
	const index = input.cell_id === undefined ? undefined : cellIndex(cells, input.cell_id);
	if (input.cell_id !== undefined && index === undefined)
		return { ok: false, message: `Cell with ID "${input.cell_id}" not found in notebook.` };
	if (mode === "insert") {
		if (input.cell_type === undefined)
			return { ok: false, message: "Cell type is required when using edit_mode=insert." };
		cells.splice(index === undefined ? 0 : index + 1, 0, newCell(input.cell_type, input.new_source));
	} else {
		if (index === undefined)
			return { ok: false, message: "Cell ID must be specified when not inserting a new cell." };
		if (mode === "delete") cells.splice(index, 1);
		else cells[index] = replacedCell(cells[index], input);
	}
	return { ok: true, text: `${JSON.stringify({ ...notebook, cells }, null, 1)}\n` };
}

function cellIndex(cells: readonly unknown[], id: string): number | undefined {
	const byId = cells.findIndex((cell) => isRecord(cell) && cell.id === id);
	if (byId !== -1) return byId;
	const numbered = /^cell-(\d+)$/.exec(id);
	const position = numbered ? Number(numbered[1]) : Number.NaN;
	return Number.isInteger(position) && position < cells.length ? position : undefined;
}

function newCell(type: "code" | "markdown", source: string): Record<string, unknown> {
	return type === "code"
		? { cell_type: "code", execution_count: null, metadata: {}, outputs: [], source }
		: { cell_type: "markdown", metadata: {}, source };
}

function replacedCell(cell: unknown, input: NotebookEditInput): Record<string, unknown> {
	const base = isRecord(cell) ? cell : {};
	const type = input.cell_type ?? (base.cell_type === "markdown" ? "markdown" : "code");
	const replaced: Record<string, unknown> = { ...base, cell_type: type, source: input.new_source };
	if (type === "code") Object.assign(replaced, { execution_count: null, outputs: [] });
	else {
		delete replaced.execution_count;
		delete replaced.outputs;
	}
	return replaced;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
