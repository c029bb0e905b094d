/**
 * The distractors, hand-specified services of neighbouring domains, in two tiers (the first in
 * every catalog from 100 endpoints, the second added by the 250 catalog) and a spare tier that
 * only a catalog larger than 250 shows.
 */
import type { ToolSpec } from "../spec.ts";
import { CONTRACTS, CRM, ISSUE_TRACKER } from "./business.ts";
import { DOCUMENTS, DOC_TRANSLATION, PATENTS, WIKI } from "./documents.ts";
import {
  ACCESS_CONTROL,
  BUILDING_MANAGEMENT,
  CANTEEN,
  ENERGY_METERING,
  FACILITIES,
  PARKING,
  SITE_WEATHER,
  VISITORS,
} from "./facilities.ts";
import { ACCOUNTS_PAYABLE, EXPENSES, GRANTS, PROCUREMENT, TIMESHEETS, TRAVEL } from "./finance.ts";
import { DATA_WAREHOUSE, INFRA_MONITORING, OBJECT_STORAGE } from "./infrastructure.ts";
import { CI_PIPELINES, GIT_HOSTING, HELPDESK, IDENTITY, IT_ASSETS, PRINTING } from "./it.ts";
import { EQUIPMENT_MAINTENANCE, FLEET, SHIPPING } from "./logistics.ts";
import { CALENDAR, HR, NEWSLETTER, SURVEYS, TRAINING, VIDEO_MEETINGS } from "./people.ts";

export const DISTRACTORS_FIRST: readonly ToolSpec[] = [
  FACILITIES,
  PROCUREMENT,
  HELPDESK,
  CI_PIPELINES,
  CALENDAR,
  ACCESS_CONTROL,
];

export const DISTRACTORS_SECOND: readonly ToolSpec[] = [
  CRM,
  DOCUMENTS,
  IT_ASSETS,
  HR,
  EXPENSES,
  TRAVEL,
  WIKI,
  GIT_HOSTING,
  INFRA_MONITORING,
  BUILDING_MANAGEMENT,
  CANTEEN,
  VISITORS,
  TRAINING,
  SHIPPING,
  CONTRACTS,
  GRANTS,
  IDENTITY,
  PRINTING,
  VIDEO_MEETINGS,
  NEWSLETTER,
  SURVEYS,
  ISSUE_TRACKER,
  OBJECT_STORAGE,
  DATA_WAREHOUSE,
  SITE_WEATHER,
  ENERGY_METERING,
  PATENTS,
  DOC_TRANSLATION,
  ACCOUNTS_PAYABLE,
  TIMESHEETS,
  EQUIPMENT_MAINTENANCE,
  FLEET,
];

export const DISTRACTORS_SPARE: readonly ToolSpec[] = [PARKING];
