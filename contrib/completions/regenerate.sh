#!/usr/bin/env bash
# Regenerates queuectl's shell completions (bash, zsh, fish: contrib/completions/) and its man page
# (contrib/man/queuectl.1) from the command tree, with swift-argument-parser's own generators. Run it after
# changing a subcommand, option or help text, and commit the results.
#   SCRATCH_PATH=.build-x contrib/completions/regenerate.sh   # build somewhere other than .build
#   MAN_DATE=2025-01-31 …                                     # man page date (default: last commit's)
set -euo pipefail
cd "$(dirname "$0")/../.."
scratch="${SCRATCH_PATH:-.build}"
swift build --scratch-path "$scratch" --product queuectl
# generate-manual is the tool behind the package's generate-manual plugin; running it directly avoids the
# plugin's sandbox and work directory.
swift build --scratch-path "$scratch" --product generate-manual
bin="$(swift build --scratch-path "$scratch" --show-bin-path)"

"$bin/queuectl" --generate-completion-script bash > contrib/completions/queuectl.bash
"$bin/queuectl" --generate-completion-script zsh > contrib/completions/_queuectl
"$bin/queuectl" --generate-completion-script fish > contrib/completions/queuectl.fish

# A fixed date keeps the page reproducible: regenerating without changes gives no diff.
date="${MAN_DATE:-$(git log -1 --format=%cs 2>/dev/null || date -u +%F)}"
"$bin/generate-manual" "$bin/queuectl" --date "$date" --section 1 --authors "the queued authors" \
    --output-directory contrib/man
echo "regenerated contrib/completions/{queuectl.bash,_queuectl,queuectl.fish} and contrib/man/queuectl.1"
