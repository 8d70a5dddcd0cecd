
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'simdup' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'simdup'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'simdup' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('scan', 'scan', [CompletionResultType]::ParameterValue, 'Find near-duplicate pairs and groups among documents')
            [CompletionResult]::new('fingerprint', 'fingerprint', [CompletionResultType]::ParameterValue, 'Print the SimHash fingerprint of each document')
            [CompletionResult]::new('compare', 'compare', [CompletionResultType]::ParameterValue, 'Compare two documents: Hamming distance, similarity, exact Jaccard')
            [CompletionResult]::new('dedup', 'dedup', [CompletionResultType]::ParameterValue, 'Write the records that are not near-duplicates of an earlier one, in input order')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain a pair: distance, Jaccard, containment, shared passages and unique lines')
            [CompletionResult]::new('index', 'index', [CompletionResultType]::ParameterValue, 'Keep fingerprints in an SQLite file, to search new documents against (scan --against)')
            [CompletionResult]::new('distributed', 'distributed', [CompletionResultType]::ParameterValue, 'Steps of a distributed scan, run by spark/simdup_spark.py on its workers (docs/SPARK.md)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print shell completions')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'simdup;scan' {
            [CompletionResult]::new('--shingle', '--shingle', [CompletionResultType]::ParameterName, 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]')
            [CompletionResult]::new('--hash', '--hash', [CompletionResultType]::ParameterName, 'The hash of each feature')
            [CompletionResult]::new('--weight', '--weight', [CompletionResultType]::ParameterName, 'How much each feature counts')
            [CompletionResult]::new('--vocabulary', '--vocabulary', [CompletionResultType]::ParameterName, 'Token weights, one `token weight` per line (htm.core vocabulary)')
            [CompletionResult]::new('--exclude-tokens', '--exclude-tokens', [CompletionResultType]::ParameterName, 'Tokens to leave out, one per line')
            [CompletionResult]::new('--frequency-floor', '--frequency-floor', [CompletionResultType]::ParameterName, 'Leave out the first N occurrences of each token in a document (htm.core)')
            [CompletionResult]::new('--frequency-ceiling', '--frequency-ceiling', [CompletionResultType]::ParameterName, 'Keep at most N occurrences of each token in a document (htm.core)')
            [CompletionResult]::new('--markup', '--markup', [CompletionResultType]::ParameterName, 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes')
            [CompletionResult]::new('--transform', '--transform', [CompletionResultType]::ParameterName, 'Compare what CMD writes for each file instead (e.g. ''pandoc -t plain $IN''): $IN is the file''s path; without $IN the file is on CMD''s stdin. Run without a shell')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Only files matching GLOB; `!GLOB` excludes. Repeatable')
            [CompletionResult]::new('--glob', '--glob', [CompletionResultType]::ParameterName, 'Only files matching GLOB; `!GLOB` excludes. Repeatable')
            [CompletionResult]::new('--max-filesize', '--max-filesize', [CompletionResultType]::ParameterName, 'Skip files larger than SIZE (e.g. 512K, 10M, 2G); with records, records longer than SIZE (default 16M)')
            [CompletionResult]::new('--files-from', '--files-from', [CompletionResultType]::ParameterName, 'Read the paths to scan from FILE (`-`: stdin), one per line')
            [CompletionResult]::new('--records', '--records', [CompletionResultType]::ParameterName, 'How the input is cut into records, each a document: lines (default), NUL-terminated records, or JSON objects one per line')
            [CompletionResult]::new('--text-field', '--text-field', [CompletionResultType]::ParameterName, 'With --records jsonl: the field holding the text: a top-level key, else a dotted path (meta.body) or a JSON Pointer (/meta/body)')
            [CompletionResult]::new('--id-field', '--id-field', [CompletionResultType]::ParameterName, 'With --records jsonl: the field holding the id, named as --text-field is (default: the line number)')
            [CompletionResult]::new('--fingerprints', '--fingerprints', [CompletionResultType]::ParameterName, 'Search fingerprints saved by `simdup fingerprint` instead of reading documents (`-`: stdin)')
            [CompletionResult]::new('--against', '--against', [CompletionResultType]::ParameterName, 'Search the documents against the index FILE (`simdup index add`): only pairs with a document given here are reported')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Reuse the fingerprints of files unchanged since the last scan with this cache FILE (same path, size, time and feature options) and store the new ones in it (an SQLite file)')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Near-duplicates are pairs whose exact Jaccard is at least T (0-1)')
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Near-duplicates are pairs whose exact Jaccard is at least T (0-1)')
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Search radius: candidates differ in at most K bits, 0-32 (default: chosen by the cost model; 9 with --raw)')
            [CompletionResult]::new('--max-distance', '--max-distance', [CompletionResultType]::ParameterName, 'Search radius: candidates differ in at most K bits, 0-32 (default: chosen by the cost model; 9 with --raw)')
            [CompletionResult]::new('--method', '--method', [CompletionResultType]::ParameterName, 'How candidate pairs are found')
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'With --method rotate: neighbours compared after each sort [default: 8]')
            [CompletionResult]::new('--max-pairs', '--max-pairs', [CompletionResultType]::ParameterName, 'List at most N pairs (counts and groups are always complete)')
            [CompletionResult]::new('--max-candidates', '--max-candidates', [CompletionResultType]::ParameterName, 'Verify at most N candidate pairs of distinct fingerprints (memory: a few dozen bytes each; documents that share a fingerprint are compared whatever N); past it, a chosen radius narrows and a given -k is an error')
            [CompletionResult]::new('--min-features', '--min-features', [CompletionResultType]::ParameterName, 'Documents with fewer features are matched only by exact content')
            [CompletionResult]::new('--short-texts', '--short-texts', [CompletionResultType]::ParameterName, 'How pairs of two one-line texts (compared by character pairs) are found')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--group-by', '--group-by', [CompletionResultType]::ParameterName, 'How pairs form groups (--groups, fdupes, JSON): components joins documents through any chain of pairs; first puts each document in the group of the earliest group''s first member it is a near-duplicate of, so every member is a near-duplicate of its group''s first (what `simdup dedup` keeps and drops). Verified mode only')
            [CompletionResult]::new('--baseline', '--baseline', [CompletionResultType]::ParameterName, 'Accept the pairs recorded in FILE: only new pairs are listed and fail the run')
            [CompletionResult]::new('--write-baseline', '--write-baseline', [CompletionResultType]::ParameterName, 'Record today''s pairs in FILE (a baseline accepting all of them)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Worker threads (default: one per core; at most 256, or one per core if more)')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads (default: one per core; at most 256, or one per core if more)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never')
            [CompletionResult]::new('--case-sensitive', '--case-sensitive', [CompletionResultType]::ParameterName, 'Keep upper and lower case apart')
            [CompletionResult]::new('--no-nfkc', '--no-nfkc', [CompletionResultType]::ParameterName, 'Do not apply Unicode NFKC normalisation')
            [CompletionResult]::new('--keep-punctuation', '--keep-punctuation', [CompletionResultType]::ParameterName, 'Keep punctuation inside tokens instead of treating it as a separator')
            [CompletionResult]::new('--token-similarity', '--token-similarity', [CompletionResultType]::ParameterName, 'Also add each word''s characters as features (htm.core)')
            [CompletionResult]::new('--encode-orphans', '--encode-orphans', [CompletionResultType]::ParameterName, 'With --vocabulary: also encode tokens missing from it (weight 1)')
            [CompletionResult]::new('-z', '-z', [CompletionResultType]::ParameterName, 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does')
            [CompletionResult]::new('--decompress', '--decompress', [CompletionResultType]::ParameterName, 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Include hidden files and directories')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links (loops are reported, not followed)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links (loops are reported, not followed)')
            [CompletionResult]::new('--binary', '--binary', [CompletionResultType]::ParameterName, 'Read files that look binary (a NUL byte in the first 8 KiB)')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'Do not honour .gitignore, .ignore and .simdupignore files')
            [CompletionResult]::new('-0', '-0', [CompletionResultType]::ParameterName, 'With --files-from: paths are NUL-separated (find -print0)')
            [CompletionResult]::new('--null', '--null', [CompletionResultType]::ParameterName, 'With --files-from: paths are NUL-separated (find -print0)')
            [CompletionResult]::new('--raw', '--raw', [CompletionResultType]::ParameterName, 'Report raw SimHash pairs within -k instead: fast, unverified')
            [CompletionResult]::new('--verify', '--verify', [CompletionResultType]::ParameterName, 'With --fingerprints: read the documents again and verify (raw by default there)')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Report groups instead of pairs')
            [CompletionResult]::new('--show-text', '--show-text', [CompletionResultType]::ParameterName, 'With --format json or jsonl: add the text of each document (a_text and b_text of a pair, texts of a group); a file''s is read again, its first 16 MiB at most')
            [CompletionResult]::new('--fail-on-duplicates', '--fail-on-duplicates', [CompletionResultType]::ParameterName, 'Exit with code 1 when near-duplicates are found (for CI); with --baseline, new ones only')
            [CompletionResult]::new('--update-baseline', '--update-baseline', [CompletionResultType]::ParameterName, 'With --baseline: rewrite it in place, without its stale entries and with today''s paths and keys (new pairs are not added)')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore simdup.toml and .simdup.toml (looked for up to the repository root)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No summary and no progress bar on stderr (errors are still printed)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No summary and no progress bar on stderr (errors are still printed)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also name every skipped and empty input on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also name every skipped and empty input on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'simdup;fingerprint' {
            [CompletionResult]::new('--shingle', '--shingle', [CompletionResultType]::ParameterName, 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]')
            [CompletionResult]::new('--hash', '--hash', [CompletionResultType]::ParameterName, 'The hash of each feature')
            [CompletionResult]::new('--weight', '--weight', [CompletionResultType]::ParameterName, 'How much each feature counts')
            [CompletionResult]::new('--vocabulary', '--vocabulary', [CompletionResultType]::ParameterName, 'Token weights, one `token weight` per line (htm.core vocabulary)')
            [CompletionResult]::new('--exclude-tokens', '--exclude-tokens', [CompletionResultType]::ParameterName, 'Tokens to leave out, one per line')
            [CompletionResult]::new('--frequency-floor', '--frequency-floor', [CompletionResultType]::ParameterName, 'Leave out the first N occurrences of each token in a document (htm.core)')
            [CompletionResult]::new('--frequency-ceiling', '--frequency-ceiling', [CompletionResultType]::ParameterName, 'Keep at most N occurrences of each token in a document (htm.core)')
            [CompletionResult]::new('--markup', '--markup', [CompletionResultType]::ParameterName, 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes')
            [CompletionResult]::new('--transform', '--transform', [CompletionResultType]::ParameterName, 'Compare what CMD writes for each file instead (e.g. ''pandoc -t plain $IN''): $IN is the file''s path; without $IN the file is on CMD''s stdin. Run without a shell')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Only files matching GLOB; `!GLOB` excludes. Repeatable')
            [CompletionResult]::new('--glob', '--glob', [CompletionResultType]::ParameterName, 'Only files matching GLOB; `!GLOB` excludes. Repeatable')
            [CompletionResult]::new('--max-filesize', '--max-filesize', [CompletionResultType]::ParameterName, 'Skip files larger than SIZE (e.g. 512K, 10M, 2G); with records, records longer than SIZE (default 16M)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--sdr', '--sdr', [CompletionResultType]::ParameterName, 'Print htm.core''s sparse encoding instead: the indices of the ACTIVE largest of SIZE sums. Its features are single words, htm.core''s tokens, unless --shingle says otherwise')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Worker threads (default: one per core; at most 256, or one per core if more)')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads (default: one per core; at most 256, or one per core if more)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never')
            [CompletionResult]::new('--case-sensitive', '--case-sensitive', [CompletionResultType]::ParameterName, 'Keep upper and lower case apart')
            [CompletionResult]::new('--no-nfkc', '--no-nfkc', [CompletionResultType]::ParameterName, 'Do not apply Unicode NFKC normalisation')
            [CompletionResult]::new('--keep-punctuation', '--keep-punctuation', [CompletionResultType]::ParameterName, 'Keep punctuation inside tokens instead of treating it as a separator')
            [CompletionResult]::new('--token-similarity', '--token-similarity', [CompletionResultType]::ParameterName, 'Also add each word''s characters as features (htm.core)')
            [CompletionResult]::new('--encode-orphans', '--encode-orphans', [CompletionResultType]::ParameterName, 'With --vocabulary: also encode tokens missing from it (weight 1)')
            [CompletionResult]::new('-z', '-z', [CompletionResultType]::ParameterName, 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does')
            [CompletionResult]::new('--decompress', '--decompress', [CompletionResultType]::ParameterName, 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Include hidden files and directories')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links (loops are reported, not followed)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links (loops are reported, not followed)')
            [CompletionResult]::new('--binary', '--binary', [CompletionResultType]::ParameterName, 'Read files that look binary (a NUL byte in the first 8 KiB)')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'Do not honour .gitignore, .ignore and .simdupignore files')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also name every file the walk passes over on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also name every file the walk passes over on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'simdup;compare' {
            [CompletionResult]::new('--shingle', '--shingle', [CompletionResultType]::ParameterName, 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]')
            [CompletionResult]::new('--hash', '--hash', [CompletionResultType]::ParameterName, 'The hash of each feature')
            [CompletionResult]::new('--weight', '--weight', [CompletionResultType]::ParameterName, 'How much each feature counts')
            [CompletionResult]::new('--vocabulary', '--vocabulary', [CompletionResultType]::ParameterName, 'Token weights, one `token weight` per line (htm.core vocabulary)')
            [CompletionResult]::new('--exclude-tokens', '--exclude-tokens', [CompletionResultType]::ParameterName, 'Tokens to leave out, one per line')
            [CompletionResult]::new('--frequency-floor', '--frequency-floor', [CompletionResultType]::ParameterName, 'Leave out the first N occurrences of each token in a document (htm.core)')
            [CompletionResult]::new('--frequency-ceiling', '--frequency-ceiling', [CompletionResultType]::ParameterName, 'Keep at most N occurrences of each token in a document (htm.core)')
            [CompletionResult]::new('--markup', '--markup', [CompletionResultType]::ParameterName, 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes')
            [CompletionResult]::new('--transform', '--transform', [CompletionResultType]::ParameterName, 'Compare what CMD writes for each file instead (e.g. ''pandoc -t plain $IN''): $IN is the file''s path; without $IN the file is on CMD''s stdin. Run without a shell')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never')
            [CompletionResult]::new('--case-sensitive', '--case-sensitive', [CompletionResultType]::ParameterName, 'Keep upper and lower case apart')
            [CompletionResult]::new('--no-nfkc', '--no-nfkc', [CompletionResultType]::ParameterName, 'Do not apply Unicode NFKC normalisation')
            [CompletionResult]::new('--keep-punctuation', '--keep-punctuation', [CompletionResultType]::ParameterName, 'Keep punctuation inside tokens instead of treating it as a separator')
            [CompletionResult]::new('--token-similarity', '--token-similarity', [CompletionResultType]::ParameterName, 'Also add each word''s characters as features (htm.core)')
            [CompletionResult]::new('--encode-orphans', '--encode-orphans', [CompletionResultType]::ParameterName, 'With --vocabulary: also encode tokens missing from it (weight 1)')
            [CompletionResult]::new('-z', '-z', [CompletionResultType]::ParameterName, 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does')
            [CompletionResult]::new('--decompress', '--decompress', [CompletionResultType]::ParameterName, 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does')
            [CompletionResult]::new('--binary', '--binary', [CompletionResultType]::ParameterName, 'Compare files that look binary (a NUL byte in the first 8 KiB)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'simdup;dedup' {
            [CompletionResult]::new('--shingle', '--shingle', [CompletionResultType]::ParameterName, 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]')
            [CompletionResult]::new('--hash', '--hash', [CompletionResultType]::ParameterName, 'The hash of each feature')
            [CompletionResult]::new('--weight', '--weight', [CompletionResultType]::ParameterName, 'How much each feature counts')
            [CompletionResult]::new('--vocabulary', '--vocabulary', [CompletionResultType]::ParameterName, 'Token weights, one `token weight` per line (htm.core vocabulary)')
            [CompletionResult]::new('--exclude-tokens', '--exclude-tokens', [CompletionResultType]::ParameterName, 'Tokens to leave out, one per line')
            [CompletionResult]::new('--frequency-floor', '--frequency-floor', [CompletionResultType]::ParameterName, 'Leave out the first N occurrences of each token in a document (htm.core)')
            [CompletionResult]::new('--frequency-ceiling', '--frequency-ceiling', [CompletionResultType]::ParameterName, 'Keep at most N occurrences of each token in a document (htm.core)')
            [CompletionResult]::new('--markup', '--markup', [CompletionResultType]::ParameterName, 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes')
            [CompletionResult]::new('--transform', '--transform', [CompletionResultType]::ParameterName, 'Compare what CMD writes for each file instead (e.g. ''pandoc -t plain $IN''): $IN is the file''s path; without $IN the file is on CMD''s stdin. Run without a shell')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Only files matching GLOB; `!GLOB` excludes. Repeatable')
            [CompletionResult]::new('--glob', '--glob', [CompletionResultType]::ParameterName, 'Only files matching GLOB; `!GLOB` excludes. Repeatable')
            [CompletionResult]::new('--max-filesize', '--max-filesize', [CompletionResultType]::ParameterName, 'Skip files larger than SIZE (e.g. 512K, 10M, 2G); with records, records longer than SIZE (default 16M)')
            [CompletionResult]::new('--files-from', '--files-from', [CompletionResultType]::ParameterName, 'Deduplicate the files listed in FILE (`-`: stdin), one per line, and print the paths to keep')
            [CompletionResult]::new('--records', '--records', [CompletionResultType]::ParameterName, 'How the input is cut into records, each a document: lines (default), NUL-terminated records, or JSON objects one per line')
            [CompletionResult]::new('--text-field', '--text-field', [CompletionResultType]::ParameterName, 'With --records jsonl: the field holding the text: a top-level key, else a dotted path (meta.body) or a JSON Pointer (/meta/body)')
            [CompletionResult]::new('--id-field', '--id-field', [CompletionResultType]::ParameterName, 'With --records jsonl: the field holding the id, named as --text-field is (default: the line number)')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Near-duplicates are pairs whose exact Jaccard is at least T (above 0, at most 1: at 0 every record would be a near-duplicate of the first)')
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Near-duplicates are pairs whose exact Jaccard is at least T (above 0, at most 1: at 0 every record would be a near-duplicate of the first)')
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Search radius: candidates differ in at most K bits, 0-32 (default: chosen by the scan''s cost model as the input grows, the scan''s for up to 20,000 records; for short texts searched by fingerprint, at least 6). Wider finds more near-copies and costs more')
            [CompletionResult]::new('--max-distance', '--max-distance', [CompletionResultType]::ParameterName, 'Search radius: candidates differ in at most K bits, 0-32 (default: chosen by the scan''s cost model as the input grows, the scan''s for up to 20,000 records; for short texts searched by fingerprint, at least 6). Wider finds more near-copies and costs more')
            [CompletionResult]::new('--min-features', '--min-features', [CompletionResultType]::ParameterName, 'Records with fewer features are matched only by exact content')
            [CompletionResult]::new('--short-texts', '--short-texts', [CompletionResultType]::ParameterName, 'How kept one-line texts (compared by character pairs) are found: auto joins them exactly until the join costs too much, then finds those that share a MinHash band (expected recall 0.947 at Jaccard 0.8, 0.9996 at 0.9)')
            [CompletionResult]::new('--keep', '--keep', [CompletionResultType]::ParameterName, 'Which record of a set of near-copies survives. Any but `first` needs the whole input: nothing is written until it ends, and every record is spooled (to a temporary file past 32 MiB) with about 130 bytes each in memory')
            [CompletionResult]::new('--dropped', '--dropped', [CompletionResultType]::ParameterName, 'Write one JSON line per removed record to FILE: its line (and id), the kept record it matched, and their Jaccard')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Worker threads for fingerprinting (default: one per core; at most 256, or one per core if more); the output is the same whatever the number')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads for fingerprinting (default: one per core; at most 256, or one per core if more); the output is the same whatever the number')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never')
            [CompletionResult]::new('--case-sensitive', '--case-sensitive', [CompletionResultType]::ParameterName, 'Keep upper and lower case apart')
            [CompletionResult]::new('--no-nfkc', '--no-nfkc', [CompletionResultType]::ParameterName, 'Do not apply Unicode NFKC normalisation')
            [CompletionResult]::new('--keep-punctuation', '--keep-punctuation', [CompletionResultType]::ParameterName, 'Keep punctuation inside tokens instead of treating it as a separator')
            [CompletionResult]::new('--token-similarity', '--token-similarity', [CompletionResultType]::ParameterName, 'Also add each word''s characters as features (htm.core)')
            [CompletionResult]::new('--encode-orphans', '--encode-orphans', [CompletionResultType]::ParameterName, 'With --vocabulary: also encode tokens missing from it (weight 1)')
            [CompletionResult]::new('-z', '-z', [CompletionResultType]::ParameterName, 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does')
            [CompletionResult]::new('--decompress', '--decompress', [CompletionResultType]::ParameterName, 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Include hidden files and directories')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links (loops are reported, not followed)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links (loops are reported, not followed)')
            [CompletionResult]::new('--binary', '--binary', [CompletionResultType]::ParameterName, 'Read files that look binary (a NUL byte in the first 8 KiB)')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'Do not honour .gitignore, .ignore and .simdupignore files')
            [CompletionResult]::new('-0', '-0', [CompletionResultType]::ParameterName, 'With files: paths are NUL-separated, in --files-from and in the output (xargs -0)')
            [CompletionResult]::new('--null', '--null', [CompletionResultType]::ParameterName, 'With files: paths are NUL-separated, in --files-from and in the output (xargs -0)')
            [CompletionResult]::new('--print-duplicates', '--print-duplicates', [CompletionResultType]::ParameterName, 'Print the removed records (or paths) instead of the kept ones')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Stop at the first malformed record (default: report it and go on; exit code 2 at the end)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No summary on stderr (errors are still printed)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No summary on stderr (errors are still printed)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'With files: also name every skipped file on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'With files: also name every skipped file on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'simdup;explain' {
            [CompletionResult]::new('--shingle', '--shingle', [CompletionResultType]::ParameterName, 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]')
            [CompletionResult]::new('--hash', '--hash', [CompletionResultType]::ParameterName, 'The hash of each feature')
            [CompletionResult]::new('--weight', '--weight', [CompletionResultType]::ParameterName, 'How much each feature counts')
            [CompletionResult]::new('--vocabulary', '--vocabulary', [CompletionResultType]::ParameterName, 'Token weights, one `token weight` per line (htm.core vocabulary)')
            [CompletionResult]::new('--exclude-tokens', '--exclude-tokens', [CompletionResultType]::ParameterName, 'Tokens to leave out, one per line')
            [CompletionResult]::new('--frequency-floor', '--frequency-floor', [CompletionResultType]::ParameterName, 'Leave out the first N occurrences of each token in a document (htm.core)')
            [CompletionResult]::new('--frequency-ceiling', '--frequency-ceiling', [CompletionResultType]::ParameterName, 'Keep at most N occurrences of each token in a document (htm.core)')
            [CompletionResult]::new('--markup', '--markup', [CompletionResultType]::ParameterName, 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes')
            [CompletionResult]::new('--transform', '--transform', [CompletionResultType]::ParameterName, 'Compare what CMD writes for each file instead (e.g. ''pandoc -t plain $IN''): $IN is the file''s path; without $IN the file is on CMD''s stdin. Run without a shell')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never')
            [CompletionResult]::new('--case-sensitive', '--case-sensitive', [CompletionResultType]::ParameterName, 'Keep upper and lower case apart')
            [CompletionResult]::new('--no-nfkc', '--no-nfkc', [CompletionResultType]::ParameterName, 'Do not apply Unicode NFKC normalisation')
            [CompletionResult]::new('--keep-punctuation', '--keep-punctuation', [CompletionResultType]::ParameterName, 'Keep punctuation inside tokens instead of treating it as a separator')
            [CompletionResult]::new('--token-similarity', '--token-similarity', [CompletionResultType]::ParameterName, 'Also add each word''s characters as features (htm.core)')
            [CompletionResult]::new('--encode-orphans', '--encode-orphans', [CompletionResultType]::ParameterName, 'With --vocabulary: also encode tokens missing from it (weight 1)')
            [CompletionResult]::new('-z', '-z', [CompletionResultType]::ParameterName, 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does')
            [CompletionResult]::new('--decompress', '--decompress', [CompletionResultType]::ParameterName, 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does')
            [CompletionResult]::new('--binary', '--binary', [CompletionResultType]::ParameterName, 'Read files that look binary (a NUL byte in the first 8 KiB)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'simdup;index' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Fingerprint files (or records from stdin) into the index; unchanged ones are not stored again')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Drop the documents whose file no longer exists')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Say how many documents the index holds, and with which feature options')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List the stored documents: fingerprint, features, bytes, name')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'simdup;index;add' {
            [CompletionResult]::new('--records', '--records', [CompletionResultType]::ParameterName, 'How the input is cut into records, each a document: lines (default), NUL-terminated records, or JSON objects one per line')
            [CompletionResult]::new('--text-field', '--text-field', [CompletionResultType]::ParameterName, 'With --records jsonl: the field holding the text: a top-level key, else a dotted path (meta.body) or a JSON Pointer (/meta/body)')
            [CompletionResult]::new('--id-field', '--id-field', [CompletionResultType]::ParameterName, 'With --records jsonl: the field holding the id, named as --text-field is (default: the line number)')
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The index: an SQLite file')
            [CompletionResult]::new('--shingle', '--shingle', [CompletionResultType]::ParameterName, 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]')
            [CompletionResult]::new('--hash', '--hash', [CompletionResultType]::ParameterName, 'The hash of each feature')
            [CompletionResult]::new('--weight', '--weight', [CompletionResultType]::ParameterName, 'How much each feature counts')
            [CompletionResult]::new('--vocabulary', '--vocabulary', [CompletionResultType]::ParameterName, 'Token weights, one `token weight` per line (htm.core vocabulary)')
            [CompletionResult]::new('--exclude-tokens', '--exclude-tokens', [CompletionResultType]::ParameterName, 'Tokens to leave out, one per line')
            [CompletionResult]::new('--frequency-floor', '--frequency-floor', [CompletionResultType]::ParameterName, 'Leave out the first N occurrences of each token in a document (htm.core)')
            [CompletionResult]::new('--frequency-ceiling', '--frequency-ceiling', [CompletionResultType]::ParameterName, 'Keep at most N occurrences of each token in a document (htm.core)')
            [CompletionResult]::new('--markup', '--markup', [CompletionResultType]::ParameterName, 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes')
            [CompletionResult]::new('--transform', '--transform', [CompletionResultType]::ParameterName, 'Compare what CMD writes for each file instead (e.g. ''pandoc -t plain $IN''): $IN is the file''s path; without $IN the file is on CMD''s stdin. Run without a shell')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Only files matching GLOB; `!GLOB` excludes. Repeatable')
            [CompletionResult]::new('--glob', '--glob', [CompletionResultType]::ParameterName, 'Only files matching GLOB; `!GLOB` excludes. Repeatable')
            [CompletionResult]::new('--max-filesize', '--max-filesize', [CompletionResultType]::ParameterName, 'Skip files larger than SIZE (e.g. 512K, 10M, 2G); with records, records longer than SIZE (default 16M)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Worker threads (default: one per core; at most 256, or one per core if more)')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads (default: one per core; at most 256, or one per core if more)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never')
            [CompletionResult]::new('--case-sensitive', '--case-sensitive', [CompletionResultType]::ParameterName, 'Keep upper and lower case apart')
            [CompletionResult]::new('--no-nfkc', '--no-nfkc', [CompletionResultType]::ParameterName, 'Do not apply Unicode NFKC normalisation')
            [CompletionResult]::new('--keep-punctuation', '--keep-punctuation', [CompletionResultType]::ParameterName, 'Keep punctuation inside tokens instead of treating it as a separator')
            [CompletionResult]::new('--token-similarity', '--token-similarity', [CompletionResultType]::ParameterName, 'Also add each word''s characters as features (htm.core)')
            [CompletionResult]::new('--encode-orphans', '--encode-orphans', [CompletionResultType]::ParameterName, 'With --vocabulary: also encode tokens missing from it (weight 1)')
            [CompletionResult]::new('-z', '-z', [CompletionResultType]::ParameterName, 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does')
            [CompletionResult]::new('--decompress', '--decompress', [CompletionResultType]::ParameterName, 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Include hidden files and directories')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links (loops are reported, not followed)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links (loops are reported, not followed)')
            [CompletionResult]::new('--binary', '--binary', [CompletionResultType]::ParameterName, 'Read files that look binary (a NUL byte in the first 8 KiB)')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'Do not honour .gitignore, .ignore and .simdupignore files')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say nothing on stderr but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say nothing on stderr but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also name every skipped and empty input on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also name every skipped and empty input on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'simdup;index;prune' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The index: an SQLite file')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'simdup;index;stats' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The index: an SQLite file')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'simdup;index;ls' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The index: an SQLite file')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'simdup;index;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Fingerprint files (or records from stdin) into the index; unchanged ones are not stored again')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Drop the documents whose file no longer exists')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Say how many documents the index holds, and with which feature options')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List the stored documents: fingerprint, features, bytes, name')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'simdup;index;help;add' {
            break
        }
        'simdup;index;help;prune' {
            break
        }
        'simdup;index;help;stats' {
            break
        }
        'simdup;index;help;ls' {
            break
        }
        'simdup;index;help;help' {
            break
        }
        'simdup;distributed' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Print the exact search''s block tables for N distinct fingerprints at distance K, as JSON')
            [CompletionResult]::new('fingerprint', 'fingerprint', [CompletionResultType]::ParameterValue, 'Read JSON Lines records ({"id", "text"}) on stdin; print each one''s fingerprints')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Read JSON Lines pairs ({"a", "b", "a_text", "b_text", "short_texts"}) on stdin; print whether each is a near-duplicate and its exact Jaccard')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'simdup;distributed;plan' {
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'The search radius')
            [CompletionResult]::new('--max-distance', '--max-distance', [CompletionResultType]::ParameterName, 'The search radius')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Distinct fingerprints searched')
            [CompletionResult]::new('--fingerprints', '--fingerprints', [CompletionResultType]::ParameterName, 'Distinct fingerprints searched')
            [CompletionResult]::new('--blocks', '--blocks', [CompletionResultType]::ParameterName, 'Cut the 64 bits into M blocks instead of the cost model''s choice')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'simdup;distributed;fingerprint' {
            [CompletionResult]::new('--shingle', '--shingle', [CompletionResultType]::ParameterName, 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]')
            [CompletionResult]::new('--hash', '--hash', [CompletionResultType]::ParameterName, 'The hash of each feature')
            [CompletionResult]::new('--weight', '--weight', [CompletionResultType]::ParameterName, 'How much each feature counts')
            [CompletionResult]::new('--vocabulary', '--vocabulary', [CompletionResultType]::ParameterName, 'Token weights, one `token weight` per line (htm.core vocabulary)')
            [CompletionResult]::new('--exclude-tokens', '--exclude-tokens', [CompletionResultType]::ParameterName, 'Tokens to leave out, one per line')
            [CompletionResult]::new('--frequency-floor', '--frequency-floor', [CompletionResultType]::ParameterName, 'Leave out the first N occurrences of each token in a document (htm.core)')
            [CompletionResult]::new('--frequency-ceiling', '--frequency-ceiling', [CompletionResultType]::ParameterName, 'Keep at most N occurrences of each token in a document (htm.core)')
            [CompletionResult]::new('--markup', '--markup', [CompletionResultType]::ParameterName, 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes')
            [CompletionResult]::new('--transform', '--transform', [CompletionResultType]::ParameterName, 'Compare what CMD writes for each file instead (e.g. ''pandoc -t plain $IN''): $IN is the file''s path; without $IN the file is on CMD''s stdin. Run without a shell')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never')
            [CompletionResult]::new('--case-sensitive', '--case-sensitive', [CompletionResultType]::ParameterName, 'Keep upper and lower case apart')
            [CompletionResult]::new('--no-nfkc', '--no-nfkc', [CompletionResultType]::ParameterName, 'Do not apply Unicode NFKC normalisation')
            [CompletionResult]::new('--keep-punctuation', '--keep-punctuation', [CompletionResultType]::ParameterName, 'Keep punctuation inside tokens instead of treating it as a separator')
            [CompletionResult]::new('--token-similarity', '--token-similarity', [CompletionResultType]::ParameterName, 'Also add each word''s characters as features (htm.core)')
            [CompletionResult]::new('--encode-orphans', '--encode-orphans', [CompletionResultType]::ParameterName, 'With --vocabulary: also encode tokens missing from it (weight 1)')
            [CompletionResult]::new('-z', '-z', [CompletionResultType]::ParameterName, 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does')
            [CompletionResult]::new('--decompress', '--decompress', [CompletionResultType]::ParameterName, 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'simdup;distributed;verify' {
            [CompletionResult]::new('--shingle', '--shingle', [CompletionResultType]::ParameterName, 'Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and chars:2 between two one-line texts of at most 256 characters]')
            [CompletionResult]::new('--hash', '--hash', [CompletionResultType]::ParameterName, 'The hash of each feature')
            [CompletionResult]::new('--weight', '--weight', [CompletionResultType]::ParameterName, 'How much each feature counts')
            [CompletionResult]::new('--vocabulary', '--vocabulary', [CompletionResultType]::ParameterName, 'Token weights, one `token weight` per line (htm.core vocabulary)')
            [CompletionResult]::new('--exclude-tokens', '--exclude-tokens', [CompletionResultType]::ParameterName, 'Tokens to leave out, one per line')
            [CompletionResult]::new('--frequency-floor', '--frequency-floor', [CompletionResultType]::ParameterName, 'Leave out the first N occurrences of each token in a document (htm.core)')
            [CompletionResult]::new('--frequency-ceiling', '--frequency-ceiling', [CompletionResultType]::ParameterName, 'Keep at most N occurrences of each token in a document (htm.core)')
            [CompletionResult]::new('--markup', '--markup', [CompletionResultType]::ParameterName, 'How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page (.1 to .9, roff) files are compared: on their text, or on their raw bytes')
            [CompletionResult]::new('--transform', '--transform', [CompletionResultType]::ParameterName, 'Compare what CMD writes for each file instead (e.g. ''pandoc -t plain $IN''): $IN is the file''s path; without $IN the file is on CMD''s stdin. Run without a shell')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Near-duplicates are pairs whose exact Jaccard is at least T (0-1)')
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Near-duplicates are pairs whose exact Jaccard is at least T (0-1)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never')
            [CompletionResult]::new('--case-sensitive', '--case-sensitive', [CompletionResultType]::ParameterName, 'Keep upper and lower case apart')
            [CompletionResult]::new('--no-nfkc', '--no-nfkc', [CompletionResultType]::ParameterName, 'Do not apply Unicode NFKC normalisation')
            [CompletionResult]::new('--keep-punctuation', '--keep-punctuation', [CompletionResultType]::ParameterName, 'Keep punctuation inside tokens instead of treating it as a separator')
            [CompletionResult]::new('--token-similarity', '--token-similarity', [CompletionResultType]::ParameterName, 'Also add each word''s characters as features (htm.core)')
            [CompletionResult]::new('--encode-orphans', '--encode-orphans', [CompletionResultType]::ParameterName, 'With --vocabulary: also encode tokens missing from it (weight 1)')
            [CompletionResult]::new('-z', '-z', [CompletionResultType]::ParameterName, 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does')
            [CompletionResult]::new('--decompress', '--decompress', [CompletionResultType]::ParameterName, 'Read gzip files and record streams (known by their first bytes) as the text they hold, as zcat does')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'simdup;distributed;help' {
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Print the exact search''s block tables for N distinct fingerprints at distance K, as JSON')
            [CompletionResult]::new('fingerprint', 'fingerprint', [CompletionResultType]::ParameterValue, 'Read JSON Lines records ({"id", "text"}) on stdin; print each one''s fingerprints')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Read JSON Lines pairs ({"a", "b", "a_text", "b_text", "short_texts"}) on stdin; print whether each is a near-duplicate and its exact Jaccard')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'simdup;distributed;help;plan' {
            break
        }
        'simdup;distributed;help;fingerprint' {
            break
        }
        'simdup;distributed;help;verify' {
            break
        }
        'simdup;distributed;help;help' {
            break
        }
        'simdup;completions' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'simdup;man' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'simdup;help' {
            [CompletionResult]::new('scan', 'scan', [CompletionResultType]::ParameterValue, 'Find near-duplicate pairs and groups among documents')
            [CompletionResult]::new('fingerprint', 'fingerprint', [CompletionResultType]::ParameterValue, 'Print the SimHash fingerprint of each document')
            [CompletionResult]::new('compare', 'compare', [CompletionResultType]::ParameterValue, 'Compare two documents: Hamming distance, similarity, exact Jaccard')
            [CompletionResult]::new('dedup', 'dedup', [CompletionResultType]::ParameterValue, 'Write the records that are not near-duplicates of an earlier one, in input order')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain a pair: distance, Jaccard, containment, shared passages and unique lines')
            [CompletionResult]::new('index', 'index', [CompletionResultType]::ParameterValue, 'Keep fingerprints in an SQLite file, to search new documents against (scan --against)')
            [CompletionResult]::new('distributed', 'distributed', [CompletionResultType]::ParameterValue, 'Steps of a distributed scan, run by spark/simdup_spark.py on its workers (docs/SPARK.md)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print shell completions')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'simdup;help;scan' {
            break
        }
        'simdup;help;fingerprint' {
            break
        }
        'simdup;help;compare' {
            break
        }
        'simdup;help;dedup' {
            break
        }
        'simdup;help;explain' {
            break
        }
        'simdup;help;index' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Fingerprint files (or records from stdin) into the index; unchanged ones are not stored again')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Drop the documents whose file no longer exists')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Say how many documents the index holds, and with which feature options')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List the stored documents: fingerprint, features, bytes, name')
            break
        }
        'simdup;help;index;add' {
            break
        }
        'simdup;help;index;prune' {
            break
        }
        'simdup;help;index;stats' {
            break
        }
        'simdup;help;index;ls' {
            break
        }
        'simdup;help;distributed' {
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Print the exact search''s block tables for N distinct fingerprints at distance K, as JSON')
            [CompletionResult]::new('fingerprint', 'fingerprint', [CompletionResultType]::ParameterValue, 'Read JSON Lines records ({"id", "text"}) on stdin; print each one''s fingerprints')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Read JSON Lines pairs ({"a", "b", "a_text", "b_text", "short_texts"}) on stdin; print whether each is a near-duplicate and its exact Jaccard')
            break
        }
        'simdup;help;distributed;plan' {
            break
        }
        'simdup;help;distributed;fingerprint' {
            break
        }
        'simdup;help;distributed;verify' {
            break
        }
        'simdup;help;completions' {
            break
        }
        'simdup;help;man' {
            break
        }
        'simdup;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
