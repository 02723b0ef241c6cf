function __queued_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __queued_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __queued_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __queued_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __queued_parse_tokens -S
    set -l unparsed_tokens (__queued_tokens -pc)
    switch $unparsed_tokens[1]
    case 'queued'
        __queued_parse_subcommand -r 1 'config=' 'no-config' 'socket=' 'socket-group=' 'no-socket' 'loops=' 'item-loops=' 'audio=' 'pulse-server=' 'audio-buffer=' 'video=' 'video-driver=' 'fullscreen' 'geometry=' 'layout=' 'decode-budget=' 'fit=' 'rotate=' 'wall=' 'wall-position=' 'wall-bezel=' 'wall-panel-mm=' 'wall-crop=' 'track-end=' 'shortest-track' 'hwdec=' 'hwdec-codecs=' 'still-duration=' 'web-renderer=' 'web-memory=' 'web-fps=' 'schedule-fallback=' 'transition=' 'display-schedule=' 'display-off-command=' 'display-on-command=' 'display-command-timeout=' 'trigger=+' 'output=+' 'cap-feed=+' 'cap-interval=' 'cap-status=' 'volume=' 'rate=' 'state-dir=' 'no-state' 'sync=' 'resume=' 'replace' 'stall-timeout=' 'cache-dir=' 'net-timeout=' 'revalidate=' 'cache-size=' 'cache-min-free=' 'prefetch=' 'metrics-file=' 'progress-interval=' 'untimed' 'exit-when-done' 'log-level=' 'log-file=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __queued_parse_subcommand -r 1 'version'
        end
    end
end

