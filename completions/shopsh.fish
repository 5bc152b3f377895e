# fish completion for shopsh. Copy it to ~/.config/fish/completions/shopsh.fish.
#
# Every Tab asks the binary itself: `shopsh __complete WORDS… CURRENT` prints one candidate per
# line, including live values from the store (emails, product ids, categories, …), with a tab and
# its description after some (a product id's title), which fish shows beside it.

function __shopsh_complete
    set -l tokens (commandline -opc)
    set -l current (commandline -ct)
    command $tokens[1] __complete $tokens[2..-1] "$current" 2>/dev/null
end

complete -c shopsh -f -a '(__shopsh_complete)'
