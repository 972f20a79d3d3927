#!/usr/bin/env bash
# The Debian package: llmops_<version>_amd64.deb with both binaries, the systemd service,
# the default /etc/llmops/server.toml and the man pages (docs/install.md).
#   scripts/deb.sh tools                 install the pinned cargo-deb (crates.io) and, as
#                                        root with apt, help2man and lintian; idempotent
#   scripts/deb.sh build [--no-build] [--out DIR] [--deb-version V]
#                                        release binaries (unless --no-build), man pages,
#                                        then the package into DIR (default target/debian)
#   scripts/deb.sh build-ref REF OUT     a package of git revision REF (its binaries, its
#                                        packaging if it has one, else this tree's), version
#                                        <REF's version>~git<sha>: a "previous" package
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
case "$target" in /*) ;; *) target="$root/$target" ;; esac
CARGO_DEB_VERSION="3.8.0"

workspace_version() {
    sed -n 's/^version = "\(.*\)"/\1/p' "$1/Cargo.toml" | head -1
}

tools() {
    if [[ "$(cargo deb --version 2>/dev/null)" != *"$CARGO_DEB_VERSION"* ]]; then
        echo "deb: installing cargo-deb $CARGO_DEB_VERSION from crates.io"
        cargo install cargo-deb --version "$CARGO_DEB_VERSION" --locked --quiet
    fi
    local missing=()
    command -v help2man >/dev/null 2>&1 || missing+=(help2man)
    command -v lintian >/dev/null 2>&1 || missing+=(lintian)
    command -v dpkg-shlibdeps >/dev/null 2>&1 || missing+=(dpkg-dev)
    if ((${#missing[@]})); then
        if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
            echo "deb: installing ${missing[*]} with apt-get"
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null \
                || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
                        apt-get install -y -qq "${missing[@]}" >/dev/null; }
        else
            echo "deb: missing ${missing[*]}: install them (apt-get install ${missing[*]})" >&2
            exit 1
        fi
    fi
}

# Man pages from the binaries' --help (help2man), gzipped as Debian wants them.
man_pages() {
    local bin_dir="$1"
    mkdir -p "$bin_dir/man"
    local name desc
    for name in llmops-server llmops-tui; do
        case "$name" in
            llmops-server) desc="LLM operations assistant server (agent, tools, index)" ;;
            llmops-tui) desc="terminal client of llmops-server (full-screen and scripts)" ;;
        esac
        help2man --no-info --version-string="$("$bin_dir/$name" --version | awk '{print $2}')" \
            --name="$desc" --section=1 "$bin_dir/$name" >"$bin_dir/man/$name.1"
        gzip -9nf "$bin_dir/man/$name.1"
    done
}

# The Debian changelog of a native package: one entry for this version, dated by the
# commit it is built from (the same commit gives the same file).
changelog() {
    local bin_dir="$1" version="$2" rev="$3"
    local sha when
    sha="$(git -C "$root" rev-parse --short=10 "$rev" 2>/dev/null || echo unknown)"
    when="$(date -R -u -d "@$(git -C "$root" log -1 --format=%ct "$rev" 2>/dev/null || date +%s)")"
    mkdir -p "$bin_dir/man"
    printf 'llmops (%s) unstable; urgency=medium\n\n  * Built from commit %s.\n\n -- %s  %s\n' \
        "$version" "$sha" "llmops maintainers <maintainers@llmops.invalid>" "$when" \
        | gzip -9n >"$bin_dir/man/changelog.gz"
}

# cargo deb over the binaries already in $1/release, run in the tree $2.
package() {
    local tdir="$1" tree="$2" out="$3" version="$4"
    local args=(-p llmops-server --no-build --output "$out")
    [[ -z "$version" ]] || args+=(--deb-version "$version")
    mkdir -p "$out"
    (cd "$tree" && CARGO_TARGET_DIR="$tdir" cargo deb "${args[@]}")
}

build() {
    local no_build=0 out="$target/debian" version=""
    while (($#)); do
        case "$1" in
            --no-build) no_build=1 ;;
            --out) out="$2"; shift ;;
            --deb-version) version="$2"; shift ;;
            *) echo "deb: unknown option $1" >&2; exit 2 ;;
        esac
        shift
    done
    tools
    if ((no_build == 0)); then
        (cd "$root" && cargo build --release --bins)
    fi
    man_pages "$target/release"
    changelog "$target/release" "${version:-$(workspace_version "$root")}" HEAD
    package "$target" "$root" "$out" "$version"
}

# The binaries of REF are built from an exported copy sharing this target dir (the
# dependencies are compiled once for both), then packaged from a directory of their own.
build_ref() {
    local ref="$1" out="$2"
    tools
    local sha tree tdir version
    sha="$(git -C "$root" rev-parse --short=10 "$ref^{commit}")"
    tree="$target/deb-ref/src-$sha"
    tdir="$target/deb-ref/target-$sha"
    if [[ ! -f "$tree/Cargo.toml" ]]; then
        rm -rf "$tree"
        mkdir -p "$tree"
        git -C "$root" archive "$sha" | tar -x -C "$tree"
    fi
    # Its own target dir: cargo names a workspace member's artifacts without its path, so
    # the previous tree built into the shared one leaves rlibs the current tree's older
    # sources count as fresh (a later build links the previous revision's crates).
    local cargo_dir="$target/deb-ref/cargo"
    (cd "$tree" && CARGO_TARGET_DIR="$cargo_dir" cargo build --release --bins)
    mkdir -p "$tdir/release"
    cp -f "$cargo_dir/release/llmops-server" "$cargo_dir/release/llmops-tui" "$tdir/release/"
    man_pages "$tdir/release"
    version="$(workspace_version "$tree")~git$sha"
    changelog "$tdir/release" "$version" "$sha"
    local pkg_tree="$tree"
    if [[ ! -f "$tree/packaging/deb/llmops-server.service" ]]; then
        echo "deb: $ref has no packaging: its binaries with this tree's packaging"
        pkg_tree="$root"
    fi
    package "$tdir" "$pkg_tree" "$out" "$version"
}

case "${1:-}" in
    tools) tools ;;
    build) shift; build "$@" ;;
    build-ref) build_ref "${2:?git revision}" "${3:?output dir}" ;;
    *) sed -n '2,12p' "$0"; exit 2 ;;
esac
