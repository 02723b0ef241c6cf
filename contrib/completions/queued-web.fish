function __queued-web_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __queued-web_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __queued-web_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __queued-web_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __queued-web_parse_tokens -S
    set -l unparsed_tokens (__queued-web_tokens -pc)
    switch $unparsed_tokens[1]
    case 'queued-web'
        __queued-web_parse_subcommand 0 'listen=' 'socket=' 'media-dir=' 'token-file=' 'password-hash-file=' 'allow-host=+' 'upload-limit=' 'media-quota=' 'behind-https' 'insecure-listen' 'show-token' 'hash-password' 'config=' 'no-config' 'log-level=' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __queued-web_parse_subcommand -r 1 
        end
    end
end

function __queued-web_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __queued-web_parse_subcommand -S -a positional_count
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

function __queued-web_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __queued-web_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__queued-web_tokens -p)
    if test -z "$(__queued-web_tokens -t)"
        set -l index (count (__queued-web_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'queued-web' -f
complete -c 'queued-web' -n '__queued-web_should_offer_completions_for_flags_or_options "queued-web" listen' -l 'listen' -d 'Address and port to listen on (beyond loopback: with --behind-https or --insecure-listen).' -rfka ''
complete -c 'queued-web' -n '__queued-web_should_offer_completions_for_flags_or_options "queued-web" socket' -l 'socket' -d 'The daemon\'s control socket (default: as queuectl finds it).' -rfka ''
complete -c 'queued-web' -n '__queued-web_should_offer_completions_for_flags_or_options "queued-web" media-dir' -l 'media-dir' -d 'Where uploads go (default: media beside the daemon\'s state).' -rfka ''
complete -c 'queued-web' -n '__queued-web_should_offer_completions_for_flags_or_options "queued-web" token-file' -l 'token-file' -d 'The access token\'s file (default: web-token in the daemon\'s state directory).' -rfka ''
complete -c 'queued-web' -n '__queued-web_should_offer_completions_for_flags_or_options "queued-web" password-hash-file' -l 'password-hash-file' -d 'A file holding a bcrypt hash of the sign-in password (mode 0600).' -rfka ''
complete -c 'queued-web' -n '__queued-web_should_offer_completions_for_flags_or_options "queued-web"' -l 'allow-host' -d 'A host name the page may be reached by, besides IP addresses and this machine\'s name (repeat).' -rfka ''
complete -c 'queued-web' -n '__queued-web_should_offer_completions_for_flags_or_options "queued-web" upload-limit' -l 'upload-limit' -d 'Largest upload in MiB.' -rfka ''
complete -c 'queued-web' -n '__queued-web_should_offer_completions_for_flags_or_options "queued-web" media-quota' -l 'media-quota' -d 'The most the media folder may hold, in MiB (default: no quota).' -rfka ''
complete -c 'queued-web' -n '__queued-web_should_offer_completions_for_flags_or_options "queued-web" behind-https' -l 'behind-https' -d 'The page is reached through an https:// reverse proxy (secure cookie, https origin, HSTS).'
complete -c 'queued-web' -n '__queued-web_should_offer_completions_for_flags_or_options "queued-web" insecure-listen' -l 'insecure-listen' -d 'Listen beyond loopback without TLS all the same (the token and passwords cross the network in clear).'
complete -c 'queued-web' -n '__queued-web_should_offer_completions_for_flags_or_options "queued-web" show-token' -l 'show-token' -d 'Print the access token and exit.'
complete -c 'queued-web' -n '__queued-web_should_offer_completions_for_flags_or_options "queued-web" hash-password' -l 'hash-password' -d 'Read a password on standard input, print its bcrypt hash and exit.'
complete -c 'queued-web' -n '__queued-web_should_offer_completions_for_flags_or_options "queued-web" config' -l 'config' -d 'Read options from this file (default: queued-web.conf in the usual places).' -rfka ''
complete -c 'queued-web' -n '__queued-web_should_offer_completions_for_flags_or_options "queued-web" no-config' -l 'no-config' -d 'Read no config file.'
complete -c 'queued-web' -n '__queued-web_should_offer_completions_for_flags_or_options "queued-web" log-level' -l 'log-level' -d 'trace, debug, info, notice, warning, error.' -rfka ''
complete -c 'queued-web' -n '__queued-web_should_offer_completions_for_flags_or_options "queued-web" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'queued-web' -n '__queued-web_should_offer_completions_for_positional "queued-web" -eq 1' -fa 'help' -d 'Show subcommand help information.'
