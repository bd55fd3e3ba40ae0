#!/usr/bin/env bash
# Builds the app with AddressSanitizer + UndefinedBehaviorSanitizer (Debug, Eigen's
# own GEMM, in build-asan/) and runs its monkey under a virtual display: random
# keys, clicks, drags, wheel, model and image switches, Ask questions, lesson steps
# and training steps for SECONDS (default 60) per model, from SEED (default 1),
# after one fixed tour of every screen with tokens dropped and patches masked.
# The seed fixes the sequence of input, so a finding replays with the command the
# run prints at its start. Exits 1 after any crash, assertion or sanitizer report,
# showing the end of that run's log. Leaks are not checked here (detect_leaks=0):
# Mesa's driver, unloaded at exit, leaves leaks whose stacks show only an
# "<unknown module>", so no suppression by library name can tell them from ours;
# the core's leaks are checked by tools/test.sh's core_tests under LeakSanitizer.
# The default models: the two small built-ins and the model families' fixture
# checkpoints (tests/fixtures: registers, DIST, no CLS with avg pooling, CLIP,
# HF DINOv2), small enough for a sanitizer build. MONKEY_BUILD=build runs the
# Release app of tools/test.sh's build/ instead (no sanitizers, nothing built):
# there the ViT-B-sized built-ins answer in time. MONKEY_APP_ARGS adds its words to every
# run of the app (e.g. --keep-stream: every pass keeps only the residual stream).
#   bash tools/monkey.sh [SECONDS] [SEED] [MODEL...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
seed=${2:-1}
shift 2 || shift $#
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(toy-4x4 digits tests/fixtures/{timm_reg4,timm_deit_distilled,timm_gap_fcnorm,timm_clip_quickgelu,hf_dinov2})
build=${MONKEY_BUILD:-build-asan}

if [ "$build" = build-asan ]; then
  # The folder of tools/test.sh's sanitizer build, the app added: the core's objects are reused.
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DVITVIZ_SANITIZE=ON -DVITVIZ_BUILD_APP=ON -DVITVIZ_BLAS=OFF >/dev/null
  cmake --build build-asan -j"$(nproc)" --target vitviz >/dev/null
fi
[ -x "$build/app/vitviz" ] || { echo "monkey.sh: no app at $build/app/vitviz (build it first)" >&2; exit 2; }

export ASAN_OPTIONS=detect_leaks=0
export UBSAN_OPTIONS=print_stacktrace=1
log=$(mktemp /tmp/vitviz-monkey-log.XXXXXX)
trap 'rm -f "$log"' EXIT
failed=0
# Runs the app (arguments: what to run; then `what`, the words of the finding line); a finding is a
# failed exit, no `expect` line in the log, or a sanitizer report.
run_app() {
  local what=$1 expect=$2 status=0
  shift 2
  # A run that has not ended 2 minutes after its time hangs: timeout ends it (exit 124), a finding too.
  # shellcheck disable=SC2086  # MONKEY_APP_ARGS: words
  timeout -k 10 $((seconds + 120)) xvfb-run -a -s "-screen 0 1600x1000x24" "$build/app/vitviz" "$@" \
    ${MONKEY_APP_ARGS:-} >"$log" 2>&1 || status=$?
  if [ "$status" -eq 0 ] && grep -q "$expect" "$log" && ! grep -q 'Sanitizer\|runtime error' "$log"; then
    return 0
  fi
  echo "monkey.sh: FINDING on $what (exit $status); replay under a display: $build/app/vitviz $*" >&2
  tail -n 60 "$log" >&2
  failed=1
  return 1
}

# First a fixed walk through every screen of the model with no class token, tokens dropped, patches
# masked and a head silenced: the views must read the kept tokens back into image order.
tour=$(mktemp -d /tmp/vitviz-monkey-tour.XXXXXX)
trap 'rm -f "$log"; rm -rf "$tour"' EXIT
run_app "a tour with interventions" '^tour: ' --model tests/fixtures/timm_gap_fcnorm --drop-tokens 1,6 \
  --mask-patches 3 --ablate-heads 0:1 --tour "$tour" && echo "monkey tour: $(ls "$tour" | wc -l) screens"
# The same walk keeping only the residual stream, as a pass too large does: each block recomputed when shown.
rm -rf "$tour" && mkdir -p "$tour"
run_app "a tour with interventions keeping the stream" '^tour: ' --model tests/fixtures/timm_gap_fcnorm \
  --drop-tokens 1,6 --mask-patches 3 --ablate-heads 0:1 --keep-stream --tour "$tour" &&
  echo "monkey tour keeping the stream: $(ls "$tour" | wc -l) screens"
for model in "${models[@]}"; do
  if run_app "$model" '^monkey: [0-9]* frames' --monkey "$seconds" --seed "$seed" --model "$model"; then
    grep '^monkey: [0-9]* frames' "$log" | sed "s|^monkey:|monkey $model:|"
  fi
done
exit "$failed"
