#!/bin/bash

__queuectl_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__queuectl_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__queuectl_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__queuectl_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_queuectl() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--json --version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|replace|next|prev|play|pause|toggle|stop|seek|rm|mv|clear|ls|status|loop|loops|volume|mute|unmute|fit|rotate|display|screenshot|watch|current|wait|crop|interrupt|overlay|save|cache|call|fleet|layout|sync|help)
        # Offer subcommand argument completions
        "_queuectl_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add replace next prev play pause toggle stop seek rm mv clear ls status loop loops volume mute unmute fit rotate display screenshot watch current wait crop interrupt overlay save cache call fleet layout sync help' -- "${cur}"))
        ;;
    esac
}

_queuectl_add() {
    repeating_flags=()
    non_repeating_flags=(--json --next --forever --web --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone --at --after --loops --sha256 --duration --on-stall --program --latency --days --from --until --start-date --end-date --transition --motion --reload --zoom --viewport --interval --load-timeout)
    __queuectl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    '--at')
        return
        ;;
    '--after')
        return
        ;;
    '--loops')
        return
        ;;
    '--sha256')
        return
        ;;
    '--duration')
        return
        ;;
    '--on-stall')
        return
        ;;
    '--program')
        return
        ;;
    '--latency')
        return
        ;;
    '--days')
        return
        ;;
    '--from')
        return
        ;;
    '--until')
        return
        ;;
    '--start-date')
        return
        ;;
    '--end-date')
        return
        ;;
    '--transition')
        return
        ;;
    '--motion')
        return
        ;;
    '--reload')
        return
        ;;
    '--zoom')
        return
        ;;
    '--viewport')
        return
        ;;
    '--interval')
        return
        ;;
    '--load-timeout')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __queuectl_add_completions -f
        return
        ;;
    esac
}

_queuectl_replace() {
    repeating_flags=()
    non_repeating_flags=(--json --at-item-end --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone --if-version --queue-loops)
    __queuectl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    '--if-version')
        return
        ;;
    '--queue-loops')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __queuectl_add_completions -f
        return
        ;;
    esac
}

_queuectl_next() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_prev() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_play() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone --at)
    __queuectl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    '--at')
        return
        ;;
    esac
}

_queuectl_pause() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_toggle() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_stop() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_seek() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_rm() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_mv() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_clear() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_ls() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_status() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_loop() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __queuectl_add_completions -W 'forever'$'\n''off'$'\n''1'$'\n''2'$'\n''3'
        return
        ;;
    esac
}

_queuectl_loops() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    2)
        __queuectl_add_completions -W 'forever'$'\n''off'$'\n''1'$'\n''2'$'\n''3'
        return
        ;;
    esac
}

_queuectl_volume() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_mute() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_unmute() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_fit() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __queuectl_add_completions -W 'fit'$'\n''fill'$'\n''stretch'
        return
        ;;
    esac
}

_queuectl_rotate() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_display() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __queuectl_add_completions -W 'on'$'\n''off'$'\n''auto'
        return
        ;;
    esac
}

_queuectl_screenshot() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone --max-width)
    __queuectl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    '--max-width')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __queuectl_add_completions -o plusdirs -fX '!*.@(png|jpg|jpeg)'
        return
        ;;
    esac
}

_queuectl_watch() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone --progress-interval)
    __queuectl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    '--progress-interval')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __queuectl_add_completions -W 'status'$'\n''progress'$'\n''itemStarted'$'\n''itemEnded'$'\n''queueChanged'$'\n''output'$'\n''itemLoading'$'\n''buffering'$'\n''cacheProgress'$'\n''cacheComplete'$'\n''cacheError'$'\n''itemSkipped'$'\n''played'$'\n''itemStalled'$'\n''itemResumed'$'\n''outputMessage'
        return
        ;;
    esac
}

_queuectl_current() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone --format)
    __queuectl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    '--format')
        return
        ;;
    esac
}

_queuectl_wait() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone --id)
    __queuectl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    '--id')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __queuectl_add_completions -W 'status'$'\n''progress'$'\n''itemStarted'$'\n''itemEnded'$'\n''queueChanged'$'\n''output'$'\n''itemLoading'$'\n''buffering'$'\n''cacheProgress'$'\n''cacheComplete'$'\n''cacheError'$'\n''itemSkipped'$'\n''played'$'\n''itemStalled'$'\n''itemResumed'$'\n''outputMessage'
        return
        ;;
    esac
}

_queuectl_crop() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_interrupt() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone --loops)
    __queuectl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    '--loops')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __queuectl_add_completions -f
        return
        ;;
    esac
}

_queuectl_overlay() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __queuectl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    ls|add|update|rm)
        # Offer subcommand argument completions
        "_queuectl_overlay_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'ls add update rm' -- "${cur}"))
        ;;
    esac
}

