# bash completion for shopsh. Source it from ~/.bashrc, or copy it to
# ~/.local/share/bash-completion/completions/shopsh (bash-completion loads it on demand).
#
# Every Tab asks the binary itself: `shopsh __complete WORDS… CURRENT` prints one candidate per
# line, a tab and its description after some (commands, flags, flag values, file paths, and live values from the store: emails,
# usernames, product ids and SKUs, order ids, categories, currency codes).

_shopsh() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    local -a before=("${COMP_WORDS[@]:1:COMP_CWORD-1}")
    local program=${COMP_WORDS[0]}
    command -v "$program" >/dev/null 2>&1 || program=shopsh
    # `--format=j` arrives as three words (--format, =, j): complete "--format=j" as one.
    if [[ $cur == "=" || ${COMP_WORDS[COMP_CWORD-1]} == "=" ]]; then
        local flagIndex=$((COMP_CWORD - 1))
        [[ $cur == "=" ]] && cur="" || flagIndex=$((COMP_CWORD - 2))
        if (( flagIndex >= 1 )); then
            before=("${COMP_WORDS[@]:1:flagIndex-1}")
            mapfile -t COMPREPLY < <(command "$program" __complete "${before[@]}" \
                "${COMP_WORDS[flagIndex]}=$cur" 2>/dev/null)
            COMPREPLY=("${COMPREPLY[@]%%$'\t'*}")
            COMPREPLY=("${COMPREPLY[@]#*=}")
            return 0
        fi
    fi
    mapfile -t COMPREPLY < <(command "$program" __complete "${before[@]}" "$cur" 2>/dev/null)
    COMPREPLY=("${COMPREPLY[@]%%$'\t'*}")   # bash shows no descriptions: the value alone
    # A candidate with blanks or shell characters (a file name) is inserted escaped, unless the
    # word being typed opened a quote.
    if [[ $cur != [\"\']* ]]; then
        local i
        for i in "${!COMPREPLY[@]}"; do
            [[ ${COMPREPLY[i]} == *[[:space:]\'\"\\\$\`\(\)\&\;\|\<\>\*\?]* ]] && printf -v "COMPREPLY[i]" '%q' "${COMPREPLY[i]}"
        done
    fi
    if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == */ ]]; then
        compopt -o nospace 2>/dev/null   # a directory: keep typing the path
    fi
    return 0
}
complete -F _shopsh shopsh
