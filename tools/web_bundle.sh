#!/usr/bin/env bash
# Puts Hub models from this computer's Hugging Face cache inside a built site, for a
# host that cannot reach the Hub (a school's firewall):
#   bash tools/web_bundle.sh SITE hf-hub:ORG/NAME[@REVISION]...
# (tools/web.sh --build --with-model hf-hub:… runs it on build-web/site). The cache is
# huggingface_hub's, found as the desktop app finds it (core/hub/hub_cache.cpp):
# $HF_HUB_CACHE, else $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else
# ~/.cache/huggingface/hub; a revision is a commit or a name in refs/. Each model's
# files are copied to SITE/hub/ORG/NAME/resolve/REVISION/FILE, laid out as the Hub
# answers, and listed in SITE/hub/bundled.json, which the page reads first
# (app/web/hub.js): a model listed there opens from the site, with no Hub.
set -euo pipefail

if [ $# -lt 2 ]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 2
fi
site=$1
shift
[ -f "$site/index.html" ] || { echo "web_bundle.sh: $site is not a built site (no index.html)" >&2; exit 1; }

home=${HF_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/huggingface}
cache=${HF_HUB_CACHE:-$home/hub}
max_weight_bytes=1200000000  # the page refuses larger weights (app/web/hub.js)

# The snapshot folder of `repo` at `revision` in the cache, or a message and exit 1.
snapshot_of() {
  local repo=$1 revision=$2 folder commit
  folder="$cache/models--${repo/\//--}"
  [ -d "$folder" ] || { echo "web_bundle.sh: hf-hub:$repo is not in the Hugging Face cache ($cache)" >&2; exit 1; }
  commit=$revision
  if ! [[ $revision =~ ^[0-9a-f]{40}$ ]]; then
    [ -f "$folder/refs/$revision" ] ||
      { echo "web_bundle.sh: hf-hub:$repo has no revision '$revision' in the cache ($folder/refs)" >&2; exit 1; }
    commit=$(head -c 40 "$folder/refs/$revision")
  fi
  [ -d "$folder/snapshots/$commit" ] ||
    { echo "web_bundle.sh: hf-hub:$repo@$revision: no snapshot $commit in the cache" >&2; exit 1; }
  echo "$folder/snapshots/$commit"
}

entries=()
for name in "$@"; do
  if ! [[ $name =~ ^hf-hub:([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)(@([A-Za-z0-9_./-]+))?$ ]]; then
    echo "web_bundle.sh: '$name' is not a model name of the form hf-hub:ORG/NAME[@REVISION]" >&2
    exit 1
  fi
  repo=${BASH_REMATCH[1]}
  revision=${BASH_REMATCH[3]:-main}
  snapshot=$(snapshot_of "$repo" "$revision")
  for needed in config.json model.safetensors; do
    [ -f "$snapshot/$needed" ] || { echo "web_bundle.sh: $name: $needed is not in the cache ($snapshot)" >&2; exit 1; }
  done
  size=$(stat -L -c %s "$snapshot/model.safetensors")
  [ "$size" -le $max_weight_bytes ] ||
    { echo "web_bundle.sh: $name: model.safetensors is $((size / 1000000)) MB; a browser tab opens at most" \
           "$((max_weight_bytes / 1000000)) MB of weights" >&2; exit 1; }
  target="$site/hub/$repo/resolve/$revision"
  mkdir -p "$target"
  files=()
  for file in config.json model.safetensors preprocessor_config.json; do
    [ -f "$snapshot/$file" ] || continue
    cp -L "$snapshot/$file" "$target/$file.part" && mv "$target/$file.part" "$target/$file"
    files+=("\"$file\"")
  done
  entries+=("  \"$repo@$revision\": [$(IFS=,; echo "${files[*]}")]")
  echo "web: $name is in the site ($(awk "BEGIN { printf \"%.1f\", $size / 1e6 }") MB of weights)"
done

# Every model named on this run, with those a previous run put there.
manifest="$site/hub/bundled.json"
if [ -f "$manifest" ]; then
  while IFS= read -r line; do
    [[ $line =~ ^\ \ \"([^\"]+)\": ]] || continue
    printf '%s\n' "${entries[@]}" | grep -qF "\"${BASH_REMATCH[1]}\":" || entries+=("${line%,}")
  done < "$manifest"
fi
{ echo "{"; (IFS=$'\n'; echo "${entries[*]}") | sed '$!s/$/,/'; echo "}"; } > "$manifest.part"
mv "$manifest.part" "$manifest"
