
use builtin;
use str;

set edit:completion:arg-completer[simdup] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'simdup'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'simdup'= {
            cand --color 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand scan 'Find near-duplicate pairs and groups among documents'
            cand fingerprint 'Print the SimHash fingerprint of each document'
            cand compare 'Compare two documents: Hamming distance, similarity, exact Jaccard'
            cand dedup 'Write the records that are not near-duplicates of an earlier one, in input order'
            cand explain 'Explain a pair: distance, Jaccard, containment, shared passages and unique lines'
            cand index 'Keep fingerprints in an SQLite file, to search new documents against (scan --against)'
            cand distributed 'Steps of a distributed scan, run by spark/simdup_spark.py on its workers (docs/SPARK.md)'
            cand completions 'Print shell completions'
            cand man 'Print the man page (roff)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'simdup;scan'= {
            cand --shingle 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]'
            cand --hash 'The hash of each feature'
            cand --weight 'How much each feature counts'
            cand --vocabulary 'Token weights, one `token weight` per line (htm.core vocabulary)'
            cand --exclude-tokens 'Tokens to leave out, one per line'
            cand --frequency-floor 'Leave out the first N occurrences of each token in a document (htm.core)'
            cand --frequency-ceiling 'Keep at most N occurrences of each token in a document (htm.core)'
            cand --markup 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes'
            cand --transform 'Compare what CMD writes for each file instead (e.g. ''pandoc -t plain $IN''): $IN is the file''s path; without $IN the file is on CMD''s stdin. Run without a shell'
            cand -g 'Only files matching GLOB; `!GLOB` excludes. Repeatable'
            cand --glob 'Only files matching GLOB; `!GLOB` excludes. Repeatable'
            cand --max-filesize 'Skip files larger than SIZE (e.g. 512K, 10M, 2G); with records, records longer than SIZE (default 16M)'
            cand --files-from 'Read the paths to scan from FILE (`-`: stdin), one per line'
            cand --records 'How the input is cut into records, each a document: lines (default), NUL-terminated records, or JSON objects one per line'
            cand --text-field 'With --records jsonl: the field holding the text: a top-level key, else a dotted path (meta.body) or a JSON Pointer (/meta/body)'
            cand --id-field 'With --records jsonl: the field holding the id, named as --text-field is (default: the line number)'
            cand --fingerprints 'Search fingerprints saved by `simdup fingerprint` instead of reading documents (`-`: stdin)'
            cand --against 'Search the documents against the index FILE (`simdup index add`): only pairs with a document given here are reported'
            cand --cache 'Reuse the fingerprints of files unchanged since the last scan with this cache FILE (same path, size, time and feature options) and store the new ones in it (an SQLite file)'
            cand -t 'Near-duplicates are pairs whose exact Jaccard is at least T (0-1)'
            cand --threshold 'Near-duplicates are pairs whose exact Jaccard is at least T (0-1)'
            cand -k 'Search radius: candidates differ in at most K bits, 0-32 (default: chosen by the cost model; 9 with --raw)'
            cand --max-distance 'Search radius: candidates differ in at most K bits, 0-32 (default: chosen by the cost model; 9 with --raw)'
            cand --method 'How candidate pairs are found'
            cand --window 'With --method rotate: neighbours compared after each sort [default: 8]'
            cand --max-pairs 'List at most N pairs (counts and groups are always complete)'
            cand --max-candidates 'Verify at most N candidate pairs of distinct fingerprints (memory: a few dozen bytes each; documents that share a fingerprint are compared whatever N); past it, a chosen radius narrows and a given -k is an error'
            cand --min-features 'Documents with fewer features are matched only by exact content'
            cand --short-texts 'How pairs of two one-line texts (compared by character pairs) are found'
            cand --format 'Output format'
            cand --group-by 'How pairs form groups (--groups, fdupes, JSON): components joins documents through any chain of pairs; first puts each document in the group of the earliest group''s first member it is a near-duplicate of, so every member is a near-duplicate of its group''s first (what `simdup dedup` keeps and drops). Verified mode only'
            cand --baseline 'Accept the pairs recorded in FILE: only new pairs are listed and fail the run'
            cand --write-baseline 'Record today''s pairs in FILE (a baseline accepting all of them)'
            cand -j 'Worker threads (default: one per core; at most 256, or one per core if more)'
            cand --threads 'Worker threads (default: one per core; at most 256, or one per core if more)'
            cand --color 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never'
            cand --case-sensitive 'Keep upper and lower case apart'
            cand --no-nfkc 'Do not apply Unicode NFKC normalisation'
            cand --keep-punctuation 'Keep punctuation inside tokens instead of treating it as a separator'
            cand --token-similarity 'Also add each word''s characters as features (htm.core)'
            cand --encode-orphans 'With --vocabulary: also encode tokens missing from it (weight 1)'
            cand -z 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
            cand --decompress 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
            cand --hidden 'Include hidden files and directories'
            cand -L 'Follow symbolic links (loops are reported, not followed)'
            cand --follow 'Follow symbolic links (loops are reported, not followed)'
            cand --binary 'Read files that look binary (a NUL byte in the first 8 KiB)'
            cand --no-ignore 'Do not honour .gitignore, .ignore and .simdupignore files'
            cand -0 'With --files-from: paths are NUL-separated (find -print0)'
            cand --null 'With --files-from: paths are NUL-separated (find -print0)'
            cand --raw 'Report raw SimHash pairs within -k instead: fast, unverified'
            cand --verify 'With --fingerprints: read the documents again and verify (raw by default there)'
            cand --groups 'Report groups instead of pairs'
            cand --show-text 'With --format json or jsonl: add the text of each document (a_text and b_text of a pair, texts of a group); a file''s is read again, its first 16 MiB at most'
            cand --fail-on-duplicates 'Exit with code 1 when near-duplicates are found (for CI); with --baseline, new ones only'
            cand --update-baseline 'With --baseline: rewrite it in place, without its stale entries and with today''s paths and keys (new pairs are not added)'
            cand --no-config 'Ignore simdup.toml and .simdup.toml (looked for up to the repository root)'
            cand -q 'No summary and no progress bar on stderr (errors are still printed)'
            cand --quiet 'No summary and no progress bar on stderr (errors are still printed)'
            cand -v 'Also name every skipped and empty input on stderr'
            cand --verbose 'Also name every skipped and empty input on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'simdup;fingerprint'= {
            cand --shingle 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]'
            cand --hash 'The hash of each feature'
            cand --weight 'How much each feature counts'
            cand --vocabulary 'Token weights, one `token weight` per line (htm.core vocabulary)'
            cand --exclude-tokens 'Tokens to leave out, one per line'
            cand --frequency-floor 'Leave out the first N occurrences of each token in a document (htm.core)'
            cand --frequency-ceiling 'Keep at most N occurrences of each token in a document (htm.core)'
            cand --markup 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes'
            cand --transform 'Compare what CMD writes for each file instead (e.g. ''pandoc -t plain $IN''): $IN is the file''s path; without $IN the file is on CMD''s stdin. Run without a shell'
            cand -g 'Only files matching GLOB; `!GLOB` excludes. Repeatable'
            cand --glob 'Only files matching GLOB; `!GLOB` excludes. Repeatable'
            cand --max-filesize 'Skip files larger than SIZE (e.g. 512K, 10M, 2G); with records, records longer than SIZE (default 16M)'
            cand --format 'Output format'
            cand --sdr 'Print htm.core''s sparse encoding instead: the indices of the ACTIVE largest of SIZE sums. Its features are single words, htm.core''s tokens, unless --shingle says otherwise'
            cand -j 'Worker threads (default: one per core; at most 256, or one per core if more)'
            cand --threads 'Worker threads (default: one per core; at most 256, or one per core if more)'
            cand --color 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never'
            cand --case-sensitive 'Keep upper and lower case apart'
            cand --no-nfkc 'Do not apply Unicode NFKC normalisation'
            cand --keep-punctuation 'Keep punctuation inside tokens instead of treating it as a separator'
            cand --token-similarity 'Also add each word''s characters as features (htm.core)'
            cand --encode-orphans 'With --vocabulary: also encode tokens missing from it (weight 1)'
            cand -z 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
            cand --decompress 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
            cand --hidden 'Include hidden files and directories'
            cand -L 'Follow symbolic links (loops are reported, not followed)'
            cand --follow 'Follow symbolic links (loops are reported, not followed)'
            cand --binary 'Read files that look binary (a NUL byte in the first 8 KiB)'
            cand --no-ignore 'Do not honour .gitignore, .ignore and .simdupignore files'
            cand -v 'Also name every file the walk passes over on stderr'
            cand --verbose 'Also name every file the walk passes over on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'simdup;compare'= {
            cand --shingle 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]'
            cand --hash 'The hash of each feature'
            cand --weight 'How much each feature counts'
            cand --vocabulary 'Token weights, one `token weight` per line (htm.core vocabulary)'
            cand --exclude-tokens 'Tokens to leave out, one per line'
            cand --frequency-floor 'Leave out the first N occurrences of each token in a document (htm.core)'
            cand --frequency-ceiling 'Keep at most N occurrences of each token in a document (htm.core)'
            cand --markup 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes'
            cand --transform 'Compare what CMD writes for each file instead (e.g. ''pandoc -t plain $IN''): $IN is the file''s path; without $IN the file is on CMD''s stdin. Run without a shell'
            cand --format 'Output format'
            cand --color 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never'
            cand --case-sensitive 'Keep upper and lower case apart'
            cand --no-nfkc 'Do not apply Unicode NFKC normalisation'
            cand --keep-punctuation 'Keep punctuation inside tokens instead of treating it as a separator'
            cand --token-similarity 'Also add each word''s characters as features (htm.core)'
            cand --encode-orphans 'With --vocabulary: also encode tokens missing from it (weight 1)'
            cand -z 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
            cand --decompress 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
            cand --binary 'Compare files that look binary (a NUL byte in the first 8 KiB)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'simdup;dedup'= {
            cand --shingle 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]'
            cand --hash 'The hash of each feature'
            cand --weight 'How much each feature counts'
            cand --vocabulary 'Token weights, one `token weight` per line (htm.core vocabulary)'
            cand --exclude-tokens 'Tokens to leave out, one per line'
            cand --frequency-floor 'Leave out the first N occurrences of each token in a document (htm.core)'
            cand --frequency-ceiling 'Keep at most N occurrences of each token in a document (htm.core)'
            cand --markup 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes'
            cand --transform 'Compare what CMD writes for each file instead (e.g. ''pandoc -t plain $IN''): $IN is the file''s path; without $IN the file is on CMD''s stdin. Run without a shell'
            cand -g 'Only files matching GLOB; `!GLOB` excludes. Repeatable'
            cand --glob 'Only files matching GLOB; `!GLOB` excludes. Repeatable'
            cand --max-filesize 'Skip files larger than SIZE (e.g. 512K, 10M, 2G); with records, records longer than SIZE (default 16M)'
            cand --files-from 'Deduplicate the files listed in FILE (`-`: stdin), one per line, and print the paths to keep'
            cand --records 'How the input is cut into records, each a document: lines (default), NUL-terminated records, or JSON objects one per line'
            cand --text-field 'With --records jsonl: the field holding the text: a top-level key, else a dotted path (meta.body) or a JSON Pointer (/meta/body)'
            cand --id-field 'With --records jsonl: the field holding the id, named as --text-field is (default: the line number)'
            cand -t 'Near-duplicates are pairs whose exact Jaccard is at least T (above 0, at most 1: at 0 every record would be a near-duplicate of the first)'
            cand --threshold 'Near-duplicates are pairs whose exact Jaccard is at least T (above 0, at most 1: at 0 every record would be a near-duplicate of the first)'
            cand -k 'Search radius: candidates differ in at most K bits, 0-32 (default: chosen by the scan''s cost model as the input grows, the scan''s for up to 20,000 records; for short texts searched by fingerprint, at least 6). Wider finds more near-copies and costs more'
            cand --max-distance 'Search radius: candidates differ in at most K bits, 0-32 (default: chosen by the scan''s cost model as the input grows, the scan''s for up to 20,000 records; for short texts searched by fingerprint, at least 6). Wider finds more near-copies and costs more'
            cand --min-features 'Records with fewer features are matched only by exact content'
            cand --short-texts 'How kept one-line texts (compared by character pairs) are found: auto joins them exactly until the join costs too much, then finds those that share a MinHash band (expected recall 0.947 at Jaccard 0.8, 0.9996 at 0.9)'
            cand --keep 'Which record of a set of near-copies survives. Any but `first` needs the whole input: nothing is written until it ends, and every record is spooled (to a temporary file past 32 MiB) with about 130 bytes each in memory'
            cand --dropped 'Write one JSON line per removed record to FILE: its line (and id), the kept record it matched, and their Jaccard'
            cand -j 'Worker threads for fingerprinting (default: one per core; at most 256, or one per core if more); the output is the same whatever the number'
            cand --threads 'Worker threads for fingerprinting (default: one per core; at most 256, or one per core if more); the output is the same whatever the number'
            cand --color 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never'
            cand --case-sensitive 'Keep upper and lower case apart'
            cand --no-nfkc 'Do not apply Unicode NFKC normalisation'
            cand --keep-punctuation 'Keep punctuation inside tokens instead of treating it as a separator'
            cand --token-similarity 'Also add each word''s characters as features (htm.core)'
            cand --encode-orphans 'With --vocabulary: also encode tokens missing from it (weight 1)'
            cand -z 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
            cand --decompress 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
            cand --hidden 'Include hidden files and directories'
            cand -L 'Follow symbolic links (loops are reported, not followed)'
            cand --follow 'Follow symbolic links (loops are reported, not followed)'
            cand --binary 'Read files that look binary (a NUL byte in the first 8 KiB)'
            cand --no-ignore 'Do not honour .gitignore, .ignore and .simdupignore files'
            cand -0 'With files: paths are NUL-separated, in --files-from and in the output (xargs -0)'
            cand --null 'With files: paths are NUL-separated, in --files-from and in the output (xargs -0)'
            cand --print-duplicates 'Print the removed records (or paths) instead of the kept ones'
            cand --strict 'Stop at the first malformed record (default: report it and go on; exit code 2 at the end)'
            cand -q 'No summary on stderr (errors are still printed)'
            cand --quiet 'No summary on stderr (errors are still printed)'
            cand -v 'With files: also name every skipped file on stderr'
            cand --verbose 'With files: also name every skipped file on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'simdup;explain'= {
            cand --shingle 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]'
            cand --hash 'The hash of each feature'
            cand --weight 'How much each feature counts'
            cand --vocabulary 'Token weights, one `token weight` per line (htm.core vocabulary)'
            cand --exclude-tokens 'Tokens to leave out, one per line'
            cand --frequency-floor 'Leave out the first N occurrences of each token in a document (htm.core)'
            cand --frequency-ceiling 'Keep at most N occurrences of each token in a document (htm.core)'
            cand --markup 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes'
            cand --transform 'Compare what CMD writes for each file instead (e.g. ''pandoc -t plain $IN''): $IN is the file''s path; without $IN the file is on CMD''s stdin. Run without a shell'
            cand --format 'Output format'
            cand --color 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never'
            cand --case-sensitive 'Keep upper and lower case apart'
            cand --no-nfkc 'Do not apply Unicode NFKC normalisation'
            cand --keep-punctuation 'Keep punctuation inside tokens instead of treating it as a separator'
            cand --token-similarity 'Also add each word''s characters as features (htm.core)'
            cand --encode-orphans 'With --vocabulary: also encode tokens missing from it (weight 1)'
            cand -z 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
            cand --decompress 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
            cand --binary 'Read files that look binary (a NUL byte in the first 8 KiB)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'simdup;index'= {
            cand --color 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand add 'Fingerprint files (or records from stdin) into the index; unchanged ones are not stored again'
            cand prune 'Drop the documents whose file no longer exists'
            cand stats 'Say how many documents the index holds, and with which feature options'
            cand ls 'List the stored documents: fingerprint, features, bytes, name'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'simdup;index;add'= {
            cand --records 'How the input is cut into records, each a document: lines (default), NUL-terminated records, or JSON objects one per line'
            cand --text-field 'With --records jsonl: the field holding the text: a top-level key, else a dotted path (meta.body) or a JSON Pointer (/meta/body)'
            cand --id-field 'With --records jsonl: the field holding the id, named as --text-field is (default: the line number)'
            cand --db 'The index: an SQLite file'
            cand --shingle 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]'
            cand --hash 'The hash of each feature'
            cand --weight 'How much each feature counts'
            cand --vocabulary 'Token weights, one `token weight` per line (htm.core vocabulary)'
            cand --exclude-tokens 'Tokens to leave out, one per line'
            cand --frequency-floor 'Leave out the first N occurrences of each token in a document (htm.core)'
            cand --frequency-ceiling 'Keep at most N occurrences of each token in a document (htm.core)'
            cand --markup 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes'
            cand --transform 'Compare what CMD writes for each file instead (e.g. ''pandoc -t plain $IN''): $IN is the file''s path; without $IN the file is on CMD''s stdin. Run without a shell'
            cand -g 'Only files matching GLOB; `!GLOB` excludes. Repeatable'
            cand --glob 'Only files matching GLOB; `!GLOB` excludes. Repeatable'
            cand --max-filesize 'Skip files larger than SIZE (e.g. 512K, 10M, 2G); with records, records longer than SIZE (default 16M)'
            cand -j 'Worker threads (default: one per core; at most 256, or one per core if more)'
            cand --threads 'Worker threads (default: one per core; at most 256, or one per core if more)'
            cand --color 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never'
            cand --case-sensitive 'Keep upper and lower case apart'
            cand --no-nfkc 'Do not apply Unicode NFKC normalisation'
            cand --keep-punctuation 'Keep punctuation inside tokens instead of treating it as a separator'
            cand --token-similarity 'Also add each word''s characters as features (htm.core)'
            cand --encode-orphans 'With --vocabulary: also encode tokens missing from it (weight 1)'
            cand -z 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
            cand --decompress 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
            cand --hidden 'Include hidden files and directories'
            cand -L 'Follow symbolic links (loops are reported, not followed)'
            cand --follow 'Follow symbolic links (loops are reported, not followed)'
            cand --binary 'Read files that look binary (a NUL byte in the first 8 KiB)'
            cand --no-ignore 'Do not honour .gitignore, .ignore and .simdupignore files'
            cand -q 'Say nothing on stderr but errors'
            cand --quiet 'Say nothing on stderr but errors'
            cand -v 'Also name every skipped and empty input on stderr'
            cand --verbose 'Also name every skipped and empty input on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'simdup;index;prune'= {
            cand --db 'The index: an SQLite file'
            cand --color 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'simdup;index;stats'= {
            cand --db 'The index: an SQLite file'
            cand --color 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'simdup;index;ls'= {
            cand --db 'The index: an SQLite file'
            cand --color 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'simdup;index;help'= {
            cand add 'Fingerprint files (or records from stdin) into the index; unchanged ones are not stored again'
            cand prune 'Drop the documents whose file no longer exists'
            cand stats 'Say how many documents the index holds, and with which feature options'
            cand ls 'List the stored documents: fingerprint, features, bytes, name'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'simdup;index;help;add'= {
        }
        &'simdup;index;help;prune'= {
        }
        &'simdup;index;help;stats'= {
        }
        &'simdup;index;help;ls'= {
        }
        &'simdup;index;help;help'= {
        }
        &'simdup;distributed'= {
            cand --color 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand plan 'Print the exact search''s block tables for N distinct fingerprints at distance K, as JSON'
            cand fingerprint 'Read JSON Lines records ({"id", "text"}) on stdin; print each one''s fingerprints'
            cand verify 'Read JSON Lines pairs ({"a", "b", "a_text", "b_text", "short_texts"}) on stdin; print whether each is a near-duplicate and its exact Jaccard'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'simdup;distributed;plan'= {
            cand -k 'The search radius'
            cand --max-distance 'The search radius'
            cand -n 'Distinct fingerprints searched'
            cand --fingerprints 'Distinct fingerprints searched'
            cand --blocks 'Cut the 64 bits into M blocks instead of the cost model''s choice'
            cand --color 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'simdup;distributed;fingerprint'= {
            cand --shingle 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]'
            cand --hash 'The hash of each feature'
            cand --weight 'How much each feature counts'
            cand --vocabulary 'Token weights, one `token weight` per line (htm.core vocabulary)'
            cand --exclude-tokens 'Tokens to leave out, one per line'
            cand --frequency-floor 'Leave out the first N occurrences of each token in a document (htm.core)'
            cand --frequency-ceiling 'Keep at most N occurrences of each token in a document (htm.core)'
            cand --markup 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes'
            cand --transform 'Compare what CMD writes for each file instead (e.g. ''pandoc -t plain $IN''): $IN is the file''s path; without $IN the file is on CMD''s stdin. Run without a shell'
            cand --color 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never'
            cand --case-sensitive 'Keep upper and lower case apart'
            cand --no-nfkc 'Do not apply Unicode NFKC normalisation'
            cand --keep-punctuation 'Keep punctuation inside tokens instead of treating it as a separator'
            cand --token-similarity 'Also add each word''s characters as features (htm.core)'
            cand --encode-orphans 'With --vocabulary: also encode tokens missing from it (weight 1)'
            cand -z 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
            cand --decompress 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'simdup;distributed;verify'= {
            cand --shingle 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]'
            cand --hash 'The hash of each feature'
            cand --weight 'How much each feature counts'
            cand --vocabulary 'Token weights, one `token weight` per line (htm.core vocabulary)'
            cand --exclude-tokens 'Tokens to leave out, one per line'
            cand --frequency-floor 'Leave out the first N occurrences of each token in a document (htm.core)'
            cand --frequency-ceiling 'Keep at most N occurrences of each token in a document (htm.core)'
            cand --markup 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes'
            cand --transform 'Compare what CMD writes for each file instead (e.g. ''pandoc -t plain $IN''): $IN is the file''s path; without $IN the file is on CMD''s stdin. Run without a shell'
            cand -t 'Near-duplicates are pairs whose exact Jaccard is at least T (0-1)'
            cand --threshold 'Near-duplicates are pairs whose exact Jaccard is at least T (0-1)'
            cand --color 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never'
            cand --case-sensitive 'Keep upper and lower case apart'
            cand --no-nfkc 'Do not apply Unicode NFKC normalisation'
            cand --keep-punctuation 'Keep punctuation inside tokens instead of treating it as a separator'
            cand --token-similarity 'Also add each word''s characters as features (htm.core)'
            cand --encode-orphans 'With --vocabulary: also encode tokens missing from it (weight 1)'
            cand -z 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
            cand --decompress 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'simdup;distributed;help'= {
            cand plan 'Print the exact search''s block tables for N distinct fingerprints at distance K, as JSON'
            cand fingerprint 'Read JSON Lines records ({"id", "text"}) on stdin; print each one''s fingerprints'
            cand verify 'Read JSON Lines pairs ({"a", "b", "a_text", "b_text", "short_texts"}) on stdin; print whether each is a near-duplicate and its exact Jaccard'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'simdup;distributed;help;plan'= {
        }
        &'simdup;distributed;help;fingerprint'= {
        }
        &'simdup;distributed;help;verify'= {
        }
        &'simdup;distributed;help;help'= {
        }
        &'simdup;completions'= {
            cand --color 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'simdup;man'= {
            cand --color 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'simdup;help'= {
            cand scan 'Find near-duplicate pairs and groups among documents'
            cand fingerprint 'Print the SimHash fingerprint of each document'
            cand compare 'Compare two documents: Hamming distance, similarity, exact Jaccard'
            cand dedup 'Write the records that are not near-duplicates of an earlier one, in input order'
            cand explain 'Explain a pair: distance, Jaccard, containment, shared passages and unique lines'
            cand index 'Keep fingerprints in an SQLite file, to search new documents against (scan --against)'
            cand distributed 'Steps of a distributed scan, run by spark/simdup_spark.py on its workers (docs/SPARK.md)'
            cand completions 'Print shell completions'
            cand man 'Print the man page (roff)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'simdup;help;scan'= {
        }
        &'simdup;help;fingerprint'= {
        }
        &'simdup;help;compare'= {
        }
        &'simdup;help;dedup'= {
        }
        &'simdup;help;explain'= {
        }
        &'simdup;help;index'= {
            cand add 'Fingerprint files (or records from stdin) into the index; unchanged ones are not stored again'
            cand prune 'Drop the documents whose file no longer exists'
            cand stats 'Say how many documents the index holds, and with which feature options'
            cand ls 'List the stored documents: fingerprint, features, bytes, name'
        }
        &'simdup;help;index;add'= {
        }
        &'simdup;help;index;prune'= {
        }
        &'simdup;help;index;stats'= {
        }
        &'simdup;help;index;ls'= {
        }
        &'simdup;help;distributed'= {
            cand plan 'Print the exact search''s block tables for N distinct fingerprints at distance K, as JSON'
            cand fingerprint 'Read JSON Lines records ({"id", "text"}) on stdin; print each one''s fingerprints'
            cand verify 'Read JSON Lines pairs ({"a", "b", "a_text", "b_text", "short_texts"}) on stdin; print whether each is a near-duplicate and its exact Jaccard'
        }
        &'simdup;help;distributed;plan'= {
        }
        &'simdup;help;distributed;fingerprint'= {
        }
        &'simdup;help;distributed;verify'= {
        }
        &'simdup;help;completions'= {
        }
        &'simdup;help;man'= {
        }
        &'simdup;help;help'= {
        }
    ]
    $completions[$command]
}
