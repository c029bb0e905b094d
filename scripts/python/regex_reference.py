"""CPython's answer for the regex search's translation test (test/conditions/search/regex-python.test.ts).

Reads {"patterns": [...], "texts": [...]} on stdin; writes, per pattern, either {"error": message}
when `re.compile` refuses it, or {"matches": "0110…"}: `re.search(pattern, text)` per text.
"""
import json
import re
import sys
import warnings

warnings.simplefilter("ignore")  # FutureWarning for possible set operations: Python still accepts them.
request = json.load(sys.stdin)
answers = []
for pattern in request["patterns"]:
    try:
        compiled = re.compile(pattern)
    except re.error as error:
        answers.append({"error": str(error)})
        continue
    answers.append({"matches": "".join("1" if compiled.search(t) else "0" for t in request["texts"])})
json.dump(answers, sys.stdout)