function __queued_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __queued_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __queued_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __queued_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__queued_tokens -p)
    if test -z "$(__queued_tokens -t)"
        set -l index (count (__queued_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'queued' -f
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" config' -l 'config' -d 'Read options from this file instead of $XDG_CONFIG_HOME/queued/queued.conf (else ~/.config/queued/queued.conf), else /etc/queued/queued.conf: one option=value or flag per line, named as the long options without dashes; the command line overrides it.' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" no-config' -l 'no-config' -d 'Read no config file.'
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" socket' -l 'socket' -d 'Control socket (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" socket-group' -l 'socket-group' -d 'Also let members of this group use the control socket (socket mode 0660).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" no-socket' -l 'no-socket' -d 'Run without a control socket.'
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" loops' -l 'loops' -d 'Passes through the whole queue: 1 once, N times, 0 forever (default: as saved, else 1).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" item-loops' -l 'item-loops' -d 'Plays of each item given on the command line (0 = forever).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" audio' -l 'audio' -d 'Audio output: auto (PulseAudio when reachable, else null), pulse or null.' -rfka 'auto pulse null'
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" pulse-server' -l 'pulse-server' -d 'PulseAudio server (default: libpulse\'s own choice).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" audio-buffer' -l 'audio-buffer' -d 'Seconds of sound buffered at the PulseAudio server, 0.02-2. Less: pause, volume and (on sinks that read ahead) interrupts act sooner; more: safer on a loaded box.' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" video' -l 'video' -d 'Video output: auto (SDL when a display exists), sdl, null (decode, show nothing) or none.' -rfka 'auto sdl null none'
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" video-driver' -l 'video-driver' -d 'SDL video driver for --video sdl (x11, wayland, offscreen…).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" fullscreen' -l 'fullscreen' -d 'Show video fullscreen.'
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" geometry' -l 'geometry' -d 'Window size, WIDTHxHEIGHT.' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" layout' -l 'layout' -d 'Cut the screen into zones at start: a JSON file {"zones": [...]} as layout.set takes (default: the layout kept, else one zone).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" decode-budget' -l 'decode-budget' -d 'What this box decodes, in megapixels a second, against which layouts\' video zones are checked (default: the output\'s pixels at 60 pictures a second).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" fit' -l 'fit' -d 'Scaling: fit (letterbox), fill (crop) or stretch (default: as saved, else fit).' -rfka 'fit fill stretch'
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" rotate' -l 'rotate' -d 'Turn the picture clockwise by 0, 90, 180 or 270 degrees, for a panel mounted on its side (default: as saved, else 0).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" wall' -l 'wall' -d 'A video wall of equal panels, COLUMNSxROWS (3x2): this screen shows its panel\'s part of each picture, the picture fitted (--fit) to the whole wall.' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" wall-position' -l 'wall-position' -d 'This screen\'s panel in the --wall grid, COLUMN,ROW from 0,0 at the top left.' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" wall-bezel' -l 'wall-bezel' -d 'The gap between two neighbouring panels\' pictures (both bezels), X[,Y] in px of the panel or in mm (12px, 6.5mm; mm needs --wall-panel-mm): the picture goes on behind it.' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" wall-panel-mm' -l 'wall-panel-mm' -d 'The panel\'s visible size in mm, WIDTHxHEIGHT (for --wall-bezel in mm).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" wall-crop' -l 'wall-crop' -d 'Show only this rectangle of each picture, x,y,w,h in fractions of its frame (0.5,0,0.5,0.5: the top right quarter; the picture fitted to the frame by --fit, so with another shape its bars count), instead of a --wall grid.' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" track-end' -l 'track-end' -d 'Where audio+video items end when their tracks differ: auto (shortest at a loop seam, else longest), shortest or longest. Per item: trackEnd.' -rfka 'auto shortest longest'
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" shortest-track' -l 'shortest-track' -d 'Same as --track-end shortest.'
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" hwdec' -l 'hwdec' -d 'Hardware video decoding: no, auto (only methods known to be safe: nvdec, vaapi, drm) or a list such as vaapi,v4l2m2m; software whenever it cannot (the reason is logged).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" hwdec-codecs' -l 'hwdec-codecs' -d 'Codecs that may be decoded in hardware.' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" still-duration' -l 'still-duration' -d 'Seconds a still image is shown (and a web page that names no duration).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" web-renderer' -l 'web-renderer' -d 'The program that renders web items (default: queued-webview beside queued, else found on PATH).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" web-memory' -l 'web-memory' -d 'The most memory a web page\'s process may use, MiB (256-16384; a plain page takes ~170 MiB drawn in software): above it the page is stopped and its item fails.' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" web-fps' -l 'web-fps' -d 'Frames a second a web page is painted at most (1-60).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" schedule-fallback' -l 'schedule-fallback' -d 'What the screen shows while every item is outside its schedule: black, last (the last picture stays up) or an image file (absolute path).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" transition' -l 'transition' -d 'How items without their own transition are joined to the one before: cut (the gapless join), fade:SECONDS (out to black and in), dip:SECONDS:#rrggbb (through a colour) or crossfade:SECONDS (the next starts that long before this one ends, pictures blended, sounds mixed), 0.1-5 s.' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" display-schedule' -l 'display-schedule' -d 'When the screen is on, weekly: windows as in a playlist\'s schedule, separated by |, e.g. "days=mon,tue,wed,thu,fri;from=07:00;until=22:00 | days=sat;from=09:00;until=18:00"; outside them the picture is black, the sound stops, decoding pauses and the screen is told to sleep (default: always on).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" display-off-command' -l 'display-off-command' -d 'Puts the screen to sleep, run without a shell (words split as a shell would, nothing expanded), e.g. "cec-ctl --to 0 --standby"; with --display-on-command it replaces the video output\'s own way (X11 DPMS, DRM).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" display-on-command' -l 'display-on-command' -d 'Wakes the screen, run without a shell, e.g. "cec-ctl --to 0 --image-view-on".' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" display-command-timeout' -l 'display-command-timeout' -d 'Seconds before a display command is stopped (its whole process group) and reported failed.' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued"' -l 'trigger' -d 'A trigger rule, INPUT -> ACTION (repeat; `trigger` lines in the config file), e.g. "key=F1 -> interrupt /srv/promo.mp4 loops=1", "serial=/dev/ttyUSB0 match=\\"XR(\\\\d+)\\" -> play-id $1", "evdev=/dev/input/event3 code=KEY_ENTER cooldown=2s -> next", "webhook=promo secret=S -> next", "mqtt=lights -> call overlay.update {...}", "gpio=gpiochip0:17 edge=falling debounce=50ms bias=pull-up -> next". Given, they replace the rules kept from triggers.set.' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued"' -l 'output' -d 'An output rule, on=start|end [uri=PATTERN] [title=PATTERN] -> command /path words… | serial DEVICE LINE | gpio CHIP:LINE 1|0|pulse=DURATION | mqtt TOPIC PAYLOAD (repeat; `output` lines in the config file), e.g. "on=start uri=*/film*.mp4 -> command /usr/local/bin/lights dim": run when a matching play starts or ends (commands without a shell, stopped after --display-command-timeout; MQTT through queued-mqtt, on queued/<player>/output/TOPIC).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued"' -l 'cap-feed' -d 'A CAP 1.2 feed to take alerts from (http(s): one <alert>, or an Atom feed of them; repeat): each current alert of it is raised (its headline and instruction on screen, priority by severity, its expiry), a Cancel or an alert it no longer carries is withdrawn.' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" cap-interval' -l 'cap-interval' -d 'Seconds between two polls of each CAP feed.' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" cap-status' -l 'cap-status' -d 'The CAP statuses taken, comma-separated (Actual, Test, Exercise).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" volume' -l 'volume' -d 'Volume, 0-100 (default: as saved, else 100).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" rate' -l 'rate' -d 'Playback speed, 0.5-2.0, pitch preserved (default: as saved, else 1).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" state-dir' -l 'state-dir' -d 'Where the queue and the player\'s state are kept across restarts (default: $XDG_STATE_HOME/queued, else ~/.local/state/queued).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" no-state' -l 'no-state' -d 'Keep no state: start empty, save nothing.'
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" sync' -l 'sync' -d 'When a change counts as kept (and is answered): batch (written; fdatasync at most every 100 ms) or always (fdatasync first).' -rfka 'batch always'
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" resume' -l 'resume' -d 'After a restart, resume the saved current item at its position, at its start (item), or not at all (none).' -rfka 'position item none'
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" replace' -l 'replace' -d 'The files given replace the saved queue (default: they are appended to it).'
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" stall-timeout' -l 'stall-timeout' -d 'Seconds without progress while playing before the item ends \'stalled\' and the decode thread is rebuilt (the systemd watchdog stops only if that stalls too); also the longest wait for a FIFO\'s data.' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" cache-dir' -l 'cache-dir' -d 'Where http(s) items are cached (default: $XDG_CACHE_HOME/queued, else ~/.cache/queued).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" net-timeout' -l 'net-timeout' -d 'Seconds without a byte from a server before the transfer is asked again from where it stopped (then the item fails).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" revalidate' -l 'revalidate' -d 'Seconds between checks that a complete cached file is still the server\'s version (0: every play).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" cache-size' -l 'cache-size' -d 'Cap on the cache\'s size, e.g. 2G or 500M; beyond it, files no queued item uses are evicted, least recently used first.' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" cache-min-free' -l 'cache-min-free' -d 'Free space to leave on the cache\'s file system (evicting unused files), e.g. 256M.' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" prefetch' -l 'prefetch' -d 'How many http(s) items after the current one to download ahead (default: the whole queue, for offline play).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" metrics-file' -l 'metrics-file' -d 'Write daemon.health\'s figures here every 10 s as Prometheus text (node_exporter textfile).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" progress-interval' -l 'progress-interval' -d 'Seconds between progress lines in the log (0: none).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" untimed' -l 'untimed' -d 'Run as fast as possible on null outputs, no clock (soak tests and benchmarks).'
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" exit-when-done' -l 'exit-when-done' -d 'Exit when the queue has played through (instead of idling).'
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" log-level' -l 'log-level' -d 'Log level: trace, debug, info, notice, warning, error or critical; also per label, e.g. info,ffmpeg=warning,cache=debug.' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" log-file' -l 'log-file' -d 'Append the log to this file instead of stderr (stderr lines get journald priorities when it is the journal).' -rfka ''
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" version' -l 'version' -d 'Show the version.'
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queued' -n '__queued_should_offer_completions_for_positional "queued" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'queued' -n '__queued_should_offer_completions_for_flags_or_options "queued help" version' -l 'version' -d 'Show the version.'
