#!/usr/bin/env bash
# Regenerates queuectl's and queued's shell completions (bash, zsh, fish: contrib/completions/) and man
# pages (contrib/man/queuectl.1, queued.1) from the command trees, with swift-argument-parser's own generators. Run it after
# changing a subcommand, option or help text, and commit the results.
#   SCRATCH_PATH=.build-x contrib/completions/regenerate.sh   # build somewhere other than .build
#   MAN_DATE=2025-01-31 …                                     # man page date (default: last commit's)
set -euo pipefail
cd "$(dirname "$0")/../.."
scratch="${SCRATCH_PATH:-.build}"
swift build --scratch-path "$scratch" --product queuectl
swift build --scratch-path "$scratch" --product queued
swift build --scratch-path "$scratch" --product queued-mqtt
swift build --scratch-path "$scratch" --product queued-web
swift build --scratch-path "$scratch" --product queued-fleet
# generate-manual is the tool behind the package's generate-manual plugin; running it directly avoids the
# plugin's sandbox and work directory.
swift build --scratch-path "$scratch" --product generate-manual
bin="$(swift build --scratch-path "$scratch" --show-bin-path)"

"$bin/queuectl" --generate-completion-script bash > contrib/completions/queuectl.bash
"$bin/queuectl" --generate-completion-script zsh > contrib/completions/_queuectl
"$bin/queuectl" --generate-completion-script fish > contrib/completions/queuectl.fish
"$bin/queued" --generate-completion-script bash > contrib/completions/queued.bash
"$bin/queued" --generate-completion-script zsh > contrib/completions/_queued
"$bin/queued" --generate-completion-script fish > contrib/completions/queued.fish
"$bin/queued-mqtt" --generate-completion-script bash > contrib/completions/queued-mqtt.bash
"$bin/queued-mqtt" --generate-completion-script zsh > contrib/completions/_queued-mqtt
"$bin/queued-mqtt" --generate-completion-script fish > contrib/completions/queued-mqtt.fish
"$bin/queued-web" --generate-completion-script bash > contrib/completions/queued-web.bash
"$bin/queued-web" --generate-completion-script zsh > contrib/completions/_queued-web
"$bin/queued-web" --generate-completion-script fish > contrib/completions/queued-web.fish
"$bin/queued-fleet" --generate-completion-script bash > contrib/completions/queued-fleet.bash
"$bin/queued-fleet" --generate-completion-script zsh > contrib/completions/_queued-fleet
"$bin/queued-fleet" --generate-completion-script fish > contrib/completions/queued-fleet.fish

# A fixed date keeps the page reproducible: regenerating without changes gives no diff.
date="${MAN_DATE:-$(git log -1 --format=%cs 2>/dev/null || date -u +%F)}"
for tool in queuectl queued queued-mqtt queued-web queued-fleet; do
    "$bin/generate-manual" "$bin/$tool" --date "$date" --section 1 --authors "the queued authors" \
        --output-directory contrib/man
    # The generator writes a stock EXIT STATUS; the hand-written one, ENVIRONMENT and FILES replace it.
    python3 - "contrib/man/$tool.1" "contrib/man/$tool.sections.mdoc" <<'PY'
import sys
page, sections = sys.argv[1], open(sys.argv[2]).read()
text = open(page).read()
stock = '.Sh "EXIT STATUS"\n.Ex -std\n'
assert stock in text, "generate-manual's EXIT STATUS changed"
open(page, "w").write(text.replace(stock, sections))
PY
done
echo "regenerated contrib/completions/{queuectl,queued,queued-mqtt,queued-web,queued-fleet}.{bash,fish}, their zsh files and contrib/man/{queuectl,queued,queued-mqtt,queued-web,queued-fleet}.1"
