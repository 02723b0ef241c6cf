function __queued-fleet_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __queued-fleet_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __queued-fleet_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __queued-fleet_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __queued-fleet_parse_tokens -S
    set -l unparsed_tokens (__queued-fleet_tokens -pc)
    switch $unparsed_tokens[1]
    case 'queued-fleet'
        __queued-fleet_parse_subcommand 0 'broker=' 'credentials=' 'ca=' 'client-id=' 'topic-prefix=' 'listen=' 'state-dir=' 'users=' 'store=' 'webhook=' 'smtp=' 'mail-from=' 'mail-to=+' 'smtp-credentials=' 'smtp-require-tls' 'offline-alert=' 'no-play-alert=' 'disk-alert=' 'no-refused-alert' 'thumbnails=' 'allow-host=+' 'behind-https' 'insecure-listen' 'add-user=' 'role=' 'config=' 'no-config' 'log-level=' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __queued-fleet_parse_subcommand -r 1 
        end
    end
end

function __queued-fleet_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __queued-fleet_parse_subcommand -S -a positional_count
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

function __queued-fleet_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __queued-fleet_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__queued-fleet_tokens -p)
    if test -z "$(__queued-fleet_tokens -t)"
        set -l index (count (__queued-fleet_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'queued-fleet' -f
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" broker' -l 'broker' -d 'The broker: mqtt://host[:port] or mqtts://host[:port].' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" credentials' -l 'credentials' -d 'A file of username= and password= lines for the broker, mode 0600.' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" ca' -l 'ca' -d 'CA certificates to trust for mqtts:// (PEM).' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" client-id' -l 'client-id' -d 'The console\'s MQTT client id: the broker keeps the records sent while it is away under it (default: queued-fleet-HOST). Give each console on one broker its own.' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" topic-prefix' -l 'topic-prefix' -d 'Prefix of every topic.' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" listen' -l 'listen' -d 'Address and port to listen on.' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" state-dir' -l 'state-dir' -d 'Where the users file and the store live (default: ~/.local/state/queued-fleet or $STATE_DIRECTORY).' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" users' -l 'users' -d 'The users file: name:role:bcrypt-hash lines (default: users in the state directory).' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" store' -l 'store' -d 'The SQLite store (default: fleet.sqlite in the state directory).' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" webhook' -l 'webhook' -d 'Alerts go to this URL as JSON POSTs.' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" smtp' -l 'smtp' -d 'Alerts also go by mail through this SMTP server: smtp://host[:port] (STARTTLS when offered) or smtps://host[:port].' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" mail-from' -l 'mail-from' -d 'The alerts\' sender address.' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet"' -l 'mail-to' -d 'Where alert mails go (repeat).' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" smtp-credentials' -l 'smtp-credentials' -d 'username= and password= lines for the SMTP server, mode 0600.' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" smtp-require-tls' -l 'smtp-require-tls' -d 'Send no mail without TLS (STARTTLS or smtps://).'
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" offline-alert' -l 'offline-alert' -d 'Alert when a screen is offline this many minutes (0: never).' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" no-play-alert' -l 'no-play-alert' -d 'Alert when an online screen sends no play for this many minutes.' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" disk-alert' -l 'disk-alert' -d 'Alert when a screen\'s free disk falls under this percentage.' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" no-refused-alert' -l 'no-refused-alert' -d 'No alert for a refused rev.'
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" thumbnails' -l 'thumbnails' -d 'Ask every online screen for a screenshot this often: 30s, 5m, 1h (0: only on click).' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet"' -l 'allow-host' -d 'A host name the page may be reached by, besides IP addresses and this machine\'s name (repeat).' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" behind-https' -l 'behind-https' -d 'The page is reached through an https:// reverse proxy (secure cookie, https origin, HSTS).'
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" insecure-listen' -l 'insecure-listen' -d 'Listen beyond loopback without TLS all the same.'
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" add-user' -l 'add-user' -d 'Add (or change) this user, reading the password on stdin, and exit.' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" role' -l 'role' -d 'The role --add-user gives: viewer, operator, admin.' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" config' -l 'config' -d 'Read options from this file (default: queued-fleet.conf in the usual places).' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" no-config' -l 'no-config' -d 'Read no config file.'
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" log-level' -l 'log-level' -d 'trace, debug, info, notice, warning, error.' -rfka ''
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_flags_or_options "queued-fleet" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queued-fleet' -n '__queued-fleet_should_offer_completions_for_positional "queued-fleet" -eq 1' -fa 'help' -d 'Show subcommand help information.'