_queuectl_overlay_ls() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_overlay_add() {
    repeating_flags=()
    non_repeating_flags=(--json --clock --global --hide --show --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone --text --image --ticker --format --speed --font --size --color --background --padding --anchor --x --y --opacity --item --z)
    __queuectl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    '--text')
        return
        ;;
    '--image')
        __queuectl_add_completions -f
        return
        ;;
    '--ticker')
        return
        ;;
    '--format')
        return
        ;;
    '--speed')
        return
        ;;
    '--font')
        return
        ;;
    '--size')
        return
        ;;
    '--color')
        return
        ;;
    '--background')
        return
        ;;
    '--padding')
        return
        ;;
    '--anchor')
        __queuectl_add_completions -W 'top-left'$'\n''top'$'\n''top-right'$'\n''left'$'\n''center'$'\n''right'$'\n''bottom-left'$'\n''bottom'$'\n''bottom-right'
        return
        ;;
    '--x')
        return
        ;;
    '--y')
        return
        ;;
    '--opacity')
        return
        ;;
    '--item')
        return
        ;;
    '--z')
        return
        ;;
    esac
}

_queuectl_overlay_update() {
    repeating_flags=()
    non_repeating_flags=(--json --global --hide --show --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone --text --image --format --speed --font --size --color --background --padding --anchor --x --y --opacity --item --z)
    __queuectl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    '--text')
        return
        ;;
    '--image')
        __queuectl_add_completions -f
        return
        ;;
    '--format')
        return
        ;;
    '--speed')
        return
        ;;
    '--font')
        return
        ;;
    '--size')
        return
        ;;
    '--color')
        return
        ;;
    '--background')
        return
        ;;
    '--padding')
        return
        ;;
    '--anchor')
        __queuectl_add_completions -W 'top-left'$'\n''top'$'\n''top-right'$'\n''left'$'\n''center'$'\n''right'$'\n''bottom-left'$'\n''bottom'$'\n''bottom-right'
        return
        ;;
    '--x')
        return
        ;;
    '--y')
        return
        ;;
    '--opacity')
        return
        ;;
    '--item')
        return
        ;;
    '--z')
        return
        ;;
    esac
}

_queuectl_overlay_rm() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_save() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __queuectl_add_completions -o plusdirs -fX '!*.@(m3u8|m3u)'
        return
        ;;
    esac
}

_queuectl_cache() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __queuectl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    ls|prefetch|evict|revalidate|usage)
        # Offer subcommand argument completions
        "_queuectl_cache_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'ls prefetch evict revalidate usage' -- "${cur}"))
        ;;
    esac
}

_queuectl_cache_ls() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_cache_prefetch() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_cache_evict() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_cache_revalidate() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_cache_usage() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_call() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_fleet() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __queuectl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    ls|push|events|call|screenshot)
        # Offer subcommand argument completions
        "_queuectl_fleet_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'ls push events call screenshot' -- "${cur}"))
        ;;
    esac
}

_queuectl_fleet_ls() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--broker --credentials --ca --topic-prefix --socket --timeout --zone)
    __queuectl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--broker')
        return
        ;;
    '--credentials')
        return
        ;;
    '--ca')
        return
        ;;
    '--topic-prefix')
        return
        ;;
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_fleet_push() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--broker --credentials --ca --topic-prefix --socket --timeout --zone --group --player)
    __queuectl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--broker')
        return
        ;;
    '--credentials')
        return
        ;;
    '--ca')
        return
        ;;
    '--topic-prefix')
        return
        ;;
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    '--group')
        return
        ;;
    '--player')
        return
        ;;
    esac
}

_queuectl_fleet_events() {
    repeating_flags=()
    non_repeating_flags=(--json --follow --version -h --help)
    repeating_options=()
    non_repeating_options=(--broker --credentials --ca --topic-prefix --socket --timeout --zone --player)
    __queuectl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--broker')
        return
        ;;
    '--credentials')
        return
        ;;
    '--ca')
        return
        ;;
    '--topic-prefix')
        return
        ;;
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    '--player')
        return
        ;;
    esac
}

_queuectl_fleet_call() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--broker --credentials --ca --topic-prefix --socket --timeout --zone)
    __queuectl_offer_flags_options 3

    # Offer option value completions
    case "${prev}" in
    '--broker')
        return
        ;;
    '--credentials')
        return
        ;;
    '--ca')
        return
        ;;
    '--topic-prefix')
        return
        ;;
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_fleet_screenshot() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--broker --credentials --ca --topic-prefix --socket --timeout --zone --output -o --max-width)
    __queuectl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--broker')
        return
        ;;
    '--credentials')
        return
        ;;
    '--ca')
        return
        ;;
    '--topic-prefix')
        return
        ;;
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    '--output'|'-o')
        return
        ;;
    '--max-width')
        return
        ;;
    esac
}

_queuectl_layout() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __queuectl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    get|set)
        # Offer subcommand argument completions
        "_queuectl_layout_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'get set' -- "${cur}"))
        ;;
    esac
}

_queuectl_layout_get() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_layout_set() {
    repeating_flags=()
    non_repeating_flags=(--json --at-item-end --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __queuectl_add_completions -f
        return
        ;;
    esac
}

_queuectl_sync() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __queuectl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    status)
        # Offer subcommand argument completions
        "_queuectl_sync_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'status' -- "${cur}"))
        ;;
    esac
}

_queuectl_sync_status() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--socket --timeout --zone)
    __queuectl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        __queuectl_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--zone')
        return
        ;;
    esac
}

_queuectl_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __queuectl_offer_flags_options -1
}

complete -o filenames -F _queuectl queuectl
