/**
 * Distractors from people and collaboration services: calendars, the staff directory and HR,
 * safety and skills training, video meetings, surveys and the internal newsletter.
 */
import { replyStyle } from "../reply-styles.ts";
import {
  bool,
  date,
  instant,
  int,
  oneOf,
  out,
  pageSize,
  pageToken,
  str,
  strList,
  type ToolSpec,
} from "../spec.ts";

const cal = replyStyle("google");
export const CALENDAR: ToolSpec = {
  tool: "calendar",
  description: "Group calendar: people's events, meeting invitations and free/busy times.",
  endpoints: [
    {
      name: "list_events",
      description:
        "Events on a person's calendar between two instants, with organiser, attendees and location.",
      params: {
        calendar_id: str("calendar owner's e-mail address"),
        time_min: instant("events ending after this instant"),
        time_max: instant("events starting before this instant"),
        page_size: pageSize(250, 50),
        page_token: pageToken(),
      },
      required: ["calendar_id"],
      access: "read",
      outputs: [out("events", "array", "event_id, summary, start, end, organizer, location")],
      replies: cal.list("events"),
    },
    {
      name: "create_event",
      description: "Create a calendar event and invite attendees by e-mail, optionally with a meeting room.",
      params: {
        summary: str("event title"),
        start: instant("start"),
        end: instant("end"),
        attendees: strList("attendees' e-mail addresses"),
        room: str("meeting room, e.g. 'B1-Seminar'"),
      },
      required: ["summary", "start", "end"],
      access: "write",
      outputs: [out("event_id", "string", "identifier of the event")],
      replies: cal.write({ id: "EV-{@id}", summary: "{summary}", status: "confirmed" }),
    },
    {
      name: "free_busy",
      description: "Busy periods of several people between two instants, to find a common meeting time.",
      params: {
        people: strList("e-mail addresses"),
        time_min: instant("window start"),
        time_max: instant("window end"),
      },
      required: ["people", "time_min", "time_max"],
      access: "read",
      outputs: [out("busy", "object", "busy intervals per person")],
      replies: cal.get("calendar", "people"),
    },
    {
      name: "delete_event",
      description: "Delete an event you organise and send cancellations to all its attendees.",
      params: { event_id: str("event identifier"), notify: bool("send cancellations (default true)", true) },
      required: ["event_id"],
      access: "destructive",
      outputs: [out("deleted", "boolean", "true")],
      replies: cal.write({ id: "{event_id}", status: "cancelled" }, ["event", "event_id"]),
    },
  ],
};

const hr = replyStyle("odata");
export const HR: ToolSpec = {
  tool: "hr",
  description: "Human resources: the staff directory, organisation chart, leave balances and leave requests.",
  endpoints: [
    {
      name: "employee",
      description:
        "A colleague's directory entry: name, job title, department, line manager, office and phone.",
      params: { employee_id: str("employee number or e-mail address") },
      required: ["employee_id"],
      access: "read",
      outputs: [out("employee", "object", "name, title, department, manager, office, phone")],
      replies: hr.get("employee", "employee_id"),
    },
    {
      name: "org_chart",
      description: "The reporting line above a person and the people who report to them.",
      params: {
        employee_id: str("employee number"),
        depth: int("levels below (default 1)", { minimum: 1, maximum: 4, default: 1 }),
      },
      required: ["employee_id"],
      access: "read",
      outputs: [
        out("managers", "array", "chain of managers"),
        out("reports", "array", "direct and indirect reports"),
      ],
      replies: hr.get("employee", "employee_id"),
    },
    {
      name: "leave_balance",
      description:
        "Days of annual leave, carried-over leave and overtime compensation a person has left this year.",
      params: { employee_id: str("employee number") },
      required: ["employee_id"],
      access: "read",
      outputs: [out("balances", "array", "type, days_left")],
      replies: hr.get("employee", "employee_id"),
    },
    {
      name: "request_leave",
      description: "Request days of leave for your line manager's approval.",
      params: {
        from_date: date("first day"),
        to_date: date("last day"),
        type: oneOf(["annual", "unpaid", "parental", "compensation"], "kind of leave"),
      },
      required: ["from_date", "to_date", "type"],
      access: "write",
      outputs: [out("request_id", "string", "leave request")],
      replies: hr.write({ requestId: "LV-{@id}", state: "pending" }),
    },
  ],
};

const lms = replyStyle("jsonapi");
export const TRAINING: ToolSpec = {
  tool: "training",
  description:
    "Learning management: safety and skills courses, enrolments and the training records staff need for restricted work.",
  endpoints: [
    {
      name: "courses",
      description:
        "Search the course catalogue (laser safety, cryogens, first aid, GMP, …) with duration, format and next dates.",
      params: {
        query: str("course topic"),
        format: oneOf(["online", "classroom", "practical"], "delivery format"),
      },
      required: [],
      access: "read",
      outputs: [out("courses", "array", "course_id, title, duration_hours, format, next_dates")],
      replies: lms.list("courses"),
    },
    {
      name: "enrol",
      description: "Enrol a person on a session of a course; the line manager is notified.",
      params: {
        course_id: str("course identifier"),
        session_date: date("session date"),
        employee_id: str("who attends"),
      },
      required: ["course_id", "employee_id"],
      access: "write",
      outputs: [out("enrolment_id", "string", "enrolment")],
      replies: lms.write({ enrolment_id: "EN-{@id}", course_id: "{course_id}" }, ["course", "course_id"]),
    },
    {
      name: "training_record",
      description:
        "Courses a person has completed with completion dates, certificates and expiry of refreshers.",
      params: { employee_id: str("employee number") },
      required: ["employee_id"],
      access: "read",
      outputs: [out("completions", "array", "course_id, title, completed_on, expires_on")],
      replies: lms.get("employee", "employee_id"),
    },
  ],
};

