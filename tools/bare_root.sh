# A bare Debian root, as a fresh machine has it: functions sourced by .ci/run and
# tools/package-check.sh (run as root).
#   bare_root RELEASE ROOT   mmdebstrap --variant=apt RELEASE into ROOT from this machine's
#                            Debian mirror (its own sources, its release's name changed to
#                            RELEASE), mounts proc, sys, dev and dev/pts there, and gives it
#                            the machine's resolver and the certificate authorities the
#                            machine adds to Debian's (its network's TLS needs them: without
#                            them npm's registry is refused); nothing else of the machine's
#   bare_root_remove ROOT    undoes the mounts and removes ROOT

bare_root() {
  local release=$1 root=$2 lists host f m
  lists=$(mktemp -d)
  host=$(. /etc/os-release && echo "$VERSION_CODENAME")
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && grep -Eq '^[[:space:]]*(deb|URIs:)' "$f" && grep -q debian "$f" || continue
    sed "s/\b$host\b/$release/g" "$f" > "$lists/$(basename "$f")"
  done
  mkdir -p "$root"
  mmdebstrap --variant=apt --quiet "$release" "$root" "$lists"/*
  rm -rf "$lists"
  for m in proc sys dev dev/pts; do
    mkdir -p "$root/$m"
    case $m in
      proc) mount -t proc proc "$root/proc" ;;
      sys) mount -t sysfs sysfs "$root/sys" ;;
      dev) mount --bind /dev "$root/dev" ;;
      dev/pts) mount -t devpts devpts "$root/dev/pts" -o newinstance,ptmxmode=0666 ;;
    esac
  done
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    # Debian's ca-certificates, installed later in the root, adds these.
    mkdir -p "$root/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  fi
}

bare_root_remove() {
  local root=$1 m
  for m in dev/pts dev sys proc; do umount -l "$root/$m" 2>/dev/null || true; done
  rm -rf --one-file-system "$root"
}
