#!/bin/bash
# The seed report's harness, in shape, for `ccrepro bench-seed`: a Python mock of the Messages API, the binary driven
# over stream-json with its stdin held open for a fixed HOLD seconds (15, as the report's), then a Python check of
# the logged requests. Written for the bench from the report's facts (the hold, the mock's replies, the exit codes).
# Usage: harness.sh RUN_DIR COMMAND [ARGS...]    exit 1 RED, 0 GREEN, 2 INCONCLUSIVE, 3 harness error.
set -u
here=$(cd "$(dirname "$0")" && pwd)
run=${1:?usage: harness.sh RUN_DIR COMMAND [ARGS...]}
shift
hold=${HOLD:-15}
mkdir -p "$run/home" "$run/tmp" "$run/config" "$run/work" "$run/requests" || exit 3
python3 -B "$here/mock_api.py" "$run/requests" "$run/port" > "$run/mock.log" 2>&1 &
mock=$!
trap 'kill "$mock" 2>/dev/null' EXIT
for _ in $(seq 100); do [ -s "$run/port" ] && break; sleep 0.1; done
[ -s "$run/port" ] || { cat "$run/mock.log"; exit 3; }
cd "$run/work" || exit 3
# The session must outlive the subagent's idle spell and the resume after it, so stdin stays open for the hold.
{ printf '%s\n' '{"type":"user","message":{"role":"user","content":"SEED_MAIN_7Q start the background worker"}}'; sleep "$hold"; } |
  env -i HOME="$run/home" PATH=/usr/local/bin:/usr/bin:/bin SHELL=/bin/bash TERM=dumb LANG=C.UTF-8 \
    TMPDIR="$run/tmp" CLAUDE_CODE_TMPDIR="$run/tmp" CLAUDE_CONFIG_DIR="$run/config" IS_SANDBOX=1 \
    ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$run/port")" ANTHROPIC_API_KEY=mock-key-000 \
    DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 \
    timeout 120 "$@" -p --input-format stream-json --output-format stream-json --verbose --model claude-opus-4-1 \
    --dangerously-skip-permissions --setting-sources user > "$run/stdout.jsonl" 2> "$run/stderr.txt"
kill "$mock" 2>/dev/null
python3 -B "$here/check.py" "$run/requests"
