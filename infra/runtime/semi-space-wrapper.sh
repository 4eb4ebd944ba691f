#!/bin/sh
# Lambda exec wrapper (AWS_LAMBDA_EXEC_WRAPPER) of the functions that archive.
#
# The Node.js runtime starts `node` with --max-semi-space-size set to a twentieth of the
# function's memory (51 MB at 1,024 MB), on its command line, where NODE_OPTIONS cannot
# override it. For a walk of thousands of ~3 MB pages that young generation is mostly garbage
# the process keeps: the report fetcher peaked at 330 MB archiving a million endpoints with it
# and at about 200 MB with 8 MB semi-spaces, and was no slower (docs/performance.md).
#
# Lambda calls this script with the node binary and the arguments it would have started it
# with. The script replaces the runtime's --max-semi-space-size with SKYWATCH_V8_SEMI_SPACE_MB,
# keeps every other argument as it was, and starts the runtime in its place (exec). A value
# that is not a positive whole number of MB is reported and ignored: a tuning knob must never keep the
# function from starting.
semi_space_mb=${SKYWATCH_V8_SEMI_SPACE_MB:-}
case $semi_space_mb in
  '' | *[!0-9]* | 0*)
    echo "semi-space-wrapper: SKYWATCH_V8_SEMI_SPACE_MB='$semi_space_mb' is not a positive whole number of MB; starting with the runtime's flags" >&2
    exec "$@"
    ;;
esac
flag="--max-semi-space-size=$semi_space_mb"

node=$1
shift
replaced=false
in_options=true
# Rebuild the arguments in place (POSIX sh has no arrays): each is shifted off the front and
# pushed back at the end. Node's options come before the entry script (the runtime's
# /var/runtime/index.mjs); only there is the runtime's semi-space flag replaced by ours.
for arg do
  shift
  case $in_options$arg in
    true--max-semi-space-size=*)
      arg=$flag
      replaced=true
      ;;
    true*.mjs | true*.cjs | true*.js) in_options=false ;;
  esac
  set -- "$@" "$arg"
done
if [ "$replaced" = false ]; then
  # A runtime that no longer passes the flag: ours goes first, before the entry script.
  set -- "$flag" "$@"
fi
exec "$node" "$@"
