#!/usr/bin/env bash
# Scores a candidate's patched seat-grant starter in one go: the key tests inside the JVM, then
# `fake-server grade` from outside, as the bus would run the worker. Nothing in the candidate's folder
# is changed: the work happens in a temporary copy.
#
# usage: docs/packets/seat-grant/score.sh CANDIDATE_STARTER_DIR [PACKET_DIR]
#   CANDIDATE_STARTER_DIR  the starter folder with the candidate's patch applied
#   PACKET_DIR             where that starter came from: this folder (the default), or a handout's interviewer/
#                          folder (or the folder PacketVariant wrote, which holds it); interviewer/ alone is enough
#
# The key tests are evidence for the rubric; grade's rows are questions for the debrief, never points, so its
# result does not change this script's exit code: 0 when every key test passed, 1 when some are red, 2 when it
# could not run. A handout's tree is graded in its own names (grade --handout, which reads its mapping.tsv).
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
  keytests="$packet/key-tests"
  mapping="$packet/mapping.tsv"
else
  keytests="$packet/key-tests"
  mapping=""
fi
if [ ! -d "$keytests" ]; then
  echo "score.sh: $packet is neither this packet nor a handout's folder" >&2
  exit 2
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cp -R "$candidate"/. "$work"/
mkdir -p "$work/src/test/java"
cp -R "$keytests"/. "$work/src/test/java"/

echo "== 1. key tests (key-tests/): evidence for the rubric"
"$root/mvnw" -B -q -f "$work/pom.xml" test
tests=$?

echo "== 2. fake-server grade: every FAIL row is a question for the debrief, not a point"
if [ ! -f "$root/fake-server/target/fake-server.jar" ]; then
  "$root/mvnw" -B -q -f "$root/pom.xml" -DskipTests package -pl fake-server -am || exit 2
fi
# A handout's tree is graded as it is, in its own names, by `grade --handout .` run inside its interviewer/ folder;
# the packet's own tree by plain `grade`.
jar="worker"
if [ -n "$mapping" ]; then
  handjar="$(awk -F'\t' '$1 == "element" && $2 == "<finalName>worker</finalName>" { gsub(/<\/?finalName>/, "", $3); print $3 }' "$mapping")"
  [ -n "$handjar" ] && jar="$handjar"
fi
if "$root/mvnw" -B -q -f "$work/pom.xml" -DskipTests package; then
  if [ -n "$mapping" ]; then
    echo "grade --handout . (in $packet): the tree in the handout's own names, target/$jar.jar"
    (cd "$packet" && java -jar "$root/fake-server/target/fake-server.jar" grade --handout . \
      -- java -jar "$work/target/$jar.jar")
  else
    java -jar "$root/fake-server/target/fake-server.jar" grade -- java -jar "$work/target/$jar.jar"
  fi
  grade="exit $?"
else
  grade="skipped: the tree did not build for grade (see above); score from the key tests and your reading"
fi

echo "== key tests: $([ $tests -eq 0 ] && echo all green || echo some red, see above); grade: $grade"
exit $(( tests != 0 ))
