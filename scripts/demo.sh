#!/usr/bin/env bash
# `make demo`: a real run of topo on the bundled sample policy in corpus/.
# Each step prints the command it runs, so the output reads as a tutorial.
set -uo pipefail
BIN=${1:-.venv/bin}
TOPO="$BIN/topo"

# One argument as a shell reads it back: bare when plain, else in single quotes, or in double
# quotes when it holds single quotes and nothing a double-quoted word would expand.
quote() {
  local q="'\\''" special='["$`\\!]'
  if [[ $1 =~ ^[A-Za-z0-9_./:,=+@%-]+$ ]]; then printf '%s' "$1"
  elif [[ $1 != *"'"* ]]; then printf "'%s'" "$1"
  elif ! [[ $1 =~ $special ]]; then printf '"%s"' "$1"
  else printf "'%s'" "${1//\'/$q}"; fi
}
# Print the command so it can be pasted into a shell, then run it.
step() {
  local line="$ topo" arg
  for arg in "$@"; do line+=" $(quote "$arg")"; done
  printf '\n\033[1m%s\033[0m\n' "$line"
  "$TOPO" "$@"; echo "(exit $?)"
}

echo "== topo demo: a full audit of corpus/apps/demo_support_agent, then the trigger DSL and EMU checks =="
step audit corpus/apps/demo_support_agent -f yaml,html,md -o topology-audit
echo "Report: $(pwd)/topology-audit/TOPOLOGY_STATE.html (canonical data: topology-audit/TOPOLOGY_STATE.yaml)"
echo "The same audit as a CI gate (exit 1: findings at or above high; the app is deliberately unsafe):"
step check corpus/apps/demo_support_agent --fail-on high
step trigger check "state.refund.amount_cents <= 7500 AND tag.refund_intent IN ['service_failure', 'fraud']"
step trigger check "state.user.tier == \"premium\" and state.tier == 'x'"
step trigger fmt "(state.user.tier=='premium' OR state.user.tier=='enterprise') AND state.account.verified"
step trigger deps "state.customer.id EXISTS AND NOT event.customer.received.refund WHERE customer_id == '{{customer.id}}' IN 'P30D'"
step trigger eval "NOT state.user.banned" --context corpus/contexts/empty.json --now 2026-11-30T12:00:00Z
step trigger eval "COUNT event.user.failed.login IN 'PT15M' >= 2" --context corpus/contexts/failed_logins.json --now 2026-11-30T12:00:00Z
step emus validate corpus/emus/clean
step emus validate corpus/emus/defects
step explain UNGUARDED-PLACEHOLDER
echo
echo "Demo finished. The defective policies above are deliberate: see corpus/emus/defects/expected.txt."
echo "Open the audit report: $(pwd)/topology-audit/TOPOLOGY_STATE.html"
