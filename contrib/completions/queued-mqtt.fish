function __queued-mqtt_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __queued-mqtt_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __queued-mqtt_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __queued-mqtt_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __queued-mqtt_parse_tokens -S
    set -l unparsed_tokens (__queued-mqtt_tokens -pc)
    switch $unparsed_tokens[1]
    case 'queued-mqtt'
        __queued-mqtt_parse_subcommand 0 'broker=' 'player=' 'group=+' 'credentials=' 'ca=' 'cert=' 'key=' 'keepalive=' 'topic-prefix=' 'socket=' 'rpc-allow=+' 'rpc-deny=+' 'rpc-local-files' 'disk=' 'config=' 'no-config' 'log-level=' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __queued-mqtt_parse_subcommand -r 1 
        end
    end
end

function __queued-mqtt_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __queued-mqtt_parse_subcommand -S -a positional_count
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

function __queued-mqtt_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __queued-mqtt_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__queued-mqtt_tokens -p)
    if test -z "$(__queued-mqtt_tokens -t)"
        set -l index (count (__queued-mqtt_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'queued-mqtt' -f
complete -c 'queued-mqtt' -n '__queued-mqtt_should_offer_completions_for_flags_or_options "queued-mqtt" broker' -l 'broker' -d 'The broker: mqtt://host[:port] or mqtts://host[:port].' -rfka ''
complete -c 'queued-mqtt' -n '__queued-mqtt_should_offer_completions_for_flags_or_options "queued-mqtt" player' -l 'player' -d 'This player\'s id in topics (default: the host name).' -rfka ''
complete -c 'queued-mqtt' -n '__queued-mqtt_should_offer_completions_for_flags_or_options "queued-mqtt"' -l 'group' -d 'A group this player belongs to; repeat for several (the first wins).' -rfka ''
complete -c 'queued-mqtt' -n '__queued-mqtt_should_offer_completions_for_flags_or_options "queued-mqtt" credentials' -l 'credentials' -d 'A file of username= and password= lines, mode 0600.' -rfka ''
complete -c 'queued-mqtt' -n '__queued-mqtt_should_offer_completions_for_flags_or_options "queued-mqtt" ca' -l 'ca' -d 'CA certificates to trust for mqtts:// (PEM).' -rfka ''
complete -c 'queued-mqtt' -n '__queued-mqtt_should_offer_completions_for_flags_or_options "queued-mqtt" cert' -l 'cert' -d 'Client certificate for mqtts:// (PEM).' -rfka ''
complete -c 'queued-mqtt' -n '__queued-mqtt_should_offer_completions_for_flags_or_options "queued-mqtt" key' -l 'key' -d 'Client key for mqtts:// (PEM).' -rfka ''
complete -c 'queued-mqtt' -n '__queued-mqtt_should_offer_completions_for_flags_or_options "queued-mqtt" keepalive' -l 'keepalive' -d 'Seconds between keepalives (the broker declares us offline after 1.5 ×).' -rfka ''
complete -c 'queued-mqtt' -n '__queued-mqtt_should_offer_completions_for_flags_or_options "queued-mqtt" topic-prefix' -l 'topic-prefix' -d 'Prefix of every topic.' -rfka ''
complete -c 'queued-mqtt' -n '__queued-mqtt_should_offer_completions_for_flags_or_options "queued-mqtt" socket' -l 'socket' -d 'The daemon\'s control socket (default: as queuectl finds it).' -rfka ''
complete -c 'queued-mqtt' -n '__queued-mqtt_should_offer_completions_for_flags_or_options "queued-mqtt"' -l 'rpc-allow' -d 'Methods the fleet may call through rpc/req: a name, family.* or * (repeat; default: all but plays.ack and events.*).' -rfka ''
complete -c 'queued-mqtt' -n '__queued-mqtt_should_offer_completions_for_flags_or_options "queued-mqtt"' -l 'rpc-deny' -d 'Methods the fleet may not call through rpc/req, even if allowed (repeat).' -rfka ''
complete -c 'queued-mqtt' -n '__queued-mqtt_should_offer_completions_for_flags_or_options "queued-mqtt" rpc-local-files' -l 'rpc-local-files' -d 'Let the fleet (requests and desired documents) name local files too (default: only network items: http(s) and streams).'
complete -c 'queued-mqtt' -n '__queued-mqtt_should_offer_completions_for_flags_or_options "queued-mqtt" disk' -l 'disk' -d 'The disk whose free space the fleet sees (default: /).' -rfka ''
complete -c 'queued-mqtt' -n '__queued-mqtt_should_offer_completions_for_flags_or_options "queued-mqtt" config' -l 'config' -d 'Read options from this file (default: queued-mqtt.conf in the usual places).' -rfka ''
complete -c 'queued-mqtt' -n '__queued-mqtt_should_offer_completions_for_flags_or_options "queued-mqtt" no-config' -l 'no-config' -d 'Read no config file.'
complete -c 'queued-mqtt' -n '__queued-mqtt_should_offer_completions_for_flags_or_options "queued-mqtt" log-level' -l 'log-level' -d 'trace, debug, info, notice, warning, error.' -rfka ''
complete -c 'queued-mqtt' -n '__queued-mqtt_should_offer_completions_for_flags_or_options "queued-mqtt" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queued-mqtt' -n '__queued-mqtt_should_offer_completions_for_positional "queued-mqtt" -eq 1' -fa 'help' -d 'Show subcommand help information.'
