import type { ToolPermissionAnswer, ToolPermissionRequest } from "../../../src/agent/agent-session";
import { approvedPlan, drawPlanCard, type PlanEdit } from "../../../src/obsidian/agent/plan-card";
import { FakeElement } from "../../__mocks__/obsidian";
import { unreachableByKeyboard } from "../../helpers/keyboard-reach";

const PLAN = "# Chapter two\n\n1. Open with the **storm**\n2. <script>alert(1)</script> stays text\n\n[[Outline]]";

/** `null`: Claude wrote no plan file, so the CLI gives no plan. */
const request = (plan: string | null = PLAN): ToolPermissionRequest => ({
	id: "p1",
	toolName: "ExitPlanMode",
	input: plan === null ? {} : { plan },
	summary: "",
	scopes: ["once"],
	...(plan !== null && { plan }),
});

/** A card as its tab keeps it: the edit survives redraws, which the card asks for. */
function card(status: "pending" | "allowed" | "denied" = "pending", plan: string | null = PLAN) {
	const edit: PlanEdit = { editing: false, focus: false };
	const answers: ToolPermissionAnswer[] = [];
	const opened: string[] = [];
	const expanded = new Set<number>();
	const element = new FakeElement();
	const entry = { id: 7, request: request(plan), status };
	const context = {
		openInternal: (target: string) => opened.push(target),
		planEdit: () => edit,
		redrawPermission: () => draw(),
		answered: () => answers[0],
		answer: (_id: string, answer: ToolPermissionAnswer) => {
			answers.push(answer);
			draw();
		},
		isExpanded: (id: number) => expanded.has(id),
		toggleExpanded: (id: number) => {
			if (!expanded.delete(id)) expanded.add(id);
			draw();
		},
	};
	const draw = (): void => {
		element.empty();
		drawPlanCard(element as unknown as HTMLElement, entry, context);
	};
	draw();
	const one = (cls: string): FakeElement => {
		const found = element.findAll(cls)[0];
		if (!found) throw new Error(`no .${cls}`);
		return found;
	};
	return { element, edit, answers, opened, entry, draw, one };
}

describe("the plan card", () => {
	it("shows the plan as prose (headings, lists, emphasis, links), built from text, never as HTML", () => {
		const { one, opened } = card();
		const plan = one("ccb-agent-plan");
		const tags = (element: FakeElement): string[] => [element.tag, ...element.children.flatMap(tags)];
		expect(tags(plan)).toEqual(expect.arrayContaining(["h1", "ol", "li", "strong", "a"]));
		expect(tags(plan)).not.toContain("script");
		expect(plan.textContent).toContain("<script>alert(1)</script> stays text");
		plan.findAll("internal-link")[0]?.dispatch("click");
		expect(opened).toEqual(["Outline"]);
		expect(one("ccb-agent-permission-status").text).toBe("Waiting for your answer");
	});

	it("approves the plan as Claude wrote it: no plan goes back, the CLI keeps its own", () => {
		const { one, answers } = card();
		one("ccb-agent-approve-plan").dispatch("click");
		expect(answers).toEqual([{ kind: "allow", scope: "once" }]);
		expect(one("ccb-agent-permission-outcome").text).toBe("Approving the plan…");
	});

	it("opens an edit box with the plan's text; what the user wrote there is the plan approved, also by Mod+Enter", () => {
		const { one, element, edit, answers } = card();
		one("ccb-agent-edit-plan").dispatch("click");
		expect(edit).toMatchObject({ editing: true });
		const editor = one("ccb-agent-plan-editor");
		expect(editor.tag).toBe("textarea");
		expect(editor.value).toBe(PLAN);
		expect(element.findAll("ccb-agent-plan")).toEqual([]);
		editor.value = `${PLAN}\n3. End on the lighthouse`;
		editor.dispatch("input");
		// The preview shows the edited text; the edit is kept across redraws.
		one("ccb-agent-edit-plan").dispatch("click");
		expect(one("ccb-agent-plan").textContent).toContain("End on the lighthouse");
		one("ccb-agent-edit-plan").dispatch("click");
		expect(one("ccb-agent-plan-editor").value).toBe(`${PLAN}\n3. End on the lighthouse`);
		one("ccb-agent-plan-editor").dispatch("keydown", {
			key: "Enter",
			ctrlKey: true,
			preventDefault: () => undefined,
		});
		expect(answers).toEqual([{ kind: "allow", scope: "once", plan: `${PLAN}\n3. End on the lighthouse` }]);
	});

	it("sends no plan back when the edit box holds the plan unchanged", () => {
		expect(approvedPlan(request(), { text: PLAN, editing: true, focus: false })).toBeUndefined();
		expect(approvedPlan(request(), { text: "changed", editing: true, focus: false })).toBe("changed");
	});

	it("keeps planning with the user's optional note for Claude", () => {
		const noted = card();
		const note = noted.one("ccb-agent-deny-reason");
		expect(note.attributes.get("placeholder")).toBe("What should change (optional)");
		note.value = "  Start with the title.  ";
		noted.one("ccb-agent-keep-planning").dispatch("click");
		expect(noted.answers).toEqual([{ kind: "deny", reason: "Start with the title." }]);
		const silent = card();
		silent.one("ccb-agent-keep-planning").dispatch("click");
		expect(silent.answers).toEqual([{ kind: "deny" }]);
	});

	it("is answered by keyboard alone: every control is a button, a field or the edit box", () => {
		const { element, one } = card();
		expect(unreachableByKeyboard(element)).toEqual([]);
		one("ccb-agent-edit-plan").dispatch("click");
		expect(unreachableByKeyboard(element)).toEqual([]);
		expect(one("ccb-agent-edit-plan").attributes.get("aria-pressed")).toBe("true");
		expect(one("ccb-agent-plan-editor").attributes.get("aria-label")).toBe(
			"The plan, to change before approving it",
		);
	});

	it("folds once settled, says how, and keeps the plan readable behind Show plan (the user's version when changed)", () => {
		const approved = card("allowed");
		expect(approved.one("ccb-agent-permission-outcome").textContent).toBe("Plan approvedShow plan");
		expect(approved.element.findAll("ccb-agent-plan")).toEqual([]);
		approved.one("ccb-agent-tool-toggle").dispatch("click");
		expect(approved.one("ccb-agent-plan").textContent).toContain("Open with the storm");
		const changed = card("allowed");
		changed.edit.text = "1. Only the storm";
		changed.draw();
		expect(changed.one("ccb-agent-permission-outcome").textContent).toBe(
			"Plan approved with your changesShow plan",
		);
		changed.one("ccb-agent-tool-toggle").dispatch("click");
		expect(changed.one("ccb-agent-plan").textContent).toBe("Only the storm");
		expect(card("denied").one("ccb-agent-permission-outcome").textContent).toBe(
			"You asked Claude to keep planningShow plan",
		);
	});

	it("without a plan file, asks to stop planning with no plan to show or edit", () => {
		const { element, one } = card("pending", null);
		expect(one("ccb-agent-permission-question").text).toBe("Claude asks to stop planning and start working.");
		expect(element.findAll("ccb-agent-edit-plan")).toEqual([]);
		expect(element.findAll("ccb-agent-plan")).toEqual([]);
	});
});
