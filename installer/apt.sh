# shellcheck shell=bash
# Sourced by installer/setup.sh and tests/slurm/run.sh: Debian packages installed with apt-get as
# root (directly, or through sudo), retried. Set apt_caller to the name the messages start with.

# as_root COMMAND...: runs it as root, through sudo when this is not root.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        echo "${apt_caller:-apt.sh}: this needs root (or sudo): $*" >&2; exit 1
    fi
}

# apt waits up to 10 minutes for a dpkg lock held by another process (unattended upgrades,
# a parallel job); transient failures (mirror hiccups) are retried a few times.
apt_retry() {
    local attempt
    for attempt in 1 2 3 4 5; do
        if as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 "$@"; then
            return 0
        fi
        [ "$attempt" -eq 5 ] && break
        echo "${apt_caller:-apt.sh}: apt-get $1 failed (attempt $attempt of 5); retrying in $((attempt * 10)) s" >&2
        sleep $((attempt * 10))
    done
    return 1
}

# install_packages NAME...: installs those of the packages that are not installed yet.
install_packages() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        echo "${apt_caller:-apt.sh}: all $# packages already installed"
        return
    fi
    echo "${apt_caller:-apt.sh}: installing ${missing[*]}"
    # In CI, man-db's trigger would rebuild the manual page index after every package: skipped.
    [ "${CI:-}" = "true" ] && as_root rm -f /var/lib/man-db/auto-update
    apt_retry update -qq
    apt_retry install -y -qq --no-install-recommends "${missing[@]}"
}
