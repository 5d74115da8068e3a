import type { Notifier } from "../../ide/notifier";
export type Planted = Notifier;
