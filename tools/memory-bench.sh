#!/usr/bin/env bash
# The memory benchmark of large ViTs: for each case, the peak resident memory
# and the pass time of the CLI keeping every stage (vitviz-cli --bench 1; the
# rollout, which the app's pass adds and the Stream pass folds in, timed apart), of the
# CLI's own run keeping the residual stream (TraceKeep::Stream, core/pass/trace.h;
# its wall time includes loading the model), and of the app (vitviz
# --measure-pass 2, under a virtual display; with a Stream trace also one block
# recomputed for the views against that block's share of the pass), in the same run, beside
# the goal the large-model work aims at. Random weights in timm's layout
# (tests/hub/random_vit.py), written once to a cache folder:
#   DINOv2 ViT-L/14 with 4 registers at 518 px (1,374 tokens)
#   ViT-B/16 at 224 px and at 1024 px (the built-in vit-b-random)
#   DINOv2 ViT-g/14 (SwiGLU, 4 registers) at 518 px, under a 16 GB address-space limit
# A case the program refuses says so with the size it offered or the reason.
# Usage: tools/memory-bench.sh [BUILD_DIR] [CASE...]   (cases: vit-l-518 vit-b-224 vit-b-1024 vit-g-518)
# Needs /usr/bin/time, xvfb-run and python3; takes about 10 minutes and 5 GB of disk.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(vit-l-518 vit-b-224 vit-b-1024 vit-g-518)
cache=${VITVIZ_BENCH_MODELS:-/tmp/vitviz-memory-bench}
image=assets/photos/chelsea.jpg
for tool in /usr/bin/time xvfb-run python3; do
  command -v "$tool" >/dev/null || { echo "memory-bench: needs $tool" >&2; exit 1; }
done
for program in vitviz vitviz-cli; do
  [ -x "$build/app/$program" ] || { echo "memory-bench: no $build/app/$program (build the app first)" >&2; exit 1; }
done

# random_model NAME ARGS...: the folder of a random timm checkpoint, written the first time.
random_model() {
  local dir=$cache/$1
  shift
  if [ ! -f "$dir/model.safetensors" ]; then
    echo "memory-bench: writing $dir (random weights, F16)" >&2
    python3 tests/hub/random_vit.py "$dir.part" "$@" && rm -rf "$dir" && mv "$dir.part" "$dir"
  fi
  echo "$dir"
}

# measure LIMIT_KB COMMAND...: "PEAK_GB WALL_S" then the command's output, from one run.
measure() {
  local limit=$1 log
  shift
  log=$(mktemp)
  (ulimit -v "$limit"; /usr/bin/time -f "%M %e" -o "$log.time" "$@") >"$log" 2>&1 || true
  tail -1 "$log.time" | awk '{printf "%.2f %s\n", $1 / 1048576, $2}'
  cat "$log"
  rm -f "$log" "$log.time"
}

# The pass time a run printed, or what it said instead (refused, offered size).
pass_of() { { grep -o "$1 median=[0-9.]*" || true; } | head -1 | cut -d= -f2 | sed 's/.$/& ms/'; }
# "218.4 ms (first 384.5 ms), 0.92 × its share": the app's blocks recomputed for the views,
# stepping from block to block (the first without storage to reuse), or nothing.
block_of() {
  local line
  line=$(grep -o 'block_ms median=[0-9.]* first=[0-9.]*.*: [0-9.]* x)' || true)
  [ -n "$line" ] || return 0
  printf '%s ms (first %s ms), %s × its share' "$(sed -E 's/block_ms median=([0-9.]+).*/\1/' <<<"$line")" \
    "$(sed -E 's/.* first=([0-9.]+).*/\1/' <<<"$line")" "$(sed -E 's/.*: ([0-9.]+) x\)/\1/' <<<"$line")"
}
said() {
  { grep -o -E 'opening it at [0-9]+|largest image size that fits is [0-9]+|Killed|out of memory|no OpenGL' || true; } |
    head -1
}

# One case: the CLI's full trace (--bench 1: every stage kept, the pass timed), the CLI's
# own run (the residual stream kept: peak and wall time, loading included), the app's.
row() {
  local name=$1 goal=$2 model=$3 size=$4 limit=$5 full stream app
  full=$(measure "$limit" "$build/app/vitviz-cli" --model "$model" --image "$image" --image-size "$size" --bench 1)
  stream=$(measure "$limit" "$build/app/vitviz-cli" --model "$model" --image "$image" --image-size "$size" --top 1)
  app=$(measure "$limit" xvfb-run -a -s "-screen 0 1600x1000x24" "$build/app/vitviz" --model "$model" \
        --image "$image" --image-size "$size" --measure-pass 2)
  local full_pass app_pass app_block
  full_pass=$(pass_of forward_ms <<<"$full")
  local rollout
  rollout=$({ grep -o 'rollout_ms=[0-9.]*' || true; } <<<"$full" | cut -d= -f2)
  [ -z "$full_pass" ] || [ -z "$rollout" ] || full_pass="$full_pass + rollout $rollout ms"
  app_pass=$(pass_of pass_ms <<<"$app")
  app_block=$(block_of <<<"$app")
  printf '| %s | %s GB, %s | %s GB, %s s | %s GB, %s | %s | %s | full: %s; stream: %s; app: %s |\n' "$name" \
    "$(peak_of "$full")" "${full_pass:--}" "$(peak_of "$stream")" "$(wall_of "$stream")" "$(peak_of "$app")" \
    "${app_pass:--}" "${app_block:--}" "$goal" "$(said <<<"$full")" "$(said <<<"$stream")" "$(said <<<"$app")"
}
peak_of() { head -1 <<<"$1" | cut -d' ' -f1; }
wall_of() { head -1 <<<"$1" | cut -d' ' -f2; }

unlimited=unlimited
echo "| case | CLI, full trace: peak, pass | CLI, stream: peak, wall | app: peak, pass | app: a block recomputed | goal | said |"
echo "|---|---|---|---|---|---|---|"
for c in "${cases[@]}"; do
  case $c in
    vit-l-518)
      m=$(random_model vit-l14-reg4 --dim 1024 --heads 16 --depth 24 --patch 14 --size 518 --reg 4)
      row "DINOv2 ViT-L/14 reg4, 518 px" "app ≤ 3.5 GB" "$m" 518 $unlimited ;;
    vit-b-224) row "ViT-B/16, 224 px" "app ≤ 1.5 × CLI" vit-b-random 224 $unlimited ;;
    vit-b-1024) row "ViT-B/16, 1024 px" "opens; app ≤ 4 GB" vit-b-random 1024 $unlimited ;;
    vit-g-518)
      m=$(random_model vit-g14-reg4-swiglu --dim 1536 --heads 24 --depth 40 --patch 14 --size 518 --reg 4 --swiglu)
      row "DINOv2 ViT-g/14 SwiGLU reg4, 518 px, 16 GB limit" "opens under 16 GB" "$m" 518 $((16 * 1024 * 1024)) ;;
    *) echo "memory-bench: unknown case '$c' (vit-l-518 vit-b-224 vit-b-1024 vit-g-518)" >&2; exit 1 ;;
  esac
done
