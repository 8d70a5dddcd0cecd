# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_simdup_global_optspecs
    string join \n color= h/help V/version
end

function __fish_simdup_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_simdup_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_simdup_using_subcommand
    set -l cmd (__fish_simdup_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c simdup -n "__fish_simdup_needs_command" -l color -d 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set or TERM is dumb'
always\t'Always'
never\t'Never'"
complete -c simdup -n "__fish_simdup_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c simdup -n "__fish_simdup_needs_command" -s V -l version -d 'Print version'
complete -c simdup -n "__fish_simdup_needs_command" -f -a "scan" -d 'Find near-duplicate pairs and groups among documents'
complete -c simdup -n "__fish_simdup_needs_command" -f -a "fingerprint" -d 'Print the SimHash fingerprint of each document'
complete -c simdup -n "__fish_simdup_needs_command" -f -a "compare" -d 'Compare two documents: Hamming distance, similarity, exact Jaccard'
complete -c simdup -n "__fish_simdup_needs_command" -f -a "dedup" -d 'Write the records that are not near-duplicates of an earlier one, in input order'
complete -c simdup -n "__fish_simdup_needs_command" -f -a "explain" -d 'Explain a pair: distance, Jaccard, containment, shared passages and unique lines'
complete -c simdup -n "__fish_simdup_needs_command" -f -a "index" -d 'Keep fingerprints in an SQLite file, to search new documents against (scan --against)'
complete -c simdup -n "__fish_simdup_needs_command" -f -a "distributed" -d 'Steps of a distributed scan, run by spark/simdup_spark.py on its workers (docs/SPARK.md)'
complete -c simdup -n "__fish_simdup_needs_command" -f -a "completions" -d 'Print shell completions'
complete -c simdup -n "__fish_simdup_needs_command" -f -a "man" -d 'Print the man page (roff)'
complete -c simdup -n "__fish_simdup_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l shingle -d 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]' -r
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l hash -d 'The hash of each feature' -r -f -a "xxh3\t'xxh3-64, seed 0'
sha3\t'SHAKE256, first 8 bytes little-endian'"
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l weight -d 'How much each feature counts' -r -f -a "tf\t'Term frequency in the document (the default of simdup 0.1)'
binary\t'Every distinct feature counts once, as near-duplicates are defined (Jaccard of feature sets)'"
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l vocabulary -d 'Token weights, one `token weight` per line (htm.core vocabulary)' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l exclude-tokens -d 'Tokens to leave out, one per line' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l frequency-floor -d 'Leave out the first N occurrences of each token in a document (htm.core)' -r
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l frequency-ceiling -d 'Keep at most N occurrences of each token in a document (htm.core)' -r
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l markup -d 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes' -r -f -a "text\t'Their text: markup, link targets, front matter and fence lines dropped, code kept'
raw\t'Their bytes as written'"
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l transform -d 'Compare what CMD writes for each file instead (e.g. \'pandoc -t plain $IN\'): $IN is the file\'s path; without $IN the file is on CMD\'s stdin. Run without a shell' -r
complete -c simdup -n "__fish_simdup_using_subcommand scan" -s g -l glob -d 'Only files matching GLOB; `!GLOB` excludes. Repeatable' -r
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l max-filesize -d 'Skip files larger than SIZE (e.g. 512K, 10M, 2G); with records, records longer than SIZE (default 16M)' -r
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l files-from -d 'Read the paths to scan from FILE (`-`: stdin), one per line' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l records -d 'How the input is cut into records, each a document: lines (default), NUL-terminated records, or JSON objects one per line' -r -f -a "lines\t'One document per line'
nul\t'One document per NUL-terminated record'
jsonl\t'One JSON object per line'"
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l text-field -d 'With --records jsonl: the field holding the text: a top-level key, else a dotted path (meta.body) or a JSON Pointer (/meta/body)' -r
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l id-field -d 'With --records jsonl: the field holding the id, named as --text-field is (default: the line number)' -r
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l fingerprints -d 'Search fingerprints saved by `simdup fingerprint` instead of reading documents (`-`: stdin)' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l against -d 'Search the documents against the index FILE (`simdup index add`): only pairs with a document given here are reported' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l cache -d 'Reuse the fingerprints of files unchanged since the last scan with this cache FILE (same path, size, time and feature options) and store the new ones in it (an SQLite file)' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand scan" -s t -l threshold -d 'Near-duplicates are pairs whose exact Jaccard is at least T (0-1)' -r
complete -c simdup -n "__fish_simdup_using_subcommand scan" -s k -l max-distance -d 'Search radius: candidates differ in at most K bits, 0-32 (default: chosen by the cost model; 9 with --raw)' -r
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l method -d 'How candidate pairs are found' -r -f -a "exact\t'Permuted block tables: every pair within k (default)'
rotate\t'Rotate, sort, compare neighbours: approximate (docs/SEARCH.md says when it pays)'
brute\t'All pairs: the reference, for small inputs'
join\t'No radius: every pair at the threshold, by an exact join of the feature sets (reads every document again and holds its features while they are ranked: about 27 bytes a feature on real text)'"
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l window -d 'With --method rotate: neighbours compared after each sort [default: 8]' -r
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l max-pairs -d 'List at most N pairs (counts and groups are always complete)' -r
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l max-candidates -d 'Verify at most N candidate pairs of distinct fingerprints (memory: a few dozen bytes each; documents that share a fingerprint are compared whatever N); past it, a chosen radius narrows and a given -k is an error' -r
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l min-features -d 'Documents with fewer features are matched only by exact content' -r
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l short-texts -d 'How pairs of two one-line texts (compared by character pairs) are found' -r -f -a "auto\t'Exact join, unless too costly (then MinHash bands, unless they crowd or K is given to scan)'
join\t'Exact join, whatever it costs: every pair at the threshold'
fingerprint\t'Within K by their character-pair fingerprints, like other documents'
bands\t'By their MinHash bands, without the join: expected recall 0.947 at 0.8, faster on long inputs'"
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l format -d 'Output format' -r -f -a "table\t'Aligned columns: distance, similarity, a, b'
json\t'One JSON document with version, params, stats, pairs and groups'
jsonl\t'One JSON object per pair (or group) per line'
csv\t'CSV with a header line'
sarif\t'SARIF 2.1.0 for code scanning: one result per pair, a location in each file'
github\t'GitHub Actions annotations: a ::warning in each file of each pair'
markdown\t'A Markdown heading and table, for $GITHUB_STEP_SUMMARY or a PR comment'
fdupes\t'Groups as blocks of paths (or record ids), one per line, each block ending with a blank line: the output of fdupes and jdupes, for scripts that read it'"
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l group-by -d 'How pairs form groups (--groups, fdupes, JSON): components joins documents through any chain of pairs; first puts each document in the group of the earliest group\'s first member it is a near-duplicate of, so every member is a near-duplicate of its group\'s first (what `simdup dedup` keeps and drops). Verified mode only' -r -f -a "components\t'Connected components of the pairs'
first\t'Each group led by its first member'"
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l baseline -d 'Accept the pairs recorded in FILE: only new pairs are listed and fail the run' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l write-baseline -d 'Record today\'s pairs in FILE (a baseline accepting all of them)' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand scan" -s j -l threads -d 'Worker threads (default: one per core; at most 256, or one per core if more)' -r
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l color -d 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set or TERM is dumb'
always\t'Always'
never\t'Never'"
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l case-sensitive -d 'Keep upper and lower case apart'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l no-nfkc -d 'Do not apply Unicode NFKC normalisation'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l keep-punctuation -d 'Keep punctuation inside tokens instead of treating it as a separator'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l token-similarity -d 'Also add each word\'s characters as features (htm.core)'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l encode-orphans -d 'With --vocabulary: also encode tokens missing from it (weight 1)'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -s z -l decompress -d 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l hidden -d 'Include hidden files and directories'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -s L -l follow -d 'Follow symbolic links (loops are reported, not followed)'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l binary -d 'Read files that look binary (a NUL byte in the first 8 KiB)'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l no-ignore -d 'Do not honour .gitignore, .ignore and .simdupignore files'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -s 0 -l null -d 'With --files-from: paths are NUL-separated (find -print0)'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l raw -d 'Report raw SimHash pairs within -k instead: fast, unverified'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l verify -d 'With --fingerprints: read the documents again and verify (raw by default there)'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l groups -d 'Report groups instead of pairs'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l show-text -d 'With --format json or jsonl: add the text of each document (a_text and b_text of a pair, texts of a group); a file\'s is read again, its first 16 MiB at most'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l fail-on-duplicates -d 'Exit with code 1 when near-duplicates are found (for CI); with --baseline, new ones only'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l update-baseline -d 'With --baseline: rewrite it in place, without its stale entries and with today\'s paths and keys (new pairs are not added)'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -l no-config -d 'Ignore simdup.toml and .simdup.toml (looked for up to the repository root)'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -s q -l quiet -d 'No summary and no progress bar on stderr (errors are still printed)'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -s v -l verbose -d 'Also name every skipped and empty input on stderr'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c simdup -n "__fish_simdup_using_subcommand scan" -s V -l version -d 'Print version'
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l shingle -d 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]' -r
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l hash -d 'The hash of each feature' -r -f -a "xxh3\t'xxh3-64, seed 0'
sha3\t'SHAKE256, first 8 bytes little-endian'"
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l weight -d 'How much each feature counts' -r -f -a "tf\t'Term frequency in the document (the default of simdup 0.1)'
binary\t'Every distinct feature counts once, as near-duplicates are defined (Jaccard of feature sets)'"
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l vocabulary -d 'Token weights, one `token weight` per line (htm.core vocabulary)' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l exclude-tokens -d 'Tokens to leave out, one per line' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l frequency-floor -d 'Leave out the first N occurrences of each token in a document (htm.core)' -r
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l frequency-ceiling -d 'Keep at most N occurrences of each token in a document (htm.core)' -r
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l markup -d 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes' -r -f -a "text\t'Their text: markup, link targets, front matter and fence lines dropped, code kept'
raw\t'Their bytes as written'"
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l transform -d 'Compare what CMD writes for each file instead (e.g. \'pandoc -t plain $IN\'): $IN is the file\'s path; without $IN the file is on CMD\'s stdin. Run without a shell' -r
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -s g -l glob -d 'Only files matching GLOB; `!GLOB` excludes. Repeatable' -r
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l max-filesize -d 'Skip files larger than SIZE (e.g. 512K, 10M, 2G); with records, records longer than SIZE (default 16M)' -r
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l format -d 'Output format' -r -f -a "text\t'`<16 hex digits>  <path>`, after a header naming the options'
jsonl\t'One JSON object per document'"
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l sdr -d 'Print htm.core\'s sparse encoding instead: the indices of the ACTIVE largest of SIZE sums. Its features are single words, htm.core\'s tokens, unless --shingle says otherwise' -r
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -s j -l threads -d 'Worker threads (default: one per core; at most 256, or one per core if more)' -r
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l color -d 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set or TERM is dumb'
always\t'Always'
never\t'Never'"
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l case-sensitive -d 'Keep upper and lower case apart'
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l no-nfkc -d 'Do not apply Unicode NFKC normalisation'
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l keep-punctuation -d 'Keep punctuation inside tokens instead of treating it as a separator'
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l token-similarity -d 'Also add each word\'s characters as features (htm.core)'
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l encode-orphans -d 'With --vocabulary: also encode tokens missing from it (weight 1)'
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -s z -l decompress -d 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l hidden -d 'Include hidden files and directories'
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -s L -l follow -d 'Follow symbolic links (loops are reported, not followed)'
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l binary -d 'Read files that look binary (a NUL byte in the first 8 KiB)'
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -l no-ignore -d 'Do not honour .gitignore, .ignore and .simdupignore files'
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -s v -l verbose -d 'Also name every file the walk passes over on stderr'
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c simdup -n "__fish_simdup_using_subcommand fingerprint" -s V -l version -d 'Print version'
complete -c simdup -n "__fish_simdup_using_subcommand compare" -l shingle -d 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]' -r
complete -c simdup -n "__fish_simdup_using_subcommand compare" -l hash -d 'The hash of each feature' -r -f -a "xxh3\t'xxh3-64, seed 0'
sha3\t'SHAKE256, first 8 bytes little-endian'"
complete -c simdup -n "__fish_simdup_using_subcommand compare" -l weight -d 'How much each feature counts' -r -f -a "tf\t'Term frequency in the document (the default of simdup 0.1)'
binary\t'Every distinct feature counts once, as near-duplicates are defined (Jaccard of feature sets)'"
complete -c simdup -n "__fish_simdup_using_subcommand compare" -l vocabulary -d 'Token weights, one `token weight` per line (htm.core vocabulary)' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand compare" -l exclude-tokens -d 'Tokens to leave out, one per line' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand compare" -l frequency-floor -d 'Leave out the first N occurrences of each token in a document (htm.core)' -r
complete -c simdup -n "__fish_simdup_using_subcommand compare" -l frequency-ceiling -d 'Keep at most N occurrences of each token in a document (htm.core)' -r
complete -c simdup -n "__fish_simdup_using_subcommand compare" -l markup -d 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes' -r -f -a "text\t'Their text: markup, link targets, front matter and fence lines dropped, code kept'
raw\t'Their bytes as written'"
complete -c simdup -n "__fish_simdup_using_subcommand compare" -l transform -d 'Compare what CMD writes for each file instead (e.g. \'pandoc -t plain $IN\'): $IN is the file\'s path; without $IN the file is on CMD\'s stdin. Run without a shell' -r
complete -c simdup -n "__fish_simdup_using_subcommand compare" -l format -d 'Output format' -r -f -a "text\t'One `name  value` line per figure'
json\t'One JSON object'"
complete -c simdup -n "__fish_simdup_using_subcommand compare" -l color -d 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set or TERM is dumb'
always\t'Always'
never\t'Never'"
complete -c simdup -n "__fish_simdup_using_subcommand compare" -l case-sensitive -d 'Keep upper and lower case apart'
complete -c simdup -n "__fish_simdup_using_subcommand compare" -l no-nfkc -d 'Do not apply Unicode NFKC normalisation'
complete -c simdup -n "__fish_simdup_using_subcommand compare" -l keep-punctuation -d 'Keep punctuation inside tokens instead of treating it as a separator'
complete -c simdup -n "__fish_simdup_using_subcommand compare" -l token-similarity -d 'Also add each word\'s characters as features (htm.core)'
complete -c simdup -n "__fish_simdup_using_subcommand compare" -l encode-orphans -d 'With --vocabulary: also encode tokens missing from it (weight 1)'
complete -c simdup -n "__fish_simdup_using_subcommand compare" -s z -l decompress -d 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
complete -c simdup -n "__fish_simdup_using_subcommand compare" -l binary -d 'Compare files that look binary (a NUL byte in the first 8 KiB)'
complete -c simdup -n "__fish_simdup_using_subcommand compare" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c simdup -n "__fish_simdup_using_subcommand compare" -s V -l version -d 'Print version'
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l shingle -d 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]' -r
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l hash -d 'The hash of each feature' -r -f -a "xxh3\t'xxh3-64, seed 0'
sha3\t'SHAKE256, first 8 bytes little-endian'"
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l weight -d 'How much each feature counts' -r -f -a "tf\t'Term frequency in the document (the default of simdup 0.1)'
binary\t'Every distinct feature counts once, as near-duplicates are defined (Jaccard of feature sets)'"
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l vocabulary -d 'Token weights, one `token weight` per line (htm.core vocabulary)' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l exclude-tokens -d 'Tokens to leave out, one per line' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l frequency-floor -d 'Leave out the first N occurrences of each token in a document (htm.core)' -r
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l frequency-ceiling -d 'Keep at most N occurrences of each token in a document (htm.core)' -r
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l markup -d 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes' -r -f -a "text\t'Their text: markup, link targets, front matter and fence lines dropped, code kept'
raw\t'Their bytes as written'"
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l transform -d 'Compare what CMD writes for each file instead (e.g. \'pandoc -t plain $IN\'): $IN is the file\'s path; without $IN the file is on CMD\'s stdin. Run without a shell' -r
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -s g -l glob -d 'Only files matching GLOB; `!GLOB` excludes. Repeatable' -r
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l max-filesize -d 'Skip files larger than SIZE (e.g. 512K, 10M, 2G); with records, records longer than SIZE (default 16M)' -r
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l files-from -d 'Deduplicate the files listed in FILE (`-`: stdin), one per line, and print the paths to keep' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l records -d 'How the input is cut into records, each a document: lines (default), NUL-terminated records, or JSON objects one per line' -r -f -a "lines\t'One document per line'
nul\t'One document per NUL-terminated record'
jsonl\t'One JSON object per line'"
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l text-field -d 'With --records jsonl: the field holding the text: a top-level key, else a dotted path (meta.body) or a JSON Pointer (/meta/body)' -r
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l id-field -d 'With --records jsonl: the field holding the id, named as --text-field is (default: the line number)' -r
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -s t -l threshold -d 'Near-duplicates are pairs whose exact Jaccard is at least T (above 0, at most 1: at 0 every record would be a near-duplicate of the first)' -r
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -s k -l max-distance -d 'Search radius: candidates differ in at most K bits, 0-32 (default: chosen by the scan\'s cost model as the input grows, the scan\'s for up to 20,000 records; for short texts searched by fingerprint, at least 6). Wider finds more near-copies and costs more' -r
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l min-features -d 'Records with fewer features are matched only by exact content' -r
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l short-texts -d 'How kept one-line texts (compared by character pairs) are found: auto joins them exactly until the join costs too much, then finds those that share a MinHash band (expected recall 0.947 at Jaccard 0.8, 0.9996 at 0.9)' -r -f -a "auto\t'Exact join, unless too costly (then MinHash bands, unless they crowd or K is given to scan)'
join\t'Exact join, whatever it costs: every pair at the threshold'
fingerprint\t'Within K by their character-pair fingerprints, like other documents'
bands\t'By their MinHash bands, without the join: expected recall 0.947 at 0.8, faster on long inputs'"
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l keep -d 'Which record of a set of near-copies survives. Any but `first` needs the whole input: nothing is written until it ends, and every record is spooled (to a temporary file past 32 MiB) with about 130 bytes each in memory' -r -f -a "first\t'The first in input order; streams'
last\t'The last; reads the whole input first'
longest\t'The longest text (the first of equals); reads the whole input first'
shortest\t'The shortest text (the first of equals); reads the whole input first'"
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l dropped -d 'Write one JSON line per removed record to FILE: its line (and id), the kept record it matched, and their Jaccard' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -s j -l threads -d 'Worker threads for fingerprinting (default: one per core; at most 256, or one per core if more); the output is the same whatever the number' -r
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l color -d 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set or TERM is dumb'
always\t'Always'
never\t'Never'"
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l case-sensitive -d 'Keep upper and lower case apart'
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l no-nfkc -d 'Do not apply Unicode NFKC normalisation'
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l keep-punctuation -d 'Keep punctuation inside tokens instead of treating it as a separator'
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l token-similarity -d 'Also add each word\'s characters as features (htm.core)'
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l encode-orphans -d 'With --vocabulary: also encode tokens missing from it (weight 1)'
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -s z -l decompress -d 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l hidden -d 'Include hidden files and directories'
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -s L -l follow -d 'Follow symbolic links (loops are reported, not followed)'
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l binary -d 'Read files that look binary (a NUL byte in the first 8 KiB)'
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l no-ignore -d 'Do not honour .gitignore, .ignore and .simdupignore files'
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -s 0 -l null -d 'With files: paths are NUL-separated, in --files-from and in the output (xargs -0)'
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l print-duplicates -d 'Print the removed records (or paths) instead of the kept ones'
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -l strict -d 'Stop at the first malformed record (default: report it and go on; exit code 2 at the end)'
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -s q -l quiet -d 'No summary on stderr (errors are still printed)'
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -s v -l verbose -d 'With files: also name every skipped file on stderr'
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c simdup -n "__fish_simdup_using_subcommand dedup" -s V -l version -d 'Print version'
complete -c simdup -n "__fish_simdup_using_subcommand explain" -l shingle -d 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]' -r
complete -c simdup -n "__fish_simdup_using_subcommand explain" -l hash -d 'The hash of each feature' -r -f -a "xxh3\t'xxh3-64, seed 0'
sha3\t'SHAKE256, first 8 bytes little-endian'"
complete -c simdup -n "__fish_simdup_using_subcommand explain" -l weight -d 'How much each feature counts' -r -f -a "tf\t'Term frequency in the document (the default of simdup 0.1)'
binary\t'Every distinct feature counts once, as near-duplicates are defined (Jaccard of feature sets)'"
complete -c simdup -n "__fish_simdup_using_subcommand explain" -l vocabulary -d 'Token weights, one `token weight` per line (htm.core vocabulary)' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand explain" -l exclude-tokens -d 'Tokens to leave out, one per line' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand explain" -l frequency-floor -d 'Leave out the first N occurrences of each token in a document (htm.core)' -r
complete -c simdup -n "__fish_simdup_using_subcommand explain" -l frequency-ceiling -d 'Keep at most N occurrences of each token in a document (htm.core)' -r
complete -c simdup -n "__fish_simdup_using_subcommand explain" -l markup -d 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes' -r -f -a "text\t'Their text: markup, link targets, front matter and fence lines dropped, code kept'
raw\t'Their bytes as written'"
complete -c simdup -n "__fish_simdup_using_subcommand explain" -l transform -d 'Compare what CMD writes for each file instead (e.g. \'pandoc -t plain $IN\'): $IN is the file\'s path; without $IN the file is on CMD\'s stdin. Run without a shell' -r
complete -c simdup -n "__fish_simdup_using_subcommand explain" -l format -d 'Output format' -r -f -a "text\t'For a person: figures, passages, and the lines unique to each side'
json\t'One JSON object with the same figures and line ranges'"
complete -c simdup -n "__fish_simdup_using_subcommand explain" -l color -d 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set or TERM is dumb'
always\t'Always'
never\t'Never'"
complete -c simdup -n "__fish_simdup_using_subcommand explain" -l case-sensitive -d 'Keep upper and lower case apart'
complete -c simdup -n "__fish_simdup_using_subcommand explain" -l no-nfkc -d 'Do not apply Unicode NFKC normalisation'
complete -c simdup -n "__fish_simdup_using_subcommand explain" -l keep-punctuation -d 'Keep punctuation inside tokens instead of treating it as a separator'
complete -c simdup -n "__fish_simdup_using_subcommand explain" -l token-similarity -d 'Also add each word\'s characters as features (htm.core)'
complete -c simdup -n "__fish_simdup_using_subcommand explain" -l encode-orphans -d 'With --vocabulary: also encode tokens missing from it (weight 1)'
complete -c simdup -n "__fish_simdup_using_subcommand explain" -s z -l decompress -d 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
complete -c simdup -n "__fish_simdup_using_subcommand explain" -l binary -d 'Read files that look binary (a NUL byte in the first 8 KiB)'
complete -c simdup -n "__fish_simdup_using_subcommand explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c simdup -n "__fish_simdup_using_subcommand explain" -s V -l version -d 'Print version'
complete -c simdup -n "__fish_simdup_using_subcommand index; and not __fish_seen_subcommand_from add prune stats ls help" -l color -d 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set or TERM is dumb'
always\t'Always'
never\t'Never'"
complete -c simdup -n "__fish_simdup_using_subcommand index; and not __fish_seen_subcommand_from add prune stats ls help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c simdup -n "__fish_simdup_using_subcommand index; and not __fish_seen_subcommand_from add prune stats ls help" -s V -l version -d 'Print version'
complete -c simdup -n "__fish_simdup_using_subcommand index; and not __fish_seen_subcommand_from add prune stats ls help" -f -a "add" -d 'Fingerprint files (or records from stdin) into the index; unchanged ones are not stored again'
complete -c simdup -n "__fish_simdup_using_subcommand index; and not __fish_seen_subcommand_from add prune stats ls help" -f -a "prune" -d 'Drop the documents whose file no longer exists'
complete -c simdup -n "__fish_simdup_using_subcommand index; and not __fish_seen_subcommand_from add prune stats ls help" -f -a "stats" -d 'Say how many documents the index holds, and with which feature options'
complete -c simdup -n "__fish_simdup_using_subcommand index; and not __fish_seen_subcommand_from add prune stats ls help" -f -a "ls" -d 'List the stored documents: fingerprint, features, bytes, name'
complete -c simdup -n "__fish_simdup_using_subcommand index; and not __fish_seen_subcommand_from add prune stats ls help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l records -d 'How the input is cut into records, each a document: lines (default), NUL-terminated records, or JSON objects one per line' -r -f -a "lines\t'One document per line'
nul\t'One document per NUL-terminated record'
jsonl\t'One JSON object per line'"
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l text-field -d 'With --records jsonl: the field holding the text: a top-level key, else a dotted path (meta.body) or a JSON Pointer (/meta/body)' -r
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l id-field -d 'With --records jsonl: the field holding the id, named as --text-field is (default: the line number)' -r
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l db -d 'The index: an SQLite file' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l shingle -d 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]' -r
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l hash -d 'The hash of each feature' -r -f -a "xxh3\t'xxh3-64, seed 0'
sha3\t'SHAKE256, first 8 bytes little-endian'"
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l weight -d 'How much each feature counts' -r -f -a "tf\t'Term frequency in the document (the default of simdup 0.1)'
binary\t'Every distinct feature counts once, as near-duplicates are defined (Jaccard of feature sets)'"
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l vocabulary -d 'Token weights, one `token weight` per line (htm.core vocabulary)' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l exclude-tokens -d 'Tokens to leave out, one per line' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l frequency-floor -d 'Leave out the first N occurrences of each token in a document (htm.core)' -r
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l frequency-ceiling -d 'Keep at most N occurrences of each token in a document (htm.core)' -r
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l markup -d 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes' -r -f -a "text\t'Their text: markup, link targets, front matter and fence lines dropped, code kept'
raw\t'Their bytes as written'"
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l transform -d 'Compare what CMD writes for each file instead (e.g. \'pandoc -t plain $IN\'): $IN is the file\'s path; without $IN the file is on CMD\'s stdin. Run without a shell' -r
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -s g -l glob -d 'Only files matching GLOB; `!GLOB` excludes. Repeatable' -r
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l max-filesize -d 'Skip files larger than SIZE (e.g. 512K, 10M, 2G); with records, records longer than SIZE (default 16M)' -r
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -s j -l threads -d 'Worker threads (default: one per core; at most 256, or one per core if more)' -r
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l color -d 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set or TERM is dumb'
always\t'Always'
never\t'Never'"
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l case-sensitive -d 'Keep upper and lower case apart'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l no-nfkc -d 'Do not apply Unicode NFKC normalisation'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l keep-punctuation -d 'Keep punctuation inside tokens instead of treating it as a separator'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l token-similarity -d 'Also add each word\'s characters as features (htm.core)'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l encode-orphans -d 'With --vocabulary: also encode tokens missing from it (weight 1)'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -s z -l decompress -d 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l hidden -d 'Include hidden files and directories'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -s L -l follow -d 'Follow symbolic links (loops are reported, not followed)'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l binary -d 'Read files that look binary (a NUL byte in the first 8 KiB)'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -l no-ignore -d 'Do not honour .gitignore, .ignore and .simdupignore files'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Say nothing on stderr but errors'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -s v -l verbose -d 'Also name every skipped and empty input on stderr'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from prune" -l db -d 'The index: an SQLite file' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from prune" -l color -d 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set or TERM is dumb'
always\t'Always'
never\t'Never'"
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from prune" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from prune" -s V -l version -d 'Print version'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from stats" -l db -d 'The index: an SQLite file' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from stats" -l color -d 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set or TERM is dumb'
always\t'Always'
never\t'Never'"
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from stats" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from stats" -s V -l version -d 'Print version'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from ls" -l db -d 'The index: an SQLite file' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from ls" -l color -d 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set or TERM is dumb'
always\t'Always'
never\t'Never'"
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from ls" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from ls" -s V -l version -d 'Print version'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from help" -f -a "add" -d 'Fingerprint files (or records from stdin) into the index; unchanged ones are not stored again'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from help" -f -a "prune" -d 'Drop the documents whose file no longer exists'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from help" -f -a "stats" -d 'Say how many documents the index holds, and with which feature options'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from help" -f -a "ls" -d 'List the stored documents: fingerprint, features, bytes, name'
complete -c simdup -n "__fish_simdup_using_subcommand index; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and not __fish_seen_subcommand_from plan fingerprint verify help" -l color -d 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set or TERM is dumb'
always\t'Always'
never\t'Never'"
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and not __fish_seen_subcommand_from plan fingerprint verify help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and not __fish_seen_subcommand_from plan fingerprint verify help" -s V -l version -d 'Print version'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and not __fish_seen_subcommand_from plan fingerprint verify help" -f -a "plan" -d 'Print the exact search\'s block tables for N distinct fingerprints at distance K, as JSON'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and not __fish_seen_subcommand_from plan fingerprint verify help" -f -a "fingerprint" -d 'Read JSON Lines records ({"id", "text"}) on stdin; print each one\'s fingerprints'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and not __fish_seen_subcommand_from plan fingerprint verify help" -f -a "verify" -d 'Read JSON Lines pairs ({"a", "b", "a_text", "b_text", "short_texts"}) on stdin; print whether each is a near-duplicate and its exact Jaccard'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and not __fish_seen_subcommand_from plan fingerprint verify help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from plan" -s k -l max-distance -d 'The search radius' -r
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from plan" -s n -l fingerprints -d 'Distinct fingerprints searched' -r
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from plan" -l blocks -d 'Cut the 64 bits into M blocks instead of the cost model\'s choice' -r
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from plan" -l color -d 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set or TERM is dumb'
always\t'Always'
never\t'Never'"
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from plan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from plan" -s V -l version -d 'Print version'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from fingerprint" -l shingle -d 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]' -r
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from fingerprint" -l hash -d 'The hash of each feature' -r -f -a "xxh3\t'xxh3-64, seed 0'
sha3\t'SHAKE256, first 8 bytes little-endian'"
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from fingerprint" -l weight -d 'How much each feature counts' -r -f -a "tf\t'Term frequency in the document (the default of simdup 0.1)'
binary\t'Every distinct feature counts once, as near-duplicates are defined (Jaccard of feature sets)'"
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from fingerprint" -l vocabulary -d 'Token weights, one `token weight` per line (htm.core vocabulary)' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from fingerprint" -l exclude-tokens -d 'Tokens to leave out, one per line' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from fingerprint" -l frequency-floor -d 'Leave out the first N occurrences of each token in a document (htm.core)' -r
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from fingerprint" -l frequency-ceiling -d 'Keep at most N occurrences of each token in a document (htm.core)' -r
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from fingerprint" -l markup -d 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes' -r -f -a "text\t'Their text: markup, link targets, front matter and fence lines dropped, code kept'
raw\t'Their bytes as written'"
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from fingerprint" -l transform -d 'Compare what CMD writes for each file instead (e.g. \'pandoc -t plain $IN\'): $IN is the file\'s path; without $IN the file is on CMD\'s stdin. Run without a shell' -r
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from fingerprint" -l color -d 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set or TERM is dumb'
always\t'Always'
never\t'Never'"
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from fingerprint" -l case-sensitive -d 'Keep upper and lower case apart'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from fingerprint" -l no-nfkc -d 'Do not apply Unicode NFKC normalisation'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from fingerprint" -l keep-punctuation -d 'Keep punctuation inside tokens instead of treating it as a separator'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from fingerprint" -l token-similarity -d 'Also add each word\'s characters as features (htm.core)'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from fingerprint" -l encode-orphans -d 'With --vocabulary: also encode tokens missing from it (weight 1)'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from fingerprint" -s z -l decompress -d 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from fingerprint" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from fingerprint" -s V -l version -d 'Print version'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from verify" -l shingle -d 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]' -r
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from verify" -l hash -d 'The hash of each feature' -r -f -a "xxh3\t'xxh3-64, seed 0'
sha3\t'SHAKE256, first 8 bytes little-endian'"
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from verify" -l weight -d 'How much each feature counts' -r -f -a "tf\t'Term frequency in the document (the default of simdup 0.1)'
binary\t'Every distinct feature counts once, as near-duplicates are defined (Jaccard of feature sets)'"
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from verify" -l vocabulary -d 'Token weights, one `token weight` per line (htm.core vocabulary)' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from verify" -l exclude-tokens -d 'Tokens to leave out, one per line' -r -F
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from verify" -l frequency-floor -d 'Leave out the first N occurrences of each token in a document (htm.core)' -r
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from verify" -l frequency-ceiling -d 'Keep at most N occurrences of each token in a document (htm.core)' -r
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from verify" -l markup -d 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes' -r -f -a "text\t'Their text: markup, link targets, front matter and fence lines dropped, code kept'
raw\t'Their bytes as written'"
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from verify" -l transform -d 'Compare what CMD writes for each file instead (e.g. \'pandoc -t plain $IN\'): $IN is the file\'s path; without $IN the file is on CMD\'s stdin. Run without a shell' -r
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from verify" -s t -l threshold -d 'Near-duplicates are pairs whose exact Jaccard is at least T (0-1)' -r
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from verify" -l color -d 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set or TERM is dumb'
always\t'Always'
never\t'Never'"
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from verify" -l case-sensitive -d 'Keep upper and lower case apart'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from verify" -l no-nfkc -d 'Do not apply Unicode NFKC normalisation'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from verify" -l keep-punctuation -d 'Keep punctuation inside tokens instead of treating it as a separator'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from verify" -l token-similarity -d 'Also add each word\'s characters as features (htm.core)'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from verify" -l encode-orphans -d 'With --vocabulary: also encode tokens missing from it (weight 1)'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from verify" -s z -l decompress -d 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from verify" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from verify" -s V -l version -d 'Print version'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from help" -f -a "plan" -d 'Print the exact search\'s block tables for N distinct fingerprints at distance K, as JSON'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from help" -f -a "fingerprint" -d 'Read JSON Lines records ({"id", "text"}) on stdin; print each one\'s fingerprints'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from help" -f -a "verify" -d 'Read JSON Lines pairs ({"a", "b", "a_text", "b_text", "short_texts"}) on stdin; print whether each is a near-duplicate and its exact Jaccard'
complete -c simdup -n "__fish_simdup_using_subcommand distributed; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c simdup -n "__fish_simdup_using_subcommand completions" -l color -d 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set or TERM is dumb'
always\t'Always'
never\t'Never'"
complete -c simdup -n "__fish_simdup_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c simdup -n "__fish_simdup_using_subcommand completions" -s V -l version -d 'Print version'
complete -c simdup -n "__fish_simdup_using_subcommand man" -l color -d 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set or TERM is dumb'
always\t'Always'
never\t'Never'"
complete -c simdup -n "__fish_simdup_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c simdup -n "__fish_simdup_using_subcommand man" -s V -l version -d 'Print version'
complete -c simdup -n "__fish_simdup_using_subcommand help; and not __fish_seen_subcommand_from scan fingerprint compare dedup explain index distributed completions man help" -f -a "scan" -d 'Find near-duplicate pairs and groups among documents'
complete -c simdup -n "__fish_simdup_using_subcommand help; and not __fish_seen_subcommand_from scan fingerprint compare dedup explain index distributed completions man help" -f -a "fingerprint" -d 'Print the SimHash fingerprint of each document'
complete -c simdup -n "__fish_simdup_using_subcommand help; and not __fish_seen_subcommand_from scan fingerprint compare dedup explain index distributed completions man help" -f -a "compare" -d 'Compare two documents: Hamming distance, similarity, exact Jaccard'
complete -c simdup -n "__fish_simdup_using_subcommand help; and not __fish_seen_subcommand_from scan fingerprint compare dedup explain index distributed completions man help" -f -a "dedup" -d 'Write the records that are not near-duplicates of an earlier one, in input order'
complete -c simdup -n "__fish_simdup_using_subcommand help; and not __fish_seen_subcommand_from scan fingerprint compare dedup explain index distributed completions man help" -f -a "explain" -d 'Explain a pair: distance, Jaccard, containment, shared passages and unique lines'
complete -c simdup -n "__fish_simdup_using_subcommand help; and not __fish_seen_subcommand_from scan fingerprint compare dedup explain index distributed completions man help" -f -a "index" -d 'Keep fingerprints in an SQLite file, to search new documents against (scan --against)'
complete -c simdup -n "__fish_simdup_using_subcommand help; and not __fish_seen_subcommand_from scan fingerprint compare dedup explain index distributed completions man help" -f -a "distributed" -d 'Steps of a distributed scan, run by spark/simdup_spark.py on its workers (docs/SPARK.md)'
complete -c simdup -n "__fish_simdup_using_subcommand help; and not __fish_seen_subcommand_from scan fingerprint compare dedup explain index distributed completions man help" -f -a "completions" -d 'Print shell completions'
complete -c simdup -n "__fish_simdup_using_subcommand help; and not __fish_seen_subcommand_from scan fingerprint compare dedup explain index distributed completions man help" -f -a "man" -d 'Print the man page (roff)'
complete -c simdup -n "__fish_simdup_using_subcommand help; and not __fish_seen_subcommand_from scan fingerprint compare dedup explain index distributed completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c simdup -n "__fish_simdup_using_subcommand help; and __fish_seen_subcommand_from index" -f -a "add" -d 'Fingerprint files (or records from stdin) into the index; unchanged ones are not stored again'
complete -c simdup -n "__fish_simdup_using_subcommand help; and __fish_seen_subcommand_from index" -f -a "prune" -d 'Drop the documents whose file no longer exists'
complete -c simdup -n "__fish_simdup_using_subcommand help; and __fish_seen_subcommand_from index" -f -a "stats" -d 'Say how many documents the index holds, and with which feature options'
complete -c simdup -n "__fish_simdup_using_subcommand help; and __fish_seen_subcommand_from index" -f -a "ls" -d 'List the stored documents: fingerprint, features, bytes, name'
complete -c simdup -n "__fish_simdup_using_subcommand help; and __fish_seen_subcommand_from distributed" -f -a "plan" -d 'Print the exact search\'s block tables for N distinct fingerprints at distance K, as JSON'
complete -c simdup -n "__fish_simdup_using_subcommand help; and __fish_seen_subcommand_from distributed" -f -a "fingerprint" -d 'Read JSON Lines records ({"id", "text"}) on stdin; print each one\'s fingerprints'
complete -c simdup -n "__fish_simdup_using_subcommand help; and __fish_seen_subcommand_from distributed" -f -a "verify" -d 'Read JSON Lines pairs ({"a", "b", "a_text", "b_text", "short_texts"}) on stdin; print whether each is a near-duplicate and its exact Jaccard'
