#!/usr/bin/env bash
# Builds deploy/Dockerfile with podman, as .ci/run and test/deploy/image.test.ts do: the
# stand-in base first (make-base-image.sh), then the image, tagged as the manifests name it.
# The machine's CA bundle, when npm or Node are told of one, goes in as the `npm-ca` build
# secret (docs/kubernetes.md "Build and push the image").
#
#   deploy/test-base/build-image.sh [TAG]        (default: the image deploy/k8s/job.yaml runs)
set -euo pipefail
cd "$(dirname "$0")/../.."
export CONTAINERS_CONF="${CONTAINERS_CONF:-$PWD/deploy/test-base/containers.conf}"

tag=${1:-$(sed -n 's/^ *image: *//p' deploy/k8s/job.yaml | head -n 1)}
bash deploy/test-base/make-base-image.sh

ca=${NODE_EXTRA_CA_CERTS:-$(npm config get cafile 2>/dev/null || true)}
secret=()
if [ -n "$ca" ] && [ "$ca" != null ] && [ -s "$ca" ]; then secret=(--secret "id=npm-ca,src=$ca"); fi

# The build's `npm ci` steps reach the npm registry through the host's network.
podman build --quiet --network host "${secret[@]}" -f deploy/Dockerfile -t "$tag" . >/dev/null
echo "built $tag"
