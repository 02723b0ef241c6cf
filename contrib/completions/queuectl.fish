function __queuectl_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __queuectl_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __queuectl_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __queuectl_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __queuectl_parse_tokens -S
    set -l unparsed_tokens (__queuectl_tokens -pc)
    switch $unparsed_tokens[1]
    case 'queuectl'
        __queuectl_parse_subcommand 0 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'add'
            __queuectl_parse_subcommand -r 1 'socket=' 'json' 'timeout=' 'zone=' 'next' 'at=' 'after=' 'loops=' 'forever' 'sha256=' 'duration=' 'on-stall=' 'program=' 'latency=' 'days=' 'from=' 'until=' 'start-date=' 'end-date=' 'transition=' 'motion=' 'web' 'reload=' 'zoom=' 'viewport=' 'interval=' 'load-timeout=' 'version' 'h/help'
        case 'replace'
            __queuectl_parse_subcommand -r 1 'socket=' 'json' 'timeout=' 'zone=' 'at-item-end' 'if-version=' 'queue-loops=' 'version' 'h/help'
        case 'next'
            __queuectl_parse_subcommand 0 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'prev'
            __queuectl_parse_subcommand 0 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'play'
            __queuectl_parse_subcommand 1 'socket=' 'json' 'timeout=' 'zone=' 'at=' 'version' 'h/help'
        case 'pause'
            __queuectl_parse_subcommand 0 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'toggle'
            __queuectl_parse_subcommand 0 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'stop'
            __queuectl_parse_subcommand 0 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'seek'
            __queuectl_parse_subcommand -r 1 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'rm'
            __queuectl_parse_subcommand -r 1 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'mv'
            __queuectl_parse_subcommand 2 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'clear'
            __queuectl_parse_subcommand 0 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'ls'
            __queuectl_parse_subcommand 0 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'status'
            __queuectl_parse_subcommand 0 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'loop'
            __queuectl_parse_subcommand 1 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'loops'
            __queuectl_parse_subcommand 2 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'volume'
            __queuectl_parse_subcommand 1 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'mute'
            __queuectl_parse_subcommand 0 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'unmute'
            __queuectl_parse_subcommand 0 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'fit'
            __queuectl_parse_subcommand 1 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'rotate'
            __queuectl_parse_subcommand 1 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'display'
            __queuectl_parse_subcommand 1 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'screenshot'
            __queuectl_parse_subcommand 1 'socket=' 'json' 'timeout=' 'zone=' 'max-width=' 'version' 'h/help'
        case 'watch'
            __queuectl_parse_subcommand -r 1 'socket=' 'json' 'timeout=' 'zone=' 'progress-interval=' 'version' 'h/help'
        case 'current'
            __queuectl_parse_subcommand 0 'socket=' 'json' 'timeout=' 'zone=' 'format=' 'version' 'h/help'
        case 'wait'
            __queuectl_parse_subcommand 1 'socket=' 'json' 'timeout=' 'zone=' 'id=' 'version' 'h/help'
        case 'crop'
            __queuectl_parse_subcommand 0 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'interrupt'
            __queuectl_parse_subcommand 1 'socket=' 'json' 'timeout=' 'zone=' 'loops=' 'version' 'h/help'
        case 'overlay'
            __queuectl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'ls'
                __queuectl_parse_subcommand 0 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
            case 'add'
                __queuectl_parse_subcommand 0 'socket=' 'json' 'timeout=' 'zone=' 'text=' 'image=' 'clock' 'ticker=' 'format=' 'speed=' 'font=' 'size=' 'color=' 'background=' 'padding=' 'anchor=' 'x=' 'y=' 'opacity=' 'item=' 'global' 'hide' 'show' 'z=' 'version' 'h/help'
            case 'update'
                __queuectl_parse_subcommand 1 'socket=' 'json' 'timeout=' 'zone=' 'text=' 'image=' 'format=' 'speed=' 'font=' 'size=' 'color=' 'background=' 'padding=' 'anchor=' 'x=' 'y=' 'opacity=' 'item=' 'global' 'hide' 'show' 'z=' 'version' 'h/help'
            case 'rm'
                __queuectl_parse_subcommand -r 1 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
            end
        case 'save'
            __queuectl_parse_subcommand 1 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'cache'
            __queuectl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'ls'
                __queuectl_parse_subcommand -r 1 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
            case 'prefetch'
                __queuectl_parse_subcommand -r 1 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
            case 'evict'
                __queuectl_parse_subcommand -r 1 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
            case 'revalidate'
                __queuectl_parse_subcommand -r 1 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
            case 'usage'
                __queuectl_parse_subcommand 0 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
            end
        case 'call'
            __queuectl_parse_subcommand 2 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
        case 'fleet'
            __queuectl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'ls'
                __queuectl_parse_subcommand 0 'broker=' 'credentials=' 'ca=' 'topic-prefix=' 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
            case 'push'
                __queuectl_parse_subcommand 1 'broker=' 'credentials=' 'ca=' 'topic-prefix=' 'socket=' 'json' 'timeout=' 'zone=' 'group=' 'player=' 'version' 'h/help'
            case 'events'
                __queuectl_parse_subcommand 0 'broker=' 'credentials=' 'ca=' 'topic-prefix=' 'socket=' 'json' 'timeout=' 'zone=' 'player=' 'follow' 'version' 'h/help'
            case 'call'
                __queuectl_parse_subcommand 3 'broker=' 'credentials=' 'ca=' 'topic-prefix=' 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
            case 'screenshot'
                __queuectl_parse_subcommand 1 'broker=' 'credentials=' 'ca=' 'topic-prefix=' 'socket=' 'json' 'timeout=' 'zone=' 'o/output=' 'max-width=' 'version' 'h/help'
            end
        case 'layout'
            __queuectl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'get'
                __queuectl_parse_subcommand 0 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
            case 'set'
                __queuectl_parse_subcommand 1 'socket=' 'json' 'timeout=' 'zone=' 'at-item-end' 'version' 'h/help'
            end
        case 'sync'
            __queuectl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'status'
                __queuectl_parse_subcommand 0 'socket=' 'json' 'timeout=' 'zone=' 'version' 'h/help'
            end
        case 'help'
            __queuectl_parse_subcommand -r 1 'version'
        end
    end