const video = replyStyle("problem");
export const VIDEO_MEETINGS: ToolSpec = {
  tool: "video_meetings",
  description: "Video conferencing: online meetings, dial-in details and cloud recordings.",
  endpoints: [
    {
      name: "create_meeting",
      description:
        "Create an online meeting with a join link and dial-in numbers for a start time and duration.",
      params: {
        topic: str("meeting topic"),
        start: instant("start"),
        duration_minutes: int("length", { minimum: 15, maximum: 480 }),
      },
      required: ["topic", "start"],
      access: "write",
      outputs: [out("join_url", "string", "join link"), out("meeting_id", "string", "meeting number")],
      replies: video.write({
        meeting_id: "{@id}",
        topic: "{topic}",
        join_url: "https://meet.lab.example/j/{@id}",
      }),
    },
    {
      name: "recordings",
      description:
        "Cloud recordings of your meetings in a period, with duration, size and transcript availability.",
      params: { from_date: date("from"), to_date: date("to") },
      required: [],
      access: "read",
      outputs: [out("recordings", "array", "recording_id, topic, recorded_at, duration_minutes, transcript")],
      replies: video.list("recordings"),
    },
    {
      name: "delete_recording",
      description: "Delete a cloud recording and its transcript for everyone it was shared with.",
      params: { recording_id: str("recording identifier") },
      required: ["recording_id"],
      access: "destructive",
      outputs: [out("deleted", "boolean", "true")],
      replies: video.write({ recording_id: "{recording_id}", deleted: true }, ["recording", "recording_id"]),
    },
  ],
};

const survey = replyStyle("spring");
export const SURVEYS: ToolSpec = {
  tool: "surveys",
  description: "Staff surveys: questionnaires and their anonymised responses.",
  endpoints: [
    {
      name: "create_survey",
      description:
        "Create a questionnaire with a title, questions and a closing date, to send to a distribution list.",
      params: {
        title: str("survey title"),
        questions: strList("question texts"),
        closes_on: date("closing date"),
      },
      required: ["title", "questions"],
      access: "write",
      outputs: [out("survey_id", "string", "identifier of the survey")],
      replies: survey.write({ surveyId: "SV-{@id}", title: "{title}" }),
    },
    {
      name: "responses",
      description: "Anonymised responses to a survey with per-question counts and free-text answers.",
      params: { survey_id: str("survey identifier") },
      required: ["survey_id"],
      access: "read",
      outputs: [out("summary", "array", "question, counts, free_text")],
      replies: survey.get("survey", "survey_id"),
    },
    {
      name: "close_survey",
      description: "Close a survey early and delete the responses of anyone who asked to withdraw.",
      params: { survey_id: str("survey identifier") },
      required: ["survey_id"],
      access: "destructive",
      outputs: [out("closed", "boolean", "true")],
      replies: survey.write({ surveyId: "{survey_id}", closed: true }, ["survey", "survey_id"]),
    },
  ],
};

const news = replyStyle("fault");
export const NEWSLETTER: ToolSpec = {
  tool: "newsletter",
  description: "Internal newsletter: e-mail campaigns to staff lists and their open and click statistics.",
  endpoints: [
    {
      name: "campaigns",
      description: "Newsletter campaigns sent or scheduled, with list, subject and send date.",
      params: { status: oneOf(["draft", "scheduled", "sent"], "only this status") },
      required: [],
      access: "read",
      outputs: [out("campaigns", "array", "campaign_id, subject, list, send_at, status")],
      replies: news.list("campaigns"),
    },
    {
      name: "campaign_stats",
      description: "Opens, clicks, bounces and unsubscribes of a sent newsletter campaign.",
      params: { campaign_id: str("campaign identifier") },
      required: ["campaign_id"],
      access: "read",
      outputs: [out("stats", "object", "recipients, opens, clicks, bounces, unsubscribes")],
      replies: news.get("campaign", "campaign_id"),
    },
    {
      name: "send_campaign",
      description: "Send a drafted newsletter campaign to its list now or at a scheduled time.",
      params: { campaign_id: str("campaign identifier"), send_at: instant("when to send (default now)") },
      required: ["campaign_id"],
      access: "write",
      outputs: [out("status", "string", "scheduled or sending")],
      replies: news.write({ campaign_id: "{campaign_id}", status: "sending" }, ["campaign", "campaign_id"]),
    },
  ],
};
