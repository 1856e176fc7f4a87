#!/usr/bin/env bash
# Scores a candidate's patched fetch-client starter in one go: the fence (frozen tests and pom as handed out),
# then the frozen tests with the interviewer's tests beside them. Nothing in the candidate's folder is changed:
# the work happens in a temporary copy.
#
# usage: docs/packets/fetch-client/score.sh CANDIDATE_STARTER_DIR [PACKET_DIR]
#   CANDIDATE_STARTER_DIR  the starter folder with the candidate's patch applied
#   PACKET_DIR             where that starter came from: this folder (the default), or a handout's interviewer/
#                          folder (or the folder PacketVariant wrote, which holds it); interviewer/ alone is enough
#
# Only a frozen test that was changed or deleted breaks the fence; a test file the candidate added is listed for
# you to read (a new test of the asked behaviour is welcome). Exit 0 when the fence held and every test passed,
# 1 otherwise, 2 when it could not run.
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
# The project root: IDEMPOTENT_RETRIES_ROOT when set (for a copy of the packet kept outside a checkout),
# otherwise the checkout this script sits in.
root="${IDEMPOTENT_RETRIES_ROOT:-$(cd "$here/../../.." && pwd)}"
if [ ! -x "$root/mvnw" ]; then
  echo "score.sh: run this from inside an idempotent-retries checkout (mvnw not found at $root/mvnw)," \
       "or set IDEMPOTENT_RETRIES_ROOT to one" >&2
  exit 2
fi
candidate="${1:?usage: score.sh CANDIDATE_STARTER_DIR [PACKET_DIR]}"
packet="${2:-$here}"
[ -d "$packet/interviewer" ] && packet="$packet/interviewer"
if [ -f "$packet/mapping.tsv" ]; then
  # A handout's interviewer/ folder: its copy of the frozen tests and pom as handed out is the fence.
  starter="$packet/handed-out"
  tests="$packet/interviewer-tests"
else
  starter="$packet/starter"
  tests="$packet/interviewer-tests"
fi
if [ ! -d "$starter/src/test" ] || [ ! -d "$tests" ]; then
  echo "score.sh: $packet is neither this packet nor a handout's folder" >&2
  exit 2
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "== 1. the fence: frozen tests and pom.xml as handed out"
fence=0
while IFS= read -r -d '' frozen; do
  relative="${frozen#"$starter"/}"
  if [ ! -f "$candidate/$relative" ]; then
    echo "FROZEN TEST DELETED: $relative (Honesty 0)"
    fence=1
  elif ! cmp -s "$frozen" "$candidate/$relative"; then
    echo "FROZEN TEST CHANGED: $relative (Honesty 0)"
    diff -u "$frozen" "$candidate/$relative" | head -40
    fence=1
  fi
done < <(find "$starter/src/test" -type f -print0)
[ $fence -eq 0 ] && echo "frozen tests untouched"
if [ -d "$candidate/src/test" ]; then
  (cd "$candidate" && find src/test -type f | sort) | while IFS= read -r file; do
    [ -f "$starter/$file" ] || echo "added by the candidate (allowed; read it: does it test the asked behaviour?): $file"
  done
fi
if cmp -s "$starter/pom.xml" "$candidate/pom.xml"; then
  echo "pom untouched"
else
  echo "POM CHANGED: Contract 0"
  diff -u "$starter/pom.xml" "$candidate/pom.xml" | head -40
  fence=1
fi

echo "== 2. the frozen tests and the interviewer's tests (interviewer-tests/)"
cp -R "$candidate"/. "$work"/
cp -R "$tests"/. "$work/src/test/java"/
"$root/mvnw" -B -q -f "$work/pom.xml" test
result=$?

echo "== fence: $([ $fence -eq 0 ] && echo kept || echo broken); tests: $([ $result -eq 0 ] && echo all green || echo some red, see above)"
exit $(( fence != 0 || result != 0 ))
