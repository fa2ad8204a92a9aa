"""The Messages API as the seed report's harness scripted it, for `ccrepro bench-seed` (harness.sh starts it).

Requests are told apart by the marker in their first user message. The main session launches a background subagent
and then only ends its turns. The subagent starts T1 in the background (1 s), waits 5 s in the foreground so T1 ends
mid-turn (its notification is absorbed), starts T2 in the background (4 s) and ends its turn; T2's notification
wakes it, and it ends. Every request body is logged as REQUESTS/NNNN.json with a line in REQUESTS/index.jsonl.
Usage: mock_api.py REQUESTS_DIR PORT_FILE
"""
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from json_strings import strings

MAIN, SUB = "SEED_MAIN_7Q", "SEED_SUB_7Q"
SUB_REPLIES = [
    ("tool_use", "Bash", {"command": "sleep 1; echo T1-done", "description": "T1 background", "run_in_background": True}),
    ("tool_use", "Bash", {"command": "sleep 5; echo fg-done", "description": "foreground wait"}),
    ("tool_use", "Bash", {"command": "sleep 4; echo T2-done", "description": "T2 background", "run_in_background": True}),
    ("text", "Waiting for T2 to finish.", None),
]
lock = threading.Lock()
count = [0]


def reply_for(body):
    tools = [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
    messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
    first_user = next((m for m in messages if m.get("role") == "user"), {})
    prompt = "\n".join(strings(first_user.get("content", "")))
    step = sum(1 for m in messages if m.get("role") == "assistant")
    if "Bash" in tools and SUB in prompt:
        return "sub", SUB_REPLIES[step] if step < len(SUB_REPLIES) else ("text", "All done.", None)
    if "Bash" in tools and MAIN in prompt:
        agent = "Agent" if "Agent" in tools else "Task"
        if step == 0:
            return "main", ("tool_use", agent, {"description": "background worker", "prompt": f"{SUB} run the scripted steps.",
                                                "subagent_type": "general-purpose", "run_in_background": True})
        return "main", ("text", "main done", None)
    return "other", ("text", "ok", None)


def event(name, data):
    return f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_json(self, status, value):
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.send_json(200, {})

    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        route = self.path.split("?")[0]
        if route.endswith("/count_tokens"):
            return self.send_json(200, {"input_tokens": 1000})
        if not route.endswith("/v1/messages"):
            return self.send_json(404, {"type": "error", "error": {"type": "not_found_error", "message": route}})
        body = json.loads(raw)
        stream, (kind, name, tool_input) = reply_for(body)
        with lock:
            count[0] += 1
            n = count[0]
            with open(os.path.join(REQUESTS, f"{n:04d}.json"), "wb") as f:
                f.write(raw)
            with open(os.path.join(REQUESTS, "index.jsonl"), "a") as f:
                f.write(json.dumps({"n": n, "stream": stream, "reply": kind}) + "\n")
        usage = {"input_tokens": 100, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
        if kind == "tool_use":
            block, delta, stop = {"type": "tool_use", "id": f"toolu_seed_{n:04d}", "name": name, "input": {}}, \
                {"type": "input_json_delta", "partial_json": json.dumps(tool_input)}, "tool_use"
        else:
            block, delta, stop = {"type": "text", "text": ""}, {"type": "text_delta", "text": name}, "end_turn"
        message = {"id": f"msg_seed_{n:04d}", "type": "message", "role": "assistant", "model": body.get("model"),
                   "content": [], "stop_reason": None, "stop_sequence": None, "usage": usage}
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("connection", "close")
        self.end_headers()
        self.wfile.write(b"".join([
            event("message_start", {"type": "message_start", "message": message}),
            event("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
            event("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            event("content_block_stop", {"type": "content_block_stop", "index": 0}),
            event("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                    "usage": {"output_tokens": 5}}),
            event("message_stop", {"type": "message_stop"}),
        ]))
        self.close_connection = True


if __name__ == "__main__":
    REQUESTS, port_file = sys.argv[1], sys.argv[2]
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(port_file, "w") as f:
        f.write(str(server.server_address[1]))
    server.serve_forever()
