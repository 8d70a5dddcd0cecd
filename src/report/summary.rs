//! The summary a person reads on stderr after a scan.

use std::io::{self, Write};

use super::{JOINED, Paint, Report};

/// Writes the end-of-run summary: inputs by outcome, bytes, speed, pairs;
/// `paint` marks the pairs found and any errors.
pub fn write_summary<W: Write>(report: &Report, paint: Paint, out: &mut W) -> io::Result<()> {
    let stats = &report.stats;
    let inputs = &stats.inputs;
    write!(
        out,
        "simdup: {}: {} fingerprinted",
        counted(inputs.seen, "input"),
        inputs.fingerprinted
    )?;
    if inputs.too_short > 0 {
        write!(out, ", {} too short", inputs.too_short)?;
    }
    if inputs.empty > 0 {
        write!(out, ", {} empty", inputs.empty)?;
    }
    if let Some(skipped) = inputs.skipped_summary() {
        write!(out, ", {skipped}")?;
    }
    if inputs.errors > 0 {
        write!(out, ", {}", paint.warning(counted(inputs.errors, "error")))?;
    }
    if inputs.verify_errors > 0 {
        // Not an outcome of the inputs: they were fingerprinted.
        write!(
            out,
            "; {} to verify",
            paint.warning(format!(
                "{} could not be read again",
                counted(inputs.verify_errors, "document")
            ))
        )?;
    }
    writeln!(out)?;
    let megabytes = inputs.bytes as f64 / 1e6;
    let seconds = stats.seconds.total;
    let rate = if seconds > 0.0 {
        megabytes / seconds
    } else {
        0.0
    };
    let params = &report.params;
    let guarantee = if params.exact { "" } else { ", approximate" };
    write!(
        out,
        "simdup: {megabytes:.1} MB in {seconds:.2} s ({rate:.1} MB/s); {} in {} ",
        paint.figure(counted(stats.pairs_found, "pair")),
        counted(stats.groups, "group"),
    )?;
    match params.threshold {
        Some(threshold) => {
            write!(
                out,
                // Candidates of every search (short texts' too): verified.
                "(Jaccard >= {threshold}; {} verified; ",
                counted(stats.candidates, "candidate"),
            )?;
            if params.radius.chosen_by.as_deref() == Some(JOINED) {
                write!(out, "every pair, joined")?;
            } else {
                write!(out, "k = {}", params.max_distance)?;
                if let Some(recall) = params.radius.expected_recall {
                    write!(out, ", expected recall {recall:.3}")?;
                }
            }
            // Short texts have a search of their own: say which.
            if let Some(short) = &params.radius.short_texts {
                match short.max_distance {
                    None if short.search == "bands" => write!(
                        out,
                        "; short texts by MinHash bands, expected recall {:.3}",
                        short.expected_recall
                    )?,
                    None => write!(out, "; short texts: every pair, joined")?,
                    Some(k) => write!(
                        out,
                        "; short texts within k = {k}, expected recall {:.3}",
                        short.expected_recall
                    )?,
                }
            }
            write!(out, "{guarantee})")?;
            if stats.unverified > 0 {
                write!(
                    out,
                    "; {} could not be verified",
                    counted(stats.unverified, "pair")
                )?;
            }
        }
        None => write!(
            out,
            "(k = {}, {}{guarantee})",
            params.max_distance, params.method
        )?,
    }
    if stats.pairs < stats.pairs_found && report.baseline.is_none() {
        write!(out, "; {} pairs listed", stats.pairs)?;
    }
    writeln!(out)?;
    if stats.accepted > 0 {
        writeln!(
            out,
            "simdup: allowlist: {} accepted",
            counted(stats.accepted, "pair")
        )?;
    }
    if let Some(baseline) = &report.baseline {
        write!(
            out,
            "simdup: baseline {}: {} accepted, {} new",
            baseline.file,
            baseline.accepted,
            paint.figure(baseline.new),
        )?;
        if !baseline.stale.is_empty() {
            write!(
                out,
                ", {} stale (no longer found{})",
                baseline.stale.len(),
                if baseline.updated {
                    "; dropped"
                } else {
                    "; --update-baseline drops them"
                }
            )?;
        }
        writeln!(out)?;
        for stale in &baseline.stale {
            writeln!(out, "simdup: stale: {} {}", stale.a, stale.b)?;
        }
    }
    Ok(())
}

/// `1 pair`, `2 pairs`.
fn counted(count: u64, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;
    use super::*;

    #[test]
    fn summary_names_every_outcome() {
        let mut report = sample();
        let inputs = &mut report.stats.inputs;
        inputs.seen = 10;
        inputs.fingerprinted = 6;
        inputs.empty = 1;
        inputs.too_short = 1;
        inputs.errors = 1;
        inputs.verify_errors = 2;
        inputs.skip(crate::input::SkipReason::Binary);
        report.stats.pairs_found = 2;
        report.stats.pairs = 2;
        report.stats.groups = 1;
        let mut out = Vec::new();
        write_summary(&report, Paint::none(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with(
            "simdup: 10 inputs: 6 fingerprinted, 1 too short, 1 empty, 1 skipped (binary 1), 1 error; \
             2 documents could not be read again to verify\n"
        ));
        assert!(text.contains("2 pairs in 1 group (k = 3, exact)"), "{text}");
    }
}
