#!/usr/bin/env bash
# Builds queued, queuectl, queued-mqtt, queued-web and queued-fleet (and queued-webview, which renders web items, where WPE
# WebKit's development files are installed: contrib/setup.sh) for release with the Swift runtime and Foundation linked in
# (--static-swift-stdlib: the binaries need only Debian's libraries, not the toolchain) and installs them
# with their man pages, shell completions, the systemd units and an example config file.
#
# Usage: contrib/install.sh [--user | --system] [--prefix DIR] [--destdir DIR] [--no-build | --build-only]
#                           [--configuration release|debug] [--uninstall]
#   --user     (default unless root) binaries in ~/.local/bin, the user unit in ~/.config/systemd/user
#   --system   (default as root) binaries in /usr/local/bin, queued-signage.service in /etc/systemd/system,
#              the user unit in PREFIX/lib/systemd/user, /etc/queued/queued.conf (never overwritten)
#   --prefix DIR  install under DIR; alone (without --user/--system) everything goes under DIR, units in
#              DIR/lib/systemd/{system,user} and the config in DIR/etc/queued: nothing outside DIR
#   --destdir DIR  stage the files under DIR as if DIR were / (packaging: contrib/deb/build.sh)
#   --no-build  install what the last run built (.build/install)
#   --build-only  build, install nothing
#   --configuration debug  a debug build with the Swift runtime inside (.build/static-debug, its own scratch:
#              relinking the tests' .build/debug this way recompiled part of it with static flags, and the
#              next `swift build --build-tests` then failed to link): contrib/test.sh builds it for the
#              install tests
#   --uninstall removes exactly what the install with the same options wrote (its manifest), then the
#              manifest; a config file you edited is kept
# The units' ExecStart names the installed queued. Nothing is enabled or started: the script says how.
# Plain bash and `install` rather than a build system's install step: SwiftPM has none, and the layout
# (man, completions, units) is the usual one of Debian's packages.
set -euo pipefail
cd "$(dirname "$0")/.."
root_dir="$PWD"

mode=""
prefix=""
destdir=""
build=1
build_only=0
configuration=release
uninstall=0
while (($#)); do
  case "$1" in
    --user | --system) mode="${1#--}" ;;
    --prefix) prefix="${2:?--prefix needs a directory}"; shift ;;
    --prefix=*) prefix="${1#*=}" ;;
    --destdir) destdir="${2:?--destdir needs a directory}"; shift ;;
    --destdir=*) destdir="${1#*=}" ;;
    --no-build) build=0 ;;
    --build-only) build_only=1 ;;
    --configuration) configuration="${2:?--configuration needs release or debug}"; shift ;;
    --configuration=*) configuration="${1#*=}" ;;
    --uninstall) uninstall=1 ;;
    -h | --help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
  shift
done
if [[ -z "$mode" && -z "$prefix" ]]; then
  mode=$([[ $(id -u) -eq 0 ]] && echo system || echo user)
fi
[[ -z "$mode" ]] && mode="prefix"
if [[ -z "$prefix" ]]; then
  case "$mode" in
    user) prefix="$HOME/.local" ;;
    *) prefix="/usr/local" ;;
  esac
fi
prefix="$(realpath -m "$prefix")"
[[ -n "$destdir" ]] && destdir="$(realpath -m "$destdir")"

case "$mode" in
  user)
    system_unit_dir=""
    user_unit_dir="${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user"
    config_dir="${XDG_CONFIG_HOME:-$HOME/.config}/queued"
    ;;
  system)
    system_unit_dir="/etc/systemd/system"
    user_unit_dir="$prefix/lib/systemd/user"
    config_dir="/etc/queued"
    ;;
  prefix)
    system_unit_dir="$prefix/lib/systemd/system"
    user_unit_dir="$prefix/lib/systemd/user"
    config_dir="$prefix/etc/queued"
    ;;
esac
bin_dir="$prefix/bin"
man_dir="$prefix/share/man/man1"
bash_dir="$prefix/share/bash-completion/completions"
zsh_dir="$prefix/share/zsh/vendor-completions"
fish_dir="$prefix/share/fish/vendor_completions.d"
manifest="$destdir$prefix/share/queued/install-manifest-$mode"

