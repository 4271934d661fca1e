#!/bin/sh
# Entrypoint of the fleetplan image as a bootstrap runner (ADR 0239; Containerfile installs it as
# /usr/local/bin/fleetplan-bootstrap-job): clones the fleet repository at the cluster's revision
# into the workspace, then runs fleetplan there with the arguments given, e.g.
#   FLEETPLAN_REPO_URL=https://git.example.com/fleet.git FLEETPLAN_REVISION=main \
#     fleetplan-bootstrap-job bootstrap --cluster etl4 --timeout 2h
# In a pod, with no kubeconfig, fleetplan uses the pod's service account (ADR 0238).
#   FLEETPLAN_REPO_URL   the fleet repository (required)
#   FLEETPLAN_REVISION   branch, tag or commit (default HEAD)
#   FLEETPLAN_WORKSPACE  where to clone (default $HOME, else /tmp)
#   FLEETPLAN            the fleetplan command (default fleetplan)
set -eu
: "${FLEETPLAN_REPO_URL:?set FLEETPLAN_REPO_URL to the fleet repository}"
revision="${FLEETPLAN_REVISION:-HEAD}"
workspace="${FLEETPLAN_WORKSPACE:-${HOME:-/tmp}}"
repo="$workspace/fleet"
# A rerun of the pod (the Job's backoff) reuses the clone and fetches again.
if [ ! -d "$repo/.git" ]; then
  git init -q "$repo"
  git -C "$repo" remote add origin "$FLEETPLAN_REPO_URL"
fi
git -C "$repo" -c protocol.version=2 fetch -q --depth 1 origin "$revision"
git -C "$repo" -c advice.detachedHead=false checkout -q --force --detach FETCH_HEAD
echo "fleetplan-bootstrap-job: $FLEETPLAN_REPO_URL at $revision ($(git -C "$repo" rev-parse HEAD))" >&2
cd "$repo"
# FLEETPLAN may be a command with arguments (node /path/main.js): split on purpose.
# shellcheck disable=SC2086
exec ${FLEETPLAN:-fleetplan} "$@" --repo "$repo"
