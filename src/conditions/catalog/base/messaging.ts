/**
 * Team messaging (LabChat): direct messages, channel posts and artifact sharing. Answers carry
 * `ok`, and errors a snake_case `error`, as Slack-like APIs write them.
 */
import { bool, int, oneOf, out, pageSize, pageToken, str, strList, type ToolSpec } from "../spec.ts";

const INVALID = { ok: false, error: "invalid_arguments", detail: "{@message}" };

export const MESSAGING: ToolSpec = {
  tool: "messaging",
  description:
    "Team messaging (LabChat): direct messages to colleagues, posts to team channels and threads, and sharing of data artifacts with a permission and expiry.",
  endpoints: [
    {
      name: "send",
      description:
        "Send a direct message to a colleague by e-mail address, optionally with a subject line and attached artifacts.",
      params: {
        recipient: str("recipient e-mail address"),
        message: str("message text"),
        subject: str("subject line"),
        attachments: strList("identifiers of artifacts to attach, e.g. ['ART-5520']"),
      },
      required: ["recipient", "message"],
      access: "write",
      outputs: [
        out("message_id", "string", "identifier of the message"),
        out("status", "string", "delivered or queued"),
      ],
      replies: {
        success: { ok: true, message_id: "MSG-{@id}", recipient: "{recipient}", status: "delivered" },
        not_found: { ok: false, error: "user_not_found", detail: "no colleague has the address {recipient}" },
        validation_error: INVALID,
      },
    },
    {
      name: "post",
      description: "Post a message to a team channel, or reply in one of its threads.",
      params: {
        channel: str("channel name, e.g. '#furnace-ops', or channel id"),
        text: str("message text"),
        thread_id: str("reply in this thread instead of the channel"),
      },
      required: ["channel", "text"],
      access: "write",
      outputs: [
        out("post_id", "string", "identifier of the post"),
        out("channel", "string", "channel posted to"),
      ],
      replies: {
        success: { ok: true, channel: "{channel}", post_id: "PST-{@id}" },
        not_found: { ok: false, error: "channel_not_found", detail: "no channel {channel}" },
        validation_error: INVALID,
      },
    },
    {
      name: "share",
      description:
        "Share a data artifact with a colleague with view, comment or edit permission, optionally expiring after some days.",
      params: {
        recipient: str("recipient e-mail address"),
        artifact_id: str("artifact identifier"),
        permission: oneOf(["view", "comment", "edit"], "what the recipient may do (default view)", "view"),
        expires_in_days: int("days until the share lapses (omit for no expiry)", {
          minimum: 1,
          maximum: 365,
        }),
      },
      required: ["recipient", "artifact_id"],
      access: "write",
      outputs: [out("share_id", "string", "identifier of the share"), out("status", "string", "shared")],
      replies: {
        success: {
          ok: true,
          share_id: "SHR-{@id}",
          artifact_id: "{artifact_id}",
          recipient: "{recipient}",
          permission: "{permission}",
          status: "shared",
        },
        not_found: { ok: false, error: "artifact_not_found", detail: "no artifact {artifact_id}" },
        validation_error: INVALID,
      },
    },
    {
      name: "channels",
      description:
        "List the team channels you can post to, with their purpose and member count, optionally matching a name.",
      params: {
        query: str("part of the channel name or purpose"),
        include_archived: bool("also list archived channels (default false)", false),
        page_size: pageSize(200, 50),
        page_token: pageToken(),
      },
      required: [],
      access: "read",
      outputs: [
        out("channels", "array", "channel_id, name, purpose, members, archived"),
        out("next_page_token", "string", "token of the next page, null on the last"),
      ],
      replies: { empty: { ok: true, channels: [], next_page_token: null }, validation_error: INVALID },
    },
  ],
};