if ((uninstall)); then
  if [[ ! -f "$manifest" ]]; then
    echo "install.sh: nothing to uninstall: no manifest at $manifest" >&2
    exit 1
  fi
  while IFS=' ' read -r sum path; do
    [[ -e "$destdir$path" ]] || continue
    # A file changed since it was installed (an edited config) is yours: kept.
    if [[ "$sum" != "-" && "$(sha256sum "$destdir$path" | cut -d' ' -f1)" != "$sum" ]]; then
      echo "install.sh: keeping $path (changed since it was installed)" >&2
      continue
    fi
    rm -f "$destdir$path"
    echo "removed $path"
  done <"$manifest"
  rm -f "$manifest"
  rmdir --ignore-fail-on-non-empty "$(dirname "$manifest")" 2>/dev/null || true
  exit 0
fi

case "$configuration" in
  release)
    scratch="$root_dir/.build/install"
    link_options=()
    ;;
  debug)
    scratch="$root_dir/.build/static-debug"
    # A release link drops unreferenced code (--gc-sections on whole-module objects), which is what lets
    # SwiftPM's order of Foundation's static archives resolve; a debug link keeps everything, so every
    # archive goes in one group the linker searches until nothing is left undefined.
    link_options=(-Xlinker --start-group)
    for library in Foundation FoundationNetworking CoreFoundation _CFURLSessionInterface \
      FoundationInternationalization FoundationEssentials _FoundationICU _FoundationCShims \
      _FoundationCollections swiftDispatch dispatch BlocksRuntime swiftCore swiftSynchronization \
      swift_Concurrency swift_StringProcessing swift_RegexParser swiftGlibc; do
      link_options+=(-Xlinker "-l$library")
    done
    link_options+=(-Xlinker --end-group)
    ;;
  *) echo "install.sh: --configuration is release or debug" >&2; exit 64 ;;
esac
# queued-webview (web items, issue 40) is built where WPE WebKit's development files are and installed
# beside queued when it was built; without it queued plays everything else and refuses web items.
extras=()
if [[ -e /usr/include/wpe-webkit-1.1/wpe/webkit.h && -e /usr/include/wpe-fdo-1.0/wpe/unstable/fdo-shm.h ]]; then
  extras=(queued-webview)
fi
if ((build)); then
  for product in queued queuectl queued-mqtt queued-web queued-fleet "${extras[@]}"; do
    echo "install.sh: building $product ($configuration, static Swift runtime)" >&2
    swift build -c "$configuration" --static-swift-stdlib "${link_options[@]}" --product "$product" \
      --scratch-path "$scratch"
  done
