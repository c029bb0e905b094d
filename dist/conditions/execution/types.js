export const EXECUTOR_ERROR_CODES = [
    "malformed_tool_call",
    "unknown_tool",
    "unexpected_arguments",
    "missing_required_argument",
    "invalid_type",
    "unavailable_tool",
    "destructive_policy_block",
    "parallel_tool_call_requires_observation",
    "invalid_task_arguments",
];
