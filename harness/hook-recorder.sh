#!/bin/bash
# Claude Code hook command: keeps the hook's JSON payload byte-exact in its own file and appends one index line.
# Usage: hook-recorder.sh EVENT HOOKS_DIR INDEX_FILE                       record only
#        hook-recorder.sh EVENT HOOKS_DIR INDEX_FILE --skip NAMES          record only, except tool calls named in
#                                                                          NAMES (A|B): an answering rule records those
#        hook-recorder.sh EVENT HOOKS_DIR INDEX_FILE --answer RULE DIR REL record, then answer as rule RULE, whose
#                                                                          files are in DIR (REL: DIR from the run dir)
# Bash builtins only besides `cat` (and `rm` for a skipped call), so it adds no visible delay; a shell reply runs the
# author's command through `setsid bash`.
started_us=${EPOCHREALTIME/./}
event=$1 dir=$2 index=$3 mode=$4
name="$started_us-$$-$event.json"
# Never fail a recording hook: a recorder error must not change the session's behaviour (stderr goes first, so a
# redirection that cannot open its file is silent too).
cat 2>/dev/null > "$dir/$name"

if [[ $mode == --skip ]]; then
  # The payload's own "tool_name" key: inside a JSON string its quotes are escaped, so tool input cannot fake it.
  IFS= read -r -N 65536 head 2>/dev/null < "$dir/$name"
  if [[ $head =~ \"tool_name\":[[:space:]]*\"([^\"]*)\" && "|$5|" == *"|${BASH_REMATCH[1]}|"* ]]; then
    rm -f "$dir/$name" 2>/dev/null
    exit 0
  fi
fi

answer=""
code=0
if [[ $mode == --answer ]]; then
  rule=$5 adir=$6 arel=$7
  count=0
  read -r count 2>/dev/null < "$adir/count"
  # The call index: the first n for which this call creates calls/<n> itself. Under noclobber bash opens with
  # O_CREAT|O_EXCL, which the kernel makes atomic (the file twin of an atomic mkdir, without exec'ing mkdir or
  # flock), so hooks that fire at the same moment each get their own index. Claims are never removed, so they are
  # always 0..m-1: counting them is a safe place to start, and a call that loses a race moves on to the next index.
  shopt -s nullglob
  claimed=("$adir/calls"/*)
  call=${#claimed[@]}
  set -o noclobber
  until { echo "$name" > "$adir/calls/$call"; } 2>/dev/null; do
    # A failure that is not "taken" (the directory is gone): no index can be claimed.
    if [[ ! -e "$adir/calls/$call" ]]; then call=-1; break; fi
    call=$((call + 1))
  done
  set +o noclobber
  if (( call < 0 || count < 1 )); then
    echo "ccrepro hook answer (rule $rule): cannot claim a call index or read the replies in $adir" >&2
    code=1
    answer=',"answerError":"no call index or no replies"'
  else
    # Calls past the list get the last reply.
    reply=$(( call < count ? call : count - 1 ))
    if [[ -f "$adir/$reply.shell" ]]; then
      # The author's own command, with the payload on stdin, in a process group of its own (setsid) so that when claude
      # ends this hook at its timeout the whole command goes too. Its output is kept per call, then printed for claude.
      # `wait` returns when a trapped signal arrives, so the line below records the signal instead of being lost.
      signal=""
      setsid bash "$adir/$reply.shell" < "$dir/$name" > "$adir/out/$call.stdout" 2> "$adir/out/$call.stderr" &
      child=$!
      for sig in TERM INT HUP QUIT PIPE; do trap "signal=$sig; kill -TERM -- -$child 2>/dev/null" "$sig"; done
      wait "$child"
      code=$?
      trap - TERM INT HUP QUIT PIPE
      cat "$adir/out/$call.stdout"
      cat "$adir/out/$call.stderr" >&2
      ended=""
      [[ -n $signal ]] && ended=',"signal":"'$signal'"'
      printf -v answer ',"answer":{"rule":%d,"call":%d,"reply":%d,"exitCode":%d,"shell":true%s,"stdoutFile":"%s/out/%d.stdout","stderrFile":"%s/out/%d.stderr"}' \
        "$rule" "$call" "$reply" "$code" "$ended" "$arel" "$call" "$arel" "$call"
    else
      read -r code 2>/dev/null < "$adir/$reply.exit"
      [[ $code =~ ^[0-9]+$ ]] || code=1
      cat "$adir/$reply.stdout"
      cat "$adir/$reply.stderr" >&2
      printf -v answer ',"answer":{"rule":%d,"call":%d,"reply":%d,"exitCode":%d,"stdoutFile":"%s/%d.stdout","stderrFile":"%s/%d.stderr"}' \
        "$rule" "$call" "$reply" "$code" "$arel" "$reply" "$arel" "$reply"
    fi
  fi
fi

took_us=$(( ${EPOCHREALTIME/./} - started_us ))
printf -v line '{"t":%d.%03d,"event":"%s","durationMs":%d.%03d,"payloadFile":"hooks/%s"%s}' \
  $((started_us / 1000)) $((started_us % 1000)) "$event" $((took_us / 1000)) $((took_us % 1000)) "$name" "$answer"
# One short line per write: appends of this size land whole even when hooks fire concurrently.
echo "$line" 2>/dev/null >> "$index"
exit "$code"