end

function __queuectl_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __queuectl_parse_subcommand -S -a positional_count
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

function __queuectl_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __queuectl_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__queuectl_tokens -p)
    if test -z "$(__queuectl_tokens -t)"
        set -l index (count (__queuectl_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'queuectl' -f
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'add' -d 'Add files, directories, playlists (.m3u/.m3u8), http(s) URLs or streams to the queue.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'replace' -d 'Replace the whole queue with files, directories or playlists, in one step.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'next' -d 'Skip to the next item.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'prev' -d 'Go back to the previous item.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'play' -d 'Start or resume playback, or play the item ID.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'pause' -d 'Pause playback.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'toggle' -d 'Pause if playing, play if paused.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'stop' -d 'Stop playback.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'seek' -d 'Seek in the current item.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'rm' -d 'Remove items by id.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'mv' -d 'Move an item to a queue index (0 = first).'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'clear' -d 'Remove every item from the queue.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'ls' -d 'List the queue (▶ marks the current item).'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'status' -d 'Show what is playing, where, and the settings.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'loop' -d 'Set how often the whole queue plays: N passes, forever, or off (once).'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'loops' -d 'Set how often one item plays: N or forever.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'volume' -d 'Set the volume (0-100), or show it.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'mute' -d 'Mute the sound (the volume is kept).'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'unmute' -d 'Unmute the sound.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'fit' -d 'Set how the picture fills the screen, or show it.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'rotate' -d 'Turn the picture clockwise (0, 90, 180 or 270 degrees), or show how it is turned.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'display' -d 'Turn the screen off or on, give it back to its schedule (auto), or show its power.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'screenshot' -d 'Save the picture on screen as a PNG (or JPEG) file.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'watch' -d 'Print events as they happen, until interrupted.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'current' -d 'Print one line about the current item (nothing when none).'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'wait' -d 'Wait for an event, print it and exit (exit status 4 on timeout).'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'crop' -d 'Remove every item but the current one, which plays on uninterrupted.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'interrupt' -d 'Play one file or URL now, then go back to the queue where it was.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'overlay' -d 'Show or change the layers drawn above the video.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'save' -d 'Write the queue to an extended M3U playlist that `add` reads back.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'cache' -d 'Show or manage the cache of http(s) items.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'call' -d 'Send any JSON-RPC request and print its result as JSON.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'fleet' -d 'Run a fleet of screens through an MQTT broker (see queued-mqtt).'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'layout' -d 'Show or set the screen\'s zones (each with its own queue: --zone NAME).'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'sync' -d 'The screen\'s sync group (a video wall; queued-sync).'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl add" -ge 1' -F
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" next' -l 'next' -d 'Insert after the current item (append when nothing is current).'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" at' -l 'at' -d 'Insert at this queue index (0 = first).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" after' -l 'after' -d 'Insert after the item with this id.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" loops' -l 'loops' -d 'Plays of each added item (0 = forever).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" forever' -l 'forever' -d 'Play each added item forever (same as --loops 0).'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" sha256' -l 'sha256' -d 'The SHA-256 an http(s) item\'s file must have (64 hex digits): a mismatch is fetched again once, then fails the item.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" duration' -l 'duration' -d 'How long each added still or stream plays: 90, 1:30, 10m, 1h30m (a stream without one plays until it ends).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" on-stall' -l 'on-stall' -d 'Streams: at a drop, hold the last picture and reconnect (hold, the default), show black and reconnect (black), or end the item at once (skip).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" program' -l 'program' -d 'Streams: the MPEG-TS program to play, by its number as ffprobe lists it (default: the program of the picture FFmpeg finds best).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" latency' -l 'latency' -d 'Live streams: the latency to keep, in seconds (0.2 to 30; default 1 for RTSP, RTMP, SRT, UDP and RTP, what the play settles at for HLS and DASH): played up to 0.5 % faster or slower to stay near it.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" days' -l 'days' -d 'Play only on these days (comma-separated: mon,tue,wed,thu,fri,sat,sun), in the daemon\'s local time.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" from' -l 'from' -d 'Play only from this local time each day (HH:MM).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" until' -l 'until' -d 'Play only until this local time (HH:MM, exclusive; not after --from: past midnight).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" start-date' -l 'start-date' -d 'Play only from this date on (YYYY-MM-DD).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" end-date' -l 'end-date' -d 'Play only up to this date, inclusive (YYYY-MM-DD).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" transition' -l 'transition' -d 'How each added item is joined to the one before it: cut, fade:SECONDS, dip:SECONDS:#rrggbb or crossfade:SECONDS (0.1-5 s; default: the daemon\'s).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" motion' -l 'motion' -d 'Stills: a slow pan and zoom while shown: auto, or from>to frames as fractions of the picture, x,y,w,h>x,y,w,h.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" web' -l 'web' -d 'Each added URL is a web page, shown for --duration (a local .html file is one without saying so).'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" reload' -l 'reload' -d 'Web pages: load afresh before each play (each-play, the default) or keep the page alive between plays (keep).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" zoom' -l 'zoom' -d 'Web pages: the zoom factor (0.25 to 5).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" viewport' -l 'viewport' -d 'Web pages: the CSS size the page is laid out at (default: the size it shows at).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" interval' -l 'interval' -d 'Web pages: reload every this many seconds while shown (5 or more).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" load-timeout' -l 'load-timeout' -d 'Web pages: seconds the page may take to load and paint before its play fails (1-300; default 15).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl replace" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl replace" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl replace" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl replace" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl replace" -ge 1' -F
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl replace" at-item-end' -l 'at-item-end' -d 'Let the play under way end whole, then play the new queue.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl replace" if-version' -l 'if-version' -d 'Replace only if the queue is still at this version.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl replace" queue-loops' -l 'queue-loops' -d 'Passes through the new queue (0 = forever).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl replace" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl replace" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl next" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl next" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl next" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl next" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl next" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl next" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl prev" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl prev" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl prev" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl prev" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl prev" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl prev" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl play" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl play" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl play" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl play" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl play" at' -l 'at' -d 'Synchronized start: show the first picture at this Unix time (seconds, with a fraction), or +SECONDS from now. Give every screen of a wall the same instant.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl play" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl play" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl pause" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl pause" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl pause" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl pause" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl pause" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl pause" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl toggle" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl toggle" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl toggle" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl toggle" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl toggle" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl toggle" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl stop" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl stop" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl stop" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl stop" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl stop" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl stop" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl seek" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl seek" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl seek" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl seek" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl seek" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl seek" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl rm" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl rm" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl rm" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl rm" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl rm" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl rm" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl mv" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl mv" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl mv" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl mv" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl mv" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl mv" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl clear" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl clear" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl clear" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl clear" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl clear" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl clear" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl ls" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl ls" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl ls" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl ls" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl ls" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl ls" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl status" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl status" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl status" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl status" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl status" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl loop" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl loop" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl loop" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl loop" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl loop" -eq 1' -fka 'forever off 1 2 3'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl loop" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl loop" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl loops" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl loops" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl loops" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl loops" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl loops" -eq 1' -fka 'forever off 1 2 3'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl loops" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl loops" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl volume" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl volume" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl volume" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl volume" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl volume" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl volume" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl mute" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl mute" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl mute" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl mute" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl mute" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl mute" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl unmute" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl unmute" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl unmute" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl unmute" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl unmute" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl unmute" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fit" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fit" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fit" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fit" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl fit" -eq 1' -fka 'fit fill stretch'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fit" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fit" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl rotate" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl rotate" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl rotate" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl rotate" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl rotate" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl rotate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl display" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl display" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl display" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl display" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl display" -eq 1' -fka 'on off auto'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl display" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl display" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl screenshot" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl screenshot" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl screenshot" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl screenshot" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl screenshot" -eq 1' -fa '(set -l exts \'png\' \'jpg\' \'jpeg\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl screenshot" max-width' -l 'max-width' -d 'Scale it down to at most this width (a thumbnail).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl screenshot" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl screenshot" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl watch" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl watch" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl watch" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl watch" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl watch" -ge 1' -fka 'status progress itemStarted itemEnded queueChanged output itemLoading buffering cacheProgress cacheComplete cacheError itemSkipped played itemStalled itemResumed outputMessage'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl watch" progress-interval' -l 'progress-interval' -d 'Seconds between progress events (at least 0.05).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl watch" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl watch" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl current" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl current" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl current" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl current" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl current" format' -l 'format' -d 'The line, with {placeholders}.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl current" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl current" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl wait" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl wait" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl wait" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl wait" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl wait" -eq 1' -fka 'status progress itemStarted itemEnded queueChanged output itemLoading buffering cacheProgress cacheComplete cacheError itemSkipped played itemStalled itemResumed outputMessage'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl wait" id' -l 'id' -d 'Only an event about this item.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl wait" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl wait" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl crop" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl crop" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl crop" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl crop" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl crop" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl crop" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl interrupt" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl interrupt" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl interrupt" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl interrupt" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl interrupt" -eq 1' -F
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl interrupt" loops' -l 'loops' -d 'How many times it plays (1 to 1000).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl interrupt" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl interrupt" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl overlay" -eq 1' -fa 'ls' -d 'List the layers, bottom first.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl overlay" -eq 1' -fa 'add' -d 'Add a text, image, clock or ticker layer.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl overlay" -eq 1' -fa 'update' -d 'Change a layer (only the options given).'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl overlay" -eq 1' -fa 'rm' -d 'Remove layers.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay ls" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay ls" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay ls" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay ls" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay ls" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay ls" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" text' -l 'text' -d 'A text layer.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" image' -l 'image' -d 'An image layer (PNG or JPEG).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" clock' -l 'clock' -d 'A clock layer (see --format).'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" ticker' -l 'ticker' -d 'A scrolling ticker layer.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" format' -l 'format' -d 'Clock pattern, strftime (default %H:%M).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" speed' -l 'speed' -d 'Ticker speed in pixels per second (default 100).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" font' -l 'font' -d 'Font family (fontconfig name).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" size' -l 'size' -d 'Font pixel size (1 to 1000).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" color' -l 'color' -d 'Text colour, #rrggbb or #rrggbbaa.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" background' -l 'background' -d 'Box behind the layer, #rrggbb[aa], or none.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" padding' -l 'padding' -d 'Box padding in pixels.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" anchor' -l 'anchor' -d 'top-left, top, top-right, left, center, right, bottom-left, bottom or bottom-right.' -rfka 'top-left top top-right left center right bottom-left bottom bottom-right'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" x' -l 'x' -d 'Horizontal offset from the anchor: pixels or N%.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" y' -l 'y' -d 'Vertical offset from the anchor: pixels or N%.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" opacity' -l 'opacity' -d '0 (invisible) to 1 (opaque).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" item' -l 'item' -d 'Show it only while this item plays.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" global' -l 'global' -d 'Show it whatever plays (undoes --item).'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" hide' -l 'hide' -d 'Keep it but do not draw it.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" show' -l 'show' -d 'Draw it again.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" z' -l 'z' -d 'Drawing order: higher on top.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" text' -l 'text' -d 'New text (text and ticker layers).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" image' -l 'image' -d 'New image file (image layers).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" format' -l 'format' -d 'New clock pattern (clock layers).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" speed' -l 'speed' -d 'New ticker speed, pixels per second.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" font' -l 'font' -d 'Font family (fontconfig name).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" size' -l 'size' -d 'Font pixel size (1 to 1000).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" color' -l 'color' -d 'Text colour, #rrggbb or #rrggbbaa.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" background' -l 'background' -d 'Box behind the layer, #rrggbb[aa], or none.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" padding' -l 'padding' -d 'Box padding in pixels.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" anchor' -l 'anchor' -d 'top-left, top, top-right, left, center, right, bottom-left, bottom or bottom-right.' -rfka 'top-left top top-right left center right bottom-left bottom bottom-right'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" x' -l 'x' -d 'Horizontal offset from the anchor: pixels or N%.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" y' -l 'y' -d 'Vertical offset from the anchor: pixels or N%.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" opacity' -l 'opacity' -d '0 (invisible) to 1 (opaque).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" item' -l 'item' -d 'Show it only while this item plays.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" global' -l 'global' -d 'Show it whatever plays (undoes --item).'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" hide' -l 'hide' -d 'Keep it but do not draw it.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" show' -l 'show' -d 'Draw it again.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" z' -l 'z' -d 'Drawing order: higher on top.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay update" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay rm" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay rm" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay rm" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay rm" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay rm" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl overlay rm" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl save" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl save" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl save" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl save" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl save" -eq 1' -fa '(set -l exts \'m3u8\' \'m3u\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl save" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl save" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl cache" -eq 1' -fa 'ls' -d 'The cache state of http(s) items (all of them, or these ids).'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl cache" -eq 1' -fa 'prefetch' -d 'Download these http(s) items now, ahead of their play.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl cache" -eq 1' -fa 'evict' -d 'Drop these http(s) items\' cached files.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl cache" -eq 1' -fa 'revalidate' -d 'Ask the server now whether cached files changed.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl cache" -eq 1' -fa 'usage' -d 'How much disk the cache takes, its cap and the free space.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache ls" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache ls" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache ls" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache ls" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache ls" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache ls" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache prefetch" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache prefetch" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache prefetch" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache prefetch" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache prefetch" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache prefetch" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache evict" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache evict" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache evict" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache evict" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache evict" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache evict" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache revalidate" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache revalidate" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache revalidate" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache revalidate" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache revalidate" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache revalidate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache usage" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache usage" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache usage" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache usage" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache usage" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl cache usage" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl call" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl call" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl call" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl call" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl call" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl call" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl fleet" -eq 1' -fa 'ls' -d 'Every player: online or offline, applied and pending rev, what it plays, errors.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl fleet" -eq 1' -fa 'push' -d 'Publish a desired-state document (retained) to a group or a player.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl fleet" -eq 1' -fa 'events' -d 'Proof of play as it comes: one line (or JSON object) per play.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl fleet" -eq 1' -fa 'call' -d 'Call a JSON-RPC method on one screen, through the broker.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl fleet" -eq 1' -fa 'screenshot' -d 'Save what a screen shows (a JPEG), through the broker.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet ls" broker' -l 'broker' -d 'The broker: mqtt://host[:port] or mqtts://host[:port].' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet ls" credentials' -l 'credentials' -d 'A file of username= and password= lines, mode 0600.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet ls" ca' -l 'ca' -d 'CA certificates to trust for mqtts:// (PEM).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet ls" topic-prefix' -l 'topic-prefix' -d 'Prefix of every topic.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet ls" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet ls" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet ls" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet ls" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet ls" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet ls" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet push" broker' -l 'broker' -d 'The broker: mqtt://host[:port] or mqtts://host[:port].' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet push" credentials' -l 'credentials' -d 'A file of username= and password= lines, mode 0600.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet push" ca' -l 'ca' -d 'CA certificates to trust for mqtts:// (PEM).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet push" topic-prefix' -l 'topic-prefix' -d 'Prefix of every topic.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet push" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet push" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet push" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet push" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet push" group' -l 'group' -d 'The group it is for.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet push" player' -l 'player' -d 'The player it is for.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet push" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet push" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet events" broker' -l 'broker' -d 'The broker: mqtt://host[:port] or mqtts://host[:port].' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet events" credentials' -l 'credentials' -d 'A file of username= and password= lines, mode 0600.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet events" ca' -l 'ca' -d 'CA certificates to trust for mqtts:// (PEM).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet events" topic-prefix' -l 'topic-prefix' -d 'Prefix of every topic.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet events" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet events" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet events" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet events" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet events" player' -l 'player' -d 'Only this player.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet events" follow' -l 'follow' -d 'Keep printing until interrupted (else: what arrives within --timeout).'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet events" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet events" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet call" broker' -l 'broker' -d 'The broker: mqtt://host[:port] or mqtts://host[:port].' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet call" credentials' -l 'credentials' -d 'A file of username= and password= lines, mode 0600.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet call" ca' -l 'ca' -d 'CA certificates to trust for mqtts:// (PEM).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet call" topic-prefix' -l 'topic-prefix' -d 'Prefix of every topic.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet call" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet call" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet call" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet call" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet call" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet call" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet screenshot" broker' -l 'broker' -d 'The broker: mqtt://host[:port] or mqtts://host[:port].' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet screenshot" credentials' -l 'credentials' -d 'A file of username= and password= lines, mode 0600.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet screenshot" ca' -l 'ca' -d 'CA certificates to trust for mqtts:// (PEM).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet screenshot" topic-prefix' -l 'topic-prefix' -d 'Prefix of every topic.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet screenshot" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet screenshot" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet screenshot" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet screenshot" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet screenshot" o output' -l 'output' -s 'o' -d 'Where to write it.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet screenshot" max-width' -l 'max-width' -d 'Scale down to at most this width.' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet screenshot" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl fleet screenshot" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl layout" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl layout" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl layout" -eq 1' -fa 'get' -d 'The zones in force.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl layout" -eq 1' -fa 'set' -d 'Cut the screen into the zones of a JSON file ({"zones": [...]}).'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl layout get" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl layout get" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl layout get" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl layout get" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl layout get" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl layout get" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl layout set" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl layout set" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl layout set" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl layout set" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl layout set" -eq 1' -F
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl layout set" at-item-end' -l 'at-item-end' -d 'Wait for the main zone\'s current item to end.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl layout set" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl layout set" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl sync" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl sync" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_positional "queuectl sync" -eq 1' -fa 'status' -d 'Who leads, and how far each member is from it.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl sync status" socket' -l 'socket' -d 'Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).' -rF
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl sync status" json' -l 'json' -d 'Print the method\'s JSON result (one line) instead of text, for scripts.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl sync status" timeout' -l 'timeout' -d 'Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl sync status" zone' -l 'zone' -d 'The zone whose queue and player the command acts on (see `queuectl layout`; default: main).' -rfka ''
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl sync status" version' -l 'version' -d 'Show the version.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl sync status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queuectl' -n '__queuectl_should_offer_completions_for_flags_or_options "queuectl help" version' -l 'version' -d 'Show the version.'
