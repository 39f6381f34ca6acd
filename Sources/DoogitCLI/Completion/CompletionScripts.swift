/// The shell scripts `doogit completion SHELL` prints. Each is a thin adapter: on every Tab it
/// runs `doogit __complete -- WORDS...` (the words typed so far, the one being completed last),
/// which answers from the command tree and the database, one candidate a line, as
/// `VALUE` or `VALUE<tab>DESCRIPTION`, or the single line `:files` to let the shell complete
/// file names. So the scripts never go stale: they hold no command names of their own.
enum CompletionScripts {
    enum Shell: String, CaseIterable, Sendable { case bash, zsh, fish }

    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        case .fish: fish
        }
    }

    /// Works with bash 3.2 (macOS) and needs no bash-completion package.
    static let bash = #"""
        # bash completion for doogit. Load it with: eval "$(doogit completion bash)"
        _doogit() {
            local -a words=() candidates=()
            local i word line current output
            # bash splits --opt=value at '=': join the pieces as doogit reads them.
            for ((i = 1; i <= COMP_CWORD; i++)); do
                word=${COMP_WORDS[i]}
                if ((${#words[@]} > 0)) && [[ $word == "=" || ${COMP_WORDS[i-1]} == "=" ]] \
                    && [[ ${words[${#words[@]}-1]} == --* ]]; then
                    words[${#words[@]}-1]+=$word
                else
                    words+=("$word")
                fi
            done
            ((${#words[@]} > 0)) || return 0
            current=${words[${#words[@]}-1]}
            output=$(command doogit __complete -- "${words[@]}" 2>/dev/null) || return 0
            while IFS= read -r line; do
                [[ -n $line ]] && candidates+=("${line%%$'\t'*}")
            done <<<"$output"
            if [[ ${candidates[0]-} == ":files" ]]; then
                candidates=()
                compopt -o filenames 2>/dev/null
                while IFS= read -r line; do
                    candidates+=("$line")
                done < <(compgen -f -- "${current#--*=}")
            fi
            ((${#candidates[@]} > 0)) || return 0
            # After --opt= readline replaces only what follows the '='.
            if [[ $current == --*=* ]]; then
                for i in "${!candidates[@]}"; do
                    candidates[i]=${candidates[i]#--*=}
                done
            fi
            COMPREPLY=("${candidates[@]}")
        }
        complete -F _doogit doogit

        """#

    static let zsh = #"""
        #compdef doogit
        # zsh completion for doogit. Load it with: eval "$(doogit completion zsh)" (after compinit),
        # or save it as _doogit in a folder of $fpath.
        _doogit() {
            local -a lines candidates
            local line value option=0
            lines=("${(@f)$(command doogit __complete -- "${(@Q)words[2,CURRENT]}" 2>/dev/null)}")
            # After --opt= only the value is completed (and listed).
            compset -P '--*=' && option=1
            if [[ ${lines[1]} == ":files" ]]; then
                _files
                return
            fi
            for line in "${lines[@]}"; do
                [[ -n $line ]] || continue
                value=${line%%$'\t'*}
                ((option)) && value=${value#--*=}
                value=${value//:/\\:}
                if [[ $line == *$'\t'* ]]; then
                    candidates+=("$value:${line#*$'\t'}")
                else
                    candidates+=("$value")
                fi
            done
            _describe -t values value candidates
        }
        if [[ ${funcstack[1]} == _doogit ]]; then
            _doogit "$@"
        else
            compdef _doogit doogit
        fi

        """#

    static let fish = #"""
        # fish completion for doogit. Load it with: doogit completion fish | source
        # or save it as ~/.config/fish/completions/doogit.fish
        function __doogit_complete
            set -l current (commandline -ct)
            set -l lines (command doogit __complete -- (commandline -opc)[2..-1] $current 2>/dev/null)
            if test "$lines[1]" = ":files"
                set -l prefix (string match -r -- '^--[^=]*=' $current; or echo '')
                for path in (__fish_complete_path (string replace -r -- '^--[^=]*=' '' $current))
                    echo $prefix$path
                end
                return
            end
            printf '%s\n' $lines
        end
        complete -c doogit -f -a '(__doogit_complete)'

        """#
}
