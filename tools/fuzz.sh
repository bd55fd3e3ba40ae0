#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang, ASan + UBSan, in build-fuzz/)
# and runs each for SECONDS (default 60) on a copy of its committed seed corpus
# (tests/fuzz/corpus/<target>/ is never written to). FUZZ_RUNS=N stops a target
# after N executions instead (SECONDS 0: no time limit); FUZZ_SEED=S fixes libFuzzer's
# random seed (CI uses both, so a finding there replays here with the same command).
# Prints one line per target; exits 1 after any crash, leak or timeout, naming the
# reproducer and showing the end of the target's log.
#   bash tools/fuzz.sh [SECONDS] [TARGET...]    targets: safetensors config checkpoint image lesson flags
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(safetensors config checkpoint image lesson flags)
# Flags: an argument list of up to 1 KiB (values far longer than the kMaxQuotedChars, 80, a message
# quotes); every line goes through each parser, so longer lists only repeat the work.
declare -A max_len=([safetensors]=16384 [config]=16384 [checkpoint]=16384 [image]=16384 [lesson]=16384 [flags]=1024)
# The largest single allocation allowed (MiB). Image: stb_image reserves up to 2 GiB for a PNG's
# IDAT data on the chunk length alone, before reading it (untouched memory, freed when the data is
# missing); checking PNG chunks against the file size, as a CRC check does, belongs to the loader.
declare -A malloc_limit=([safetensors]=2048 [config]=2048 [checkpoint]=2048 [image]=2049 [lesson]=2048 [flags]=2048)
for t in "${targets[@]}"; do
  [ -n "${max_len[$t]:-}" ] || { echo "fuzz.sh: unknown target '$t' (safetensors, config, checkpoint, image, lesson, flags)" >&2; exit 2; }
done

bash tools/install-deps.sh --fuzz
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DVITVIZ_NATIVE=OFF -DVITVIZ_BUILD_APP=OFF \
  -DVITVIZ_FUZZ=ON "${launcher[@]}" >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null

export OMP_NUM_THREADS=1
failed=0
for t in "${targets[@]}"; do
  run=build-fuzz/runs/$t
  rm -rf "$run" && mkdir -p "$run/artifacts" && cp -r "tests/fuzz/corpus/$t" "$run/corpus"
  dicts=("tests/fuzz/$t.dict")
  [ "$t" = checkpoint ] && dicts+=(tests/fuzz/config.dict)  # a config.json's keys, then the settings beside weights
  cat "${dicts[@]}" >"$run/dict"
  status=0
  build-fuzz/tests/fuzz/fuzz_$t -max_total_time="$seconds" -runs="${FUZZ_RUNS:--1}" -seed="${FUZZ_SEED:-0}" -max_len="${max_len[$t]}" \
    -rss_limit_mb=2048 -malloc_limit_mb="${malloc_limit[$t]}" -timeout=10 -dict="$run/dict" -artifact_prefix="$run/artifacts/" \
    -print_final_stats=1 "$run/corpus" >"$run/log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$run/log")
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$run/log")
  coverage=$(grep -E '^#[0-9]+' "$run/log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+' || true)
  if [ "$status" -eq 0 ]; then
    echo "fuzz_$t: ${runs:-?} executions, ${speed:-?} exec/s, $coverage, no finding (log: $run/log)"
  else
    failed=1
    echo "fuzz_$t: FAILED (exit $status) after ${runs:-?} executions; log: $run/log"
    tail -n 25 "$run/log" | sed 's/^/  | /'
    for artifact in "$run"/artifacts/*; do
      [ -e "$artifact" ] && echo "  reproducer: $artifact (rerun: build-fuzz/tests/fuzz/fuzz_$t $artifact)"
    done
  fi
done
exit "$failed"
