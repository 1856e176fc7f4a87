#!/usr/bin/env bash
# Scores a candidate's patched seat-grant starter in one go: the key tests inside the JVM, then
# `fake-server grade` from outside, as the bus would run the worker. Nothing in the candidate's folder
# is changed: the work happens in a temporary copy.
#
# usage: docs/packets/seat-grant/score.sh CANDIDATE_STARTER_DIR [PACKET_DIR]
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

cp -R "$candidate"/. "$work"/
mkdir -p "$work/src/test/java"
cp -R "$packet/key-tests"/. "$work/src/test/java"/

echo "== 1. key tests (SeatGrantOutcomesTest, SeatGrantSignalsTest)"
"$root/mvnw" -B -q -f "$work/pom.xml" test
tests=$?

echo "== 2. fake-server grade"
if [ ! -f "$root/fake-server/target/fake-server.jar" ]; then
  "$root/mvnw" -B -q -f "$root/pom.xml" -DskipTests package -pl fake-server -am || exit 2
fi
"$root/mvnw" -B -q -f "$work/pom.xml" -DskipTests package || exit 2
java -jar "$root/fake-server/target/fake-server.jar" grade -- java -jar "$work/target/worker.jar"
grade=$?

echo "== key tests: $([ $tests -eq 0 ] && echo all green || echo some red, see above); grade: exit $grade"
exit $(( tests != 0 || grade != 0 ))
