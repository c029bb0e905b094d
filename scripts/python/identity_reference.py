"""Reference implementation of fabench's identity hashes and query normaliser.

Standard library only. Reads a JSON array or JSONL corpus and prints one JSON object:
{"identity_sha256", "query_content_sha256", "normalized": [normalised query per row]}.
With --normalize, reads a JSON list of strings on stdin and prints their normalised forms.
Python's own str.casefold() and str.isspace() are the reference the TypeScript code follows
(for code points assigned in this Python's Unicode version).
"""
import hashlib
import json
import sys
import unicodedata


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def normalize(text):
    text = unicodedata.normalize("NFKC", text)
    out, in_space = [], False
    for ch in text:
        if ch.isspace():
            if not in_space:
                out.append(" ")
            in_space = True
        else:
            out.append(ch)
            in_space = False
    return "".join(out).strip(" ").casefold()


def load_rows(path):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    if path.endswith(".jsonl"):
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    data = json.loads(text)
    return data if isinstance(data, list) else data.get("tasks", data.get("rows"))


def main():
    if sys.argv[1:] == ["--normalize"]:
        # null where this Python's Unicode version does not know a code point: no verdict there.
        known = lambda s: all(unicodedata.category(ch) != "Cn" for ch in s)
        print(json.dumps([normalize(s) if known(s) else None for s in json.load(sys.stdin)], ensure_ascii=False))
        return
    rows = sorted(load_rows(sys.argv[1]), key=lambda r: r["semantic_task_id"])
    identity = [{k: r[k] for k in ("semantic_task_id", "answer_task_stratum", "language")} for r in rows]
    queries = [{"semantic_task_id": r["semantic_task_id"], "query": r["query"]} for r in rows]
    print(json.dumps({
        "identity_sha256": hashlib.sha256(canonical(identity)).hexdigest(),
        "query_content_sha256": hashlib.sha256(canonical(queries)).hexdigest(),
        "normalized": [normalize(r["query"]) for r in rows],
    }, ensure_ascii=False))


if __name__ == "__main__":
    main()
