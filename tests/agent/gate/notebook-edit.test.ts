import { applyNotebookEdit } from "../../../src/agent/gate/notebook-edit";

const notebook = JSON.stringify({
	cells: [
		{ cell_type: "markdown", id: "m1", metadata: {}, source: "# Notes" },
		{
			cell_type: "code",
			id: "c1",
			metadata: {},
			source: "x = 1",
			outputs: [{ output_type: "stream" }],
			execution_count: 2,
		},
	],
	metadata: {},
	nbformat: 4,
	nbformat_minor: 5,
});

const cells = (result: ReturnType<typeof applyNotebookEdit>): unknown =>
	result.ok ? (JSON.parse(result.text) as { cells: unknown }).cells : result.message;

describe("applyNotebookEdit", () => {
	it("replaces a cell's source (a code cell's outputs cleared), by id or by position", () => {
		expect(cells(applyNotebookEdit(notebook, { cell_id: "c1", new_source: "x = 2" }))).toEqual([
			{ cell_type: "markdown", id: "m1", metadata: {}, source: "# Notes" },
			{ cell_type: "code", id: "c1", metadata: {}, source: "x = 2", outputs: [], execution_count: null },
		]);
		expect(cells(applyNotebookEdit(notebook, { cell_id: "cell-0", new_source: "# Title" }))).toMatchObject([
			{ source: "# Title" },
			{ source: "x = 1" },
		]);
	});

	it("inserts after a cell (at the top without one) and deletes", () => {
		expect(
			cells(
				applyNotebookEdit(notebook, { cell_id: "m1", new_source: "y", cell_type: "code", edit_mode: "insert" }),
			),
		).toMatchObject([{ id: "m1" }, { source: "y", cell_type: "code" }, { id: "c1" }]);
		expect(
			cells(applyNotebookEdit(notebook, { new_source: "top", cell_type: "markdown", edit_mode: "insert" })),
		).toMatchObject([{ source: "top" }, { id: "m1" }, { id: "c1" }]);
		expect(
			cells(applyNotebookEdit(notebook, { cell_id: "m1", new_source: "", edit_mode: "delete" })),
		).toMatchObject([{ id: "c1" }]);
	});

	it("says what is wrong: a missing notebook, bad JSON, an unknown cell, an insert without a type", () => {
		expect(applyNotebookEdit(undefined, { cell_id: "c1", new_source: "x" })).toEqual({
			ok: false,
			message: "File does not exist.",
		});
		expect(applyNotebookEdit("{", { cell_id: "c1", new_source: "x" })).toEqual({
			ok: false,
			message: "Notebook is not valid JSON.",
		});
		expect(applyNotebookEdit(notebook, { cell_id: "nope", new_source: "x" })).toEqual({
			ok: false,
			message: 'Cell with ID "nope" not found in notebook.',
		});
		expect(applyNotebookEdit(notebook, { new_source: "x", edit_mode: "insert" })).toEqual({
			ok: false,
			message: "Cell type is required when using edit_mode=insert.",
		});
	});
});
