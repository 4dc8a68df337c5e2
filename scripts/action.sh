#!/usr/bin/env bash
# The steps of the topo GitHub Action (action.yml), one sub-command each, so that they can be
# run and tested outside GitHub. Every input arrives in the environment, never spliced into
# the script. Outputs go to "$GITHUB_OUTPUT" as `name=value` lines.
#
#   install   create a virtualenv of topo's own under $RUNNER_TEMP (the caller's Python and
#             PATH are left as they are) and pip-install $TOPO_SPEC (default: the action's
#             checkout) into it; output `topo-bin`
#   check     run `topo check` with the inputs, writing SARIF; outputs `exit-code`, `sarif`
#   decide    whether to upload the SARIF: not when `upload` is off, and not on a pull request
#             from a fork (or Dependabot), whose token cannot have `security-events: write` -
#             then a notice says so instead of a failed upload; output `upload`
#   verdict   fail the job with the check's own exit code
set -euo pipefail

output() { echo "$1=$2" >> "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"; }

install() {
  local python="${TOPO_PYTHON:-python3}"
  local venv="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/topo-venv"
  if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "::error title=topo::topo needs Python 3.11 or later; '$python' is not (set the" \
      "python input to another interpreter)"
    exit 2
  fi
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --disable-pip-version-check --quiet \
    "${TOPO_SPEC:-${ACTION_PATH:?ACTION_PATH is not set}}"
  output topo-bin "$venv/bin/topo"
}

check() {
  local topo="${TOPO_BIN:?TOPO_BIN is not set}"
  local args=(check "${TOPO_PATH:-.}" -f sarif -o "${TOPO_SARIF:-topo.sarif}")
  if [ -n "${TOPO_FAIL_ON:-}" ]; then args+=(--fail-on "$TOPO_FAIL_ON"); fi
  if [ -n "${TOPO_BASELINE:-}" ]; then args+=(--baseline "$TOPO_BASELINE"); fi
  if [ -n "${TOPO_CHANGED_SINCE:-}" ]; then args+=(--changed-since "$TOPO_CHANGED_SINCE"); fi
  if [ "${TOPO_ALLOW_PARTIAL:-false}" = "true" ]; then args+=(--allow-partial); fi
  local code=0
  "$topo" "${args[@]}" || code=$?
  output exit-code "$code"
  if [ -s "${TOPO_SARIF:-topo.sarif}" ]; then output sarif true; fi
  exit "$code"
}

decide() {
  if [ "${TOPO_UPLOAD:-true}" != "true" ]; then
    output upload false
    return
  fi
  local head="" event="${GITHUB_EVENT_NAME:-}"
  if [ "$event" = "pull_request" ] || [ "$event" = "pull_request_review" ]; then
    head="$("${TOPO_PYTHON:-python3}" -c 'import json, sys
try:
    event = json.load(open(sys.argv[1], encoding="utf-8"))
    print(event["pull_request"]["head"]["repo"]["full_name"])
except Exception:
    print("")' "${GITHUB_EVENT_PATH:-/dev/null}")"
  fi
  if [ -n "$head" ] && [ "$head" != "${GITHUB_REPOSITORY:-}" ]; then
    echo "::notice title=topo::SARIF upload skipped: a pull request from the fork $head gets" \
      "no security-events: write permission (the findings are in the log and the check" \
      "result still gates)"
    output upload false
  elif [ "${GITHUB_ACTOR:-}" = "dependabot[bot]" ]; then
    echo "::notice title=topo::SARIF upload skipped: Dependabot's token is read-only"
    output upload false
  else
    output upload true
  fi
}

verdict() {
  local code="${CODE:-}"
  if [ -z "$code" ]; then
    echo "::error title=topo::topo check did not run (see the steps above)"
    exit 2
  fi
  if [ "$code" != "0" ]; then
    echo "::error title=topo::topo check exited $code" \
      "(1: findings at or above the threshold; 2: usage error or partial scan)"
  fi
  exit "$code"
}

case "${1:-}" in
  install|check|decide|verdict) "$1" ;;
  *) echo "usage: $0 install|check|decide|verdict" >&2; exit 2 ;;
esac
