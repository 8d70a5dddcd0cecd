_simdup() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="simdup"
                ;;
            simdup,compare)
                cmd="simdup__subcmd__compare"
                ;;
            simdup,completions)
                cmd="simdup__subcmd__completions"
                ;;
            simdup,dedup)
                cmd="simdup__subcmd__dedup"
                ;;
            simdup,distributed)
                cmd="simdup__subcmd__distributed"
                ;;
            simdup,explain)
                cmd="simdup__subcmd__explain"
                ;;
            simdup,fingerprint)
                cmd="simdup__subcmd__fingerprint"
                ;;
            simdup,help)
                cmd="simdup__subcmd__help"
                ;;
            simdup,index)
                cmd="simdup__subcmd__index"
                ;;
            simdup,man)
                cmd="simdup__subcmd__man"
                ;;
            simdup,scan)
                cmd="simdup__subcmd__scan"
                ;;
            simdup__subcmd__distributed,fingerprint)
                cmd="simdup__subcmd__distributed__subcmd__fingerprint"
                ;;
            simdup__subcmd__distributed,help)
                cmd="simdup__subcmd__distributed__subcmd__help"
                ;;
            simdup__subcmd__distributed,plan)
                cmd="simdup__subcmd__distributed__subcmd__plan"
                ;;
            simdup__subcmd__distributed,verify)
                cmd="simdup__subcmd__distributed__subcmd__verify"
                ;;
            simdup__subcmd__distributed__subcmd__help,fingerprint)
                cmd="simdup__subcmd__distributed__subcmd__help__subcmd__fingerprint"
                ;;
            simdup__subcmd__distributed__subcmd__help,help)
                cmd="simdup__subcmd__distributed__subcmd__help__subcmd__help"
                ;;
            simdup__subcmd__distributed__subcmd__help,plan)
                cmd="simdup__subcmd__distributed__subcmd__help__subcmd__plan"
                ;;
            simdup__subcmd__distributed__subcmd__help,verify)
                cmd="simdup__subcmd__distributed__subcmd__help__subcmd__verify"
                ;;
            simdup__subcmd__help,compare)
                cmd="simdup__subcmd__help__subcmd__compare"
                ;;
            simdup__subcmd__help,completions)
                cmd="simdup__subcmd__help__subcmd__completions"
                ;;
            simdup__subcmd__help,dedup)
                cmd="simdup__subcmd__help__subcmd__dedup"
                ;;
            simdup__subcmd__help,distributed)
                cmd="simdup__subcmd__help__subcmd__distributed"
                ;;
            simdup__subcmd__help,explain)
                cmd="simdup__subcmd__help__subcmd__explain"
                ;;
            simdup__subcmd__help,fingerprint)
                cmd="simdup__subcmd__help__subcmd__fingerprint"
                ;;
            simdup__subcmd__help,help)
                cmd="simdup__subcmd__help__subcmd__help"
                ;;
            simdup__subcmd__help,index)
                cmd="simdup__subcmd__help__subcmd__index"
                ;;
            simdup__subcmd__help,man)
                cmd="simdup__subcmd__help__subcmd__man"
                ;;
            simdup__subcmd__help,scan)
                cmd="simdup__subcmd__help__subcmd__scan"
                ;;
            simdup__subcmd__help__subcmd__distributed,fingerprint)
                cmd="simdup__subcmd__help__subcmd__distributed__subcmd__fingerprint"
                ;;
            simdup__subcmd__help__subcmd__distributed,plan)
                cmd="simdup__subcmd__help__subcmd__distributed__subcmd__plan"
                ;;
            simdup__subcmd__help__subcmd__distributed,verify)
                cmd="simdup__subcmd__help__subcmd__distributed__subcmd__verify"
                ;;
            simdup__subcmd__help__subcmd__index,add)
                cmd="simdup__subcmd__help__subcmd__index__subcmd__add"
                ;;
            simdup__subcmd__help__subcmd__index,ls)
                cmd="simdup__subcmd__help__subcmd__index__subcmd__ls"
                ;;
            simdup__subcmd__help__subcmd__index,prune)
                cmd="simdup__subcmd__help__subcmd__index__subcmd__prune"
                ;;
            simdup__subcmd__help__subcmd__index,stats)
                cmd="simdup__subcmd__help__subcmd__index__subcmd__stats"
                ;;
            simdup__subcmd__index,add)
                cmd="simdup__subcmd__index__subcmd__add"
                ;;
            simdup__subcmd__index,help)
                cmd="simdup__subcmd__index__subcmd__help"
                ;;
            simdup__subcmd__index,ls)
                cmd="simdup__subcmd__index__subcmd__ls"
                ;;
            simdup__subcmd__index,prune)
                cmd="simdup__subcmd__index__subcmd__prune"
                ;;
            simdup__subcmd__index,stats)
                cmd="simdup__subcmd__index__subcmd__stats"
                ;;
            simdup__subcmd__index__subcmd__help,add)
                cmd="simdup__subcmd__index__subcmd__help__subcmd__add"
                ;;
            simdup__subcmd__index__subcmd__help,help)
                cmd="simdup__subcmd__index__subcmd__help__subcmd__help"
                ;;
            simdup__subcmd__index__subcmd__help,ls)
                cmd="simdup__subcmd__index__subcmd__help__subcmd__ls"
                ;;
            simdup__subcmd__index__subcmd__help,prune)
                cmd="simdup__subcmd__index__subcmd__help__subcmd__prune"
                ;;
            simdup__subcmd__index__subcmd__help,stats)
                cmd="simdup__subcmd__index__subcmd__help__subcmd__stats"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        simdup)
            opts="-h -V --color --help --version scan fingerprint compare dedup explain index distributed completions man help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__compare)
            opts="-z -h -V --shingle --case-sensitive --no-nfkc --keep-punctuation --token-similarity --hash --weight --vocabulary --encode-orphans --exclude-tokens --frequency-floor --frequency-ceiling --markup --transform --decompress --binary --format --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --shingle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hash)
                    COMPREPLY=($(compgen -W "xxh3 sha3" -- "${cur}"))
                    return 0
                    ;;
                --weight)
                    COMPREPLY=($(compgen -W "tf binary" -- "${cur}"))
                    return 0
                    ;;
                --vocabulary)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude-tokens)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --frequency-floor)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --frequency-ceiling)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --markup)
                    COMPREPLY=($(compgen -W "text raw" -- "${cur}"))
                    return 0
                    ;;
                --transform)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__completions)
            opts="-h -V --color --help --version bash elvish fish powershell zsh"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__dedup)
            opts="-z -L -g -0 -t -k -q -v -j -h -V --shingle --case-sensitive --no-nfkc --keep-punctuation --token-similarity --hash --weight --vocabulary --encode-orphans --exclude-tokens --frequency-floor --frequency-ceiling --markup --transform --decompress --hidden --follow --glob --max-filesize --binary --no-ignore --files-from --null --records --text-field --id-field --threshold --max-distance --min-features --short-texts --keep --print-duplicates --dropped --strict --quiet --verbose --threads --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --shingle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hash)
                    COMPREPLY=($(compgen -W "xxh3 sha3" -- "${cur}"))
                    return 0
                    ;;
                --weight)
                    COMPREPLY=($(compgen -W "tf binary" -- "${cur}"))
                    return 0
                    ;;
                --vocabulary)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude-tokens)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --frequency-floor)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --frequency-ceiling)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --markup)
                    COMPREPLY=($(compgen -W "text raw" -- "${cur}"))
                    return 0
                    ;;
                --transform)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -g)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-filesize)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --files-from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --records)
                    COMPREPLY=($(compgen -W "lines nul jsonl" -- "${cur}"))
                    return 0
                    ;;
                --text-field)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id-field)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -t)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-distance)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -k)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --min-features)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --short-texts)
                    COMPREPLY=($(compgen -W "auto join fingerprint bands" -- "${cur}"))
                    return 0
                    ;;
                --keep)
                    COMPREPLY=($(compgen -W "first last longest shortest" -- "${cur}"))
                    return 0
                    ;;
                --dropped)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__distributed)
            opts="-h -V --color --help --version plan fingerprint verify help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__distributed__subcmd__fingerprint)
            opts="-z -h -V --shingle --case-sensitive --no-nfkc --keep-punctuation --token-similarity --hash --weight --vocabulary --encode-orphans --exclude-tokens --frequency-floor --frequency-ceiling --markup --transform --decompress --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --shingle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hash)
                    COMPREPLY=($(compgen -W "xxh3 sha3" -- "${cur}"))
                    return 0
                    ;;
                --weight)
                    COMPREPLY=($(compgen -W "tf binary" -- "${cur}"))
                    return 0
                    ;;
                --vocabulary)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude-tokens)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --frequency-floor)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --frequency-ceiling)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --markup)
                    COMPREPLY=($(compgen -W "text raw" -- "${cur}"))
                    return 0
                    ;;
                --transform)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__distributed__subcmd__help)
            opts="plan fingerprint verify help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__distributed__subcmd__help__subcmd__fingerprint)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__distributed__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__distributed__subcmd__help__subcmd__plan)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__distributed__subcmd__help__subcmd__verify)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__distributed__subcmd__plan)
            opts="-k -n -h -V --max-distance --fingerprints --blocks --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --max-distance)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -k)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --fingerprints)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --blocks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__distributed__subcmd__verify)
            opts="-z -t -h -V --shingle --case-sensitive --no-nfkc --keep-punctuation --token-similarity --hash --weight --vocabulary --encode-orphans --exclude-tokens --frequency-floor --frequency-ceiling --markup --transform --decompress --threshold --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --shingle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hash)
                    COMPREPLY=($(compgen -W "xxh3 sha3" -- "${cur}"))
                    return 0
                    ;;
                --weight)
                    COMPREPLY=($(compgen -W "tf binary" -- "${cur}"))
                    return 0
                    ;;
                --vocabulary)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude-tokens)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --frequency-floor)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --frequency-ceiling)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --markup)
                    COMPREPLY=($(compgen -W "text raw" -- "${cur}"))
                    return 0
                    ;;
                --transform)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -t)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__explain)
            opts="-z -h -V --shingle --case-sensitive --no-nfkc --keep-punctuation --token-similarity --hash --weight --vocabulary --encode-orphans --exclude-tokens --frequency-floor --frequency-ceiling --markup --transform --decompress --binary --format --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --shingle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hash)
                    COMPREPLY=($(compgen -W "xxh3 sha3" -- "${cur}"))
                    return 0
                    ;;
                --weight)
                    COMPREPLY=($(compgen -W "tf binary" -- "${cur}"))
                    return 0
                    ;;
                --vocabulary)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude-tokens)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --frequency-floor)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --frequency-ceiling)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --markup)
                    COMPREPLY=($(compgen -W "text raw" -- "${cur}"))
                    return 0
                    ;;
                --transform)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__fingerprint)
            opts="-z -L -g -v -j -h -V --shingle --case-sensitive --no-nfkc --keep-punctuation --token-similarity --hash --weight --vocabulary --encode-orphans --exclude-tokens --frequency-floor --frequency-ceiling --markup --transform --decompress --hidden --follow --glob --max-filesize --binary --no-ignore --format --sdr --verbose --threads --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --shingle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hash)
                    COMPREPLY=($(compgen -W "xxh3 sha3" -- "${cur}"))
                    return 0
                    ;;
                --weight)
                    COMPREPLY=($(compgen -W "tf binary" -- "${cur}"))
                    return 0
                    ;;
                --vocabulary)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude-tokens)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --frequency-floor)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --frequency-ceiling)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --markup)
                    COMPREPLY=($(compgen -W "text raw" -- "${cur}"))
                    return 0
                    ;;
                --transform)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -g)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-filesize)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text jsonl" -- "${cur}"))
                    return 0
                    ;;
                --sdr)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__help)
            opts="scan fingerprint compare dedup explain index distributed completions man help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__help__subcmd__compare)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__help__subcmd__dedup)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__help__subcmd__distributed)
            opts="plan fingerprint verify"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__help__subcmd__distributed__subcmd__fingerprint)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__help__subcmd__distributed__subcmd__plan)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__help__subcmd__distributed__subcmd__verify)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__help__subcmd__explain)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__help__subcmd__fingerprint)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__help__subcmd__index)
            opts="add prune stats ls"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__help__subcmd__index__subcmd__add)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__help__subcmd__index__subcmd__ls)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__help__subcmd__index__subcmd__prune)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__help__subcmd__index__subcmd__stats)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__help__subcmd__man)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__help__subcmd__scan)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__index)
            opts="-h -V --color --help --version add prune stats ls help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__index__subcmd__add)
            opts="-z -L -g -q -v -j -h -V --records --text-field --id-field --db --shingle --case-sensitive --no-nfkc --keep-punctuation --token-similarity --hash --weight --vocabulary --encode-orphans --exclude-tokens --frequency-floor --frequency-ceiling --markup --transform --decompress --hidden --follow --glob --max-filesize --binary --no-ignore --quiet --verbose --threads --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --records)
                    COMPREPLY=($(compgen -W "lines nul jsonl" -- "${cur}"))
                    return 0
                    ;;
                --text-field)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id-field)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --shingle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hash)
                    COMPREPLY=($(compgen -W "xxh3 sha3" -- "${cur}"))
                    return 0
                    ;;
                --weight)
                    COMPREPLY=($(compgen -W "tf binary" -- "${cur}"))
                    return 0
                    ;;
                --vocabulary)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude-tokens)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --frequency-floor)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --frequency-ceiling)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --markup)
                    COMPREPLY=($(compgen -W "text raw" -- "${cur}"))
                    return 0
                    ;;
                --transform)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -g)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-filesize)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__index__subcmd__help)
            opts="add prune stats ls help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__index__subcmd__help__subcmd__add)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__index__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__index__subcmd__help__subcmd__ls)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__index__subcmd__help__subcmd__prune)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__index__subcmd__help__subcmd__stats)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__index__subcmd__ls)
            opts="-h -V --db --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__index__subcmd__prune)
            opts="-h -V --db --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__index__subcmd__stats)
            opts="-h -V --db --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__man)
            opts="-h -V --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        simdup__subcmd__scan)
            opts="-z -L -g -0 -t -k -q -v -j -h -V --shingle --case-sensitive --no-nfkc --keep-punctuation --token-similarity --hash --weight --vocabulary --encode-orphans --exclude-tokens --frequency-floor --frequency-ceiling --markup --transform --decompress --hidden --follow --glob --max-filesize --binary --no-ignore --files-from --null --records --text-field --id-field --fingerprints --against --cache --threshold --raw --verify --max-distance --method --window --max-pairs --max-candidates --min-features --short-texts --format --groups --group-by --show-text --fail-on-duplicates --baseline --write-baseline --update-baseline --no-config --quiet --verbose --threads --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --shingle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hash)
                    COMPREPLY=($(compgen -W "xxh3 sha3" -- "${cur}"))
                    return 0
                    ;;
                --weight)
                    COMPREPLY=($(compgen -W "tf binary" -- "${cur}"))
                    return 0
                    ;;
                --vocabulary)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude-tokens)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --frequency-floor)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --frequency-ceiling)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --markup)
                    COMPREPLY=($(compgen -W "text raw" -- "${cur}"))
                    return 0
                    ;;
                --transform)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -g)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-filesize)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --files-from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --records)
                    COMPREPLY=($(compgen -W "lines nul jsonl" -- "${cur}"))
                    return 0
                    ;;
                --text-field)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id-field)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --fingerprints)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --against)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -t)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-distance)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -k)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --method)
                    COMPREPLY=($(compgen -W "exact rotate brute join" -- "${cur}"))
                    return 0
                    ;;
                --window)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-pairs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-candidates)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --min-features)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --short-texts)
                    COMPREPLY=($(compgen -W "auto join fingerprint bands" -- "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table json jsonl csv sarif github markdown fdupes" -- "${cur}"))
                    return 0
                    ;;
                --group-by)
                    COMPREPLY=($(compgen -W "components first" -- "${cur}"))
                    return 0
                    ;;
                --baseline)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --write-baseline)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _simdup -o nosort -o bashdefault -o default simdup
else
    complete -F _simdup -o bashdefault -o default simdup
fi
