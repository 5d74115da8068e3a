import { runDoctor, type DoctorInputs } from "../ide/doctor/doctor";
import { formatDoctorReport } from "../ide/doctor/doctor-line";
import type { HeadlessCommand } from "./command-loop";

/** `doctor`: the settings tab's "Check connection", as text. `inputs` is read when the command runs. */
export function doctorCommand(inputs: () => DoctorInputs | Promise<DoctorInputs>): HeadlessCommand {
	return {
		usage: "doctor",
		summary: "check why /ide might not list this vault, and how to start Claude Code here",
		run: async () => formatDoctorReport(await runDoctor(await inputs())),
	};
}
