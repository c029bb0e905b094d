/**
 * The base suite: the laboratory's own services, the routes the tasks require — one spec file per
 * tool, listed here in catalog order.
 */
import type { ToolSpec } from "../spec.ts";
import { BOOKINGS } from "./bookings.ts";
import { EXPORTS } from "./exports.ts";
import { INSTRUMENTS } from "./instruments.ts";
import { INVENTORY } from "./inventory.ts";
import { MATERIALS } from "./materials.ts";
import { MESSAGING } from "./messaging.ts";
import { PAPERS } from "./papers.ts";
import { RUNTIME } from "./runtime.ts";
import { SAMPLES } from "./samples.ts";
import { SDS } from "./sds.ts";
import { STANDARDS } from "./standards.ts";
import { SUPPLIERS } from "./suppliers.ts";

export const BASE_TOOLS: readonly ToolSpec[] = [
  MATERIALS,
  PAPERS,
  INSTRUMENTS,
  SAMPLES,
  STANDARDS,
  SDS,
  INVENTORY,
  SUPPLIERS,
  BOOKINGS,
  EXPORTS,
  RUNTIME,
  MESSAGING,
];
