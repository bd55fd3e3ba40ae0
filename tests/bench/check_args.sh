#!/usr/bin/env bash
# A benchmark's command line, checked without running it: --help prints its usage
# and exits 0; an unknown flag, a missing value and an out-of-range count are
# each one line on stderr and exit 2. Each call must answer within 10 s.
#   check_args.sh PROGRAM COUNT_FLAG
set -uo pipefail
program=$1 count_flag=$2
fail() { echo "FAIL: $program $*"; exit 1; }

out=$(timeout 10 "$program" --help 2>/dev/null); rc=$?
[ "$rc" -eq 0 ] || fail "--help: exit $rc, expected 0"
[[ "$out" == usage:* ]] || fail "--help: printed '${out:0:80}', expected its usage"
grep -q -- "$count_flag" <<<"$out" || fail "--help: the usage does not name $count_flag"

expect_refusal() {
  local err rc
  err=$(timeout 10 "$program" "$@" 2>&1 >/dev/null); rc=$?
  [ "$rc" -eq 2 ] || fail "$*: exit $rc, expected 2"
  [ "$(wc -l <<<"$err")" -eq 1 ] || fail "$*: expected one line, got: $err"
  echo "$*  ->  $err"
}
expect_refusal --no-such-flag
expect_refusal "$count_flag"
expect_refusal "$count_flag" 0
expect_refusal "$count_flag" 99999999999
echo "$program: --help and refusals as expected"
