#!/bin/bash
# Claude Code hook command: keeps the hook's JSON payload byte-exact in its own file and appends one index line.
# Usage: hook-recorder.sh EVENT HOOKS_DIR INDEX_FILE. Bash builtins only after `cat`, so it adds no visible delay.
started_us=${EPOCHREALTIME/./}
event=$1 dir=$2 index=$3
name="$started_us-$$-$event.json"
# Never fail the hook: a recorder error must not change the session's behaviour (stderr goes first, so a
# redirection that cannot open its file is silent too).
cat 2>/dev/null > "$dir/$name"
took_us=$(( ${EPOCHREALTIME/./} - started_us ))
printf -v line '{"t":%d.%03d,"event":"%s","durationMs":%d.%03d,"payloadFile":"hooks/%s"}' \
  $((started_us / 1000)) $((started_us % 1000)) "$event" $((took_us / 1000)) $((took_us % 1000)) "$name"
# One short line per write: appends of this size land whole even when hooks fire concurrently.
echo "$line" 2>/dev/null >> "$index"
exit 0