fi
((build_only)) && exit 0
built="$scratch/$configuration"
web_renderer=()
[[ -x "$built/queued-webview" ]] && web_renderer=(queued-webview)
for product in queued queuectl queued-mqtt queued-web queued-fleet "${web_renderer[@]}"; do
  [[ -x "$built/$product" ]] || { echo "install.sh: $built/$product is missing; run without --no-build" >&2; exit 1; }
  # The point of --static-swift-stdlib: nothing from the toolchain at run time.
  toolchain_libs=$(ldd "$built/$product" | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime|not found' || true)
  if [[ -n "$toolchain_libs" ]]; then
    echo "install.sh: $built/$product is not linked with --static-swift-stdlib; it needs libraries Debian does not ship:" >&2
    echo "$toolchain_libs" >&2
    exit 1
  fi
done

mkdir -p "$(dirname "$manifest")"
: >"$manifest.new"
# put SOURCE TARGET MODE: installs SOURCE at TARGET (under DESTDIR) and notes it in the manifest.
put() {
  install -D -m "$3" "$1" "$destdir$2"
  echo "$(sha256sum "$destdir$2" | cut -d' ' -f1) $2" >>"$manifest.new"
  echo "installed $2"
}
staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT

for product in "${web_renderer[@]}"; do
  cp "$built/$product" "$staging/$product"
  strip --strip-unneeded "$staging/$product" 2>/dev/null || true
  put "$staging/$product" "$bin_dir/$product" 0755
done
for product in queued queuectl queued-mqtt queued-web queued-fleet; do
  cp "$built/$product" "$staging/$product"
  strip --strip-unneeded "$staging/$product" 2>/dev/null || true
  put "$staging/$product" "$bin_dir/$product" 0755
  gzip -9n <"contrib/man/$product.1" >"$staging/$product.1.gz"
  put "$staging/$product.1.gz" "$man_dir/$product.1.gz" 0644
  put "contrib/completions/$product.bash" "$bash_dir/$product" 0644
  put "contrib/completions/_$product" "$zsh_dir/_$product" 0644
  put "contrib/completions/$product.fish" "$fish_dir/$product.fish" 0644
done

# The units as shipped name ~/.local/bin/queued and /usr/local/bin/queued: point them at this install.
sed -e "s|^ExecStart=%h/.local/bin/queued|ExecStart=$bin_dir/queued|" contrib/systemd/queued.service \
  >"$staging/queued.service"
put "$staging/queued.service" "$user_unit_dir/queued.service" 0644
if [[ -n "$system_unit_dir" ]]; then
  sed -e "s|^ExecStart=/usr/local/bin/queued|ExecStart=$bin_dir/queued|" \
    contrib/systemd/queued-signage.service >"$staging/queued-signage.service"
  put "$staging/queued-signage.service" "$system_unit_dir/queued-signage.service" 0644
  sed -e "s|^ExecStart=/usr/local/bin/queued-mqtt|ExecStart=$bin_dir/queued-mqtt|" \
    -e "s|--config /etc/queued/|--config $config_dir/|" \
    contrib/systemd/queued-mqtt.service >"$staging/queued-mqtt.service"
  put "$staging/queued-mqtt.service" "$system_unit_dir/queued-mqtt.service" 0644
  sed -e "s|^ExecStart=/usr/local/bin/queued-web|ExecStart=$bin_dir/queued-web|" \
    -e "s|--config /etc/queued/|--config $config_dir/|" \
    contrib/systemd/queued-web.service >"$staging/queued-web.service"
  put "$staging/queued-web.service" "$system_unit_dir/queued-web.service" 0644
  sed -e "s|^ExecStart=/usr/local/bin/queued-fleet|ExecStart=$bin_dir/queued-fleet|" \
    -e "s|--config /etc/queued/|--config $config_dir/|" \
    contrib/systemd/queued-fleet.service >"$staging/queued-fleet.service"
  put "$staging/queued-fleet.service" "$system_unit_dir/queued-fleet.service" 0644
fi
# The config file is the operator's: installed once (every line commented), never overwritten.
if [[ -e "$destdir$config_dir/queued.conf" ]]; then
  echo "install.sh: keeping $config_dir/queued.conf" >&2
else
  put contrib/queued.conf "$config_dir/queued.conf" 0644
fi
if [[ -e "$destdir$config_dir/queued-mqtt.conf" ]]; then
  echo "install.sh: keeping $config_dir/queued-mqtt.conf" >&2
else
  put contrib/queued-mqtt.conf "$config_dir/queued-mqtt.conf" 0644
fi
if [[ -e "$destdir$config_dir/queued-web.conf" ]]; then
  echo "install.sh: keeping $config_dir/queued-web.conf" >&2
else
  put contrib/queued-web.conf "$config_dir/queued-web.conf" 0644
fi
if [[ -e "$destdir$config_dir/queued-fleet.conf" ]]; then
  echo "install.sh: keeping $config_dir/queued-fleet.conf" >&2
else
  put contrib/queued-fleet.conf "$config_dir/queued-fleet.conf" 0644
fi
# Lines of an earlier install of the same kind that this one did not write again stay listed.
if [[ -f "$manifest" ]]; then
  grep -v -F -f <(cut -d' ' -f2- "$manifest.new") "$manifest" >>"$manifest.new" || true
fi
mv "$manifest.new" "$manifest"

[[ -n "$destdir" ]] && exit 0
echo
echo "queued $("$bin_dir/queued" --version | head -n1 | cut -d' ' -f2) installed in $bin_dir."
case "$mode" in
  user)
    [[ ":$PATH:" == *":$bin_dir:"* ]] || echo "Add $bin_dir to PATH to run queued and queuectl by name."
    echo "Start it at login:  systemctl --user daemon-reload && systemctl --user enable --now queued"
    echo "Settings:           $config_dir/queued.conf  (then systemctl --user restart queued)"
    ;;
  system)
    echo "A signage screen:   useradd --system --create-home --groups video,audio,render signage"
    echo "                    systemctl daemon-reload && systemctl enable --now queued-signage"
    echo "Settings:           $config_dir/queued.conf  (then systemctl restart queued-signage)"
    ;;
  prefix)
    echo "Units in $prefix/lib/systemd, the config in $config_dir: nothing was written outside $prefix."
    ;;
esac
echo "Remove it:          $0 --uninstall$([[ $mode != prefix ]] && echo " --$mode")$([[ -n $prefix ]] && echo " --prefix $prefix")"
