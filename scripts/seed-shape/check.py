"""The seed report's check, in shape, for `ccrepro bench-seed`: whether a task notification the subagent already
sent keeps its bytes in the first request after the subagent's resume.

A resume is a subagent request that follows one answered with text (the subagent went idle, then was woken). Every
string holding a <task-notification>, keyed by its task id and message index, that both requests carry must be equal.
Usage: check.py REQUESTS_DIR    exit 1 RED (one changed), 0 GREEN, 2 INCONCLUSIVE (no resume, or nothing shared).
"""
import json
import os
import re
import sys

from json_strings import strings

NOTIFICATION = re.compile(r"<task-notification>\s*<task-id>([^<]+)</task-id>")


def notifications(body):
    found = {}
    for index, message in enumerate(body.get("messages") or []):
        for text in strings(message.get("content")):
            for match in NOTIFICATION.finditer(text):
                found[(match.group(1), index)] = text
    return found


requests = sys.argv[1]
index_file = os.path.join(requests, "index.jsonl")
rows = [json.loads(line) for line in open(index_file)] if os.path.exists(index_file) else []
sub = [row for row in rows if row["stream"] == "sub"]
resumes = [(before, after) for before, after in zip(sub, sub[1:]) if before["reply"] == "text"]
body = lambda row: json.load(open(os.path.join(requests, f"{row['n']:04d}.json")))
compared = changed = 0
for before, after in resumes:
    a, b = notifications(body(before)), notifications(body(after))
    for key in sorted(set(a) & set(b)):
        compared += 1
        changed += a[key] != b[key]
        print(f"{'CHANGED' if a[key] != b[key] else 'same'} {key[0]} at message {key[1]}: {len(a[key])} -> {len(b[key])} chars")
if not compared:
    print("INCONCLUSIVE: no notification was sent again after a resume")
    sys.exit(2)
print("RED" if changed else "GREEN")
sys.exit(1 if changed else 0)
