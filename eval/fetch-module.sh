#!/usr/bin/env bash
# fetch-module.sh copies MODULE@VERSION from the Go module proxy into SCRATCH as a
# writable tree with its go.sum complete, and prints the tree's path.
#
# usage: eval/fetch-module.sh SCRATCH MODULE VERSION
set -euo pipefail
scratch=${1:?usage: fetch-module.sh SCRATCH MODULE VERSION}
module=${2:?}
version=${3:?}
dir=$(cd "$scratch" && GOFLAGS=-mod=mod go mod download -json "$module@$version" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
dst="$scratch/$(basename "$module")-$version"
rm -rf "$dst"
cp -r "$dir" "$dst"
chmod -R u+w "$dst"
(cd "$dst" && go mod download >/dev/null 2>&1 && go mod tidy >/dev/null 2>&1) || true
echo "$dst"
