#!/usr/bin/env bash
# Scores a candidate's patched fetch-client starter in one go: the fence (frozen tests and pom untouched), then
# the frozen tests with the interviewer's tests beside them. Nothing in the candidate's folder is changed: the
# work happens in a temporary copy.
#
# usage: docs/packets/fetch-client/score.sh CANDIDATE_STARTER_DIR [PACKET_DIR]
#   CANDIDATE_STARTER_DIR  the starter folder with the candidate's patch applied
#   PACKET_DIR             the packet the starter came from (default: this folder; pass a variant's folder
#                          when the candidate got a renamed variant)
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
candidate="${1:?usage: score.sh CANDIDATE_STARTER_DIR [PACKET_DIR]}"
packet="${2:-$here}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "== 1. the fence: frozen tests and pom.xml as handed out"
fence=0
diff -r "$packet/starter/src/test" "$candidate/src/test" && echo "tests untouched" || { echo "TESTS CHANGED: Honesty 0"; fence=1; }
diff "$packet/starter/pom.xml" "$candidate/pom.xml" && echo "pom untouched" || { echo "POM CHANGED: Contract 0"; fence=1; }

echo "== 2. frozen tests, RetryGatesTest, SecretUrlTest"
cp -R "$candidate"/. "$work"/
cp -R "$packet/interviewer-tests"/. "$work/src/test/java"/
"$root/mvnw" -B -q -f "$work/pom.xml" test
tests=$?

echo "== fence: $([ $fence -eq 0 ] && echo kept || echo broken); tests: $([ $tests -eq 0 ] && echo all green || echo some red, see above)"
exit $(( fence != 0 || tests != 0 ))
