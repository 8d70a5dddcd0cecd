//! Man pages (roff with the man or mdoc macros): the text `man` shows.
//!
//! A file is read as roff only when its first line that is not blank is
//! a control line (it starts with `.` or `'`): every man page starts so (a
//! comment, `.TH`, `.Dd`). Any other file with a man page's name (a
//! rotated log, `syslog.1`) is read as it is.
//!
//! Dropped: comments (`.\"`, and `\"` or `\#` to the end of a line),
//! request and macro names, the arguments of requests that lay out the
//! page (spacing, indents, fonts, registers, conditionals, tables'
//! options), the bodies of macro definitions and ignored blocks (`.de` to
//! `..`), font, size and colour escapes (`\fB`, `\s-1`), zero-width
//! escapes (`\&`, `\c`), escapes with a delimited argument (`\h'1n'`) and,
//! in mdoc pages, the names of the macros called inside a macro line
//! (`.It Fl a Ar file` keeps `a file`). Kept: text lines, the arguments of
//! the other macros (`.SH NAME`, `.B bold`, `.IP item`, `.Nm name`), with
//! special characters and strings (`\(em`, `\[aq]`, `\*(lq`) as a space,
//! which separates words as the punctuation they show does, and `\-`,
//! `\e`, `\.` as the character they show.

use std::sync::LazyLock;

/// Requests and macros whose arguments are not text shown on the page.
const LAYOUT: &[&[u8]] = &[
    b"ad", b"af", b"as", b"bd", b"bp", b"br", b"cc", b"ce", b"ch", b"chop", b"cs", b"cu", b"ds",
    b"ds1", b"ec", b"el", b"EE", b"EN", b"EQ", b"eo", b"ev", b"EX", b"fam", b"fc", b"fi", b"fl",
    b"fp", b"ft", b"hc", b"HP", b"hw", b"hy", b"ie", b"if", b"in", b"it", b"lf", b"ll", b"ls",
    b"lt", b"mk", b"mso", b"na", b"ne", b"nf", b"nh", b"nm", b"nn", b"nr", b"ns", b"pc", b"PD",
    b"pl", b"pn", b"po", b"ps", b"rm", b"rn", b"rr", b"RE", b"RS", b"rs", b"rt", b"so", b"sp",
    b"ss", b"ta", b"tc", b"TE", b"ti", b"tm", b"TP", b"tr", b"TS", b"ul", b"UR", b"vs", b"MT",
    // mdoc: lists and displays with their options.
    b"Bd", b"Bf", b"Bk", b"Bl", b"Ed", b"Ef", b"Ek", b"El",
];

/// Requests that start a block of lines that is not shown, ended by `..`
/// or by the macro their second argument names.
const DEFINITIONS: &[&[u8]] = &[b"de", b"de1", b"dei", b"am", b"am1", b"ami", b"ig"];

/// mdoc macros that may be called on a macro line: their names there
/// are markup, not words.
const MDOC_CALLABLE: &[&[u8]] = &[
    b"Ac", b"Ad", b"An", b"Ao", b"Ap", b"Aq", b"Ar", b"At", b"Bc", b"Bo", b"Bq", b"Brc", b"Bro",
    b"Brq", b"Bsx", b"Bx", b"Cd", b"Cm", b"Dc", b"Do", b"Dq", b"Dv", b"Dx", b"Ec", b"Em", b"En",
    b"Eo", b"Er", b"Es", b"Ev", b"Fa", b"Fc", b"Fl", b"Fn", b"Fo", b"Fr", b"Ft", b"Fx", b"Ic",
    b"Li", b"Lk", b"Ms", b"Mt", b"Nm", b"No", b"Ns", b"Nx", b"Oc", b"Oo", b"Op", b"Ox", b"Pa",
    b"Pc", b"Pf", b"Po", b"Pq", b"Qc", b"Ql", b"Qo", b"Qq", b"Sc", b"So", b"Sq", b"St", b"Sx",
    b"Sy", b"Ta", b"Tn", b"Ux", b"Va", b"Vt", b"Xc", b"Xo", b"Xr",
];

/// A set of request and macro names, each packed into one integer:
/// looked up by binary search, where comparing the line's name with each
/// listed name in turn took an eighth of a man page's fingerprinting.
struct Names(Vec<u32>);

impl Names {
    fn new(names: &[&[u8]]) -> Names {
        let mut keys: Vec<u32> = names.iter().filter_map(|name| packed(name)).collect();
        keys.sort_unstable();
        Names(keys)
    }

    fn contains(&self, name: &[u8]) -> bool {
        packed(name).is_some_and(|key| self.0.binary_search(&key).is_ok())
    }
}

/// A name of at most 4 bytes as an integer (no listed name is longer,
/// and names hold no NUL, so two names never pack alike).
fn packed(name: &[u8]) -> Option<u32> {
    let mut bytes = [0u8; 4];
    bytes.get_mut(..name.len())?.copy_from_slice(name);
    Some(u32::from_be_bytes(bytes))
}

static LAYOUT_NAMES: LazyLock<Names> = LazyLock::new(|| Names::new(LAYOUT));
static DEFINITION_NAMES: LazyLock<Names> = LazyLock::new(|| Names::new(DEFINITIONS));
static MDOC_CALLABLE_NAMES: LazyLock<Names> = LazyLock::new(|| Names::new(MDOC_CALLABLE));

/// What the scanner carries from line to line.
#[derive(Debug, Default)]
pub(super) struct State {
    /// Unknown until the first line that is not blank; then whether the
    /// file is roff.
    roff: Option<bool>,
    /// An mdoc page (a `.Dd` line was met).
    mdoc: bool,
    /// Inside a definition or ignored block: the line that ends it.
    skipping: Option<Vec<u8>>,
}

impl State {
    /// Writes the text of one line; `start` is false for a later piece of
    /// a cut line.
    pub(super) fn line(&mut self, line: &[u8], start: bool, out: &mut Vec<u8>) {
        let roff = match self.roff {
            Some(roff) => roff,
            None if super::trim_start(line).is_empty() => return,
            None => *self.roff.insert(matches!(line.first(), Some(b'.' | b'\''))),
        };
        if !roff {
            out.extend_from_slice(line);
            return;
        }
        if let Some(end) = &self.skipping {
            if start && super::trim_end(line) == end.as_slice() {
                self.skipping = None;
            }
            return;
        }
        match line.first() {
            Some(b'.' | b'\'') if start => self.control(&line[1..], out),
            _ => text(line, out),
        }
    }

    /// A control line, without its `.` or `'`.
    fn control(&mut self, rest: &[u8], out: &mut Vec<u8>) {
        let rest = super::trim_start(rest);
        if rest.starts_with(b"\\\"") || rest.starts_with(b"\\#") {
            return;
        }
        let name_end = rest
            .iter()
            .position(|&b| b == b' ' || b == b'\t')
            .unwrap_or(rest.len());
        let (name, arguments) = rest.split_at(name_end);
        if name == b"Dd" {
            self.mdoc = true;
        }
        if DEFINITION_NAMES.contains(name) {
            // `.de XX` ends at `..`, `.de XX YY` at `.YY`; `.ig` at `..`
            // or `.YY`.
            let mut words = arguments
                .split(|&b| b == b' ' || b == b'\t')
                .filter(|word| !word.is_empty());
            let end = if name == b"ig" {
                words.next()
            } else {
                words.nth(1)
            };
            let mut marker = b".".to_vec();
            marker.extend_from_slice(end.unwrap_or(b"."));
            self.skipping = Some(marker);
            return;
        }
        if name.is_empty() || LAYOUT_NAMES.contains(name) {
            return;
        }
        if name == b"IP" {
            // `.IP tag indent`: the tag is text, the indent is not.
            let arguments = super::trim_start(arguments);
            let tag_end = argument_end(arguments);
            text(&arguments[..tag_end], out);
            return;
        }
        for word in arguments
            .split(|&b| b == b' ' || b == b'\t')
            .filter(|word| !word.is_empty())
        {
            if self.mdoc && MDOC_CALLABLE_NAMES.contains(word) {
                continue;
            }
            text(word, out);
            out.push(b' ');
        }
    }
}

/// Where the first argument of `arguments` ends: a quoted one at its
/// closing quote, another at the first blank.
fn argument_end(arguments: &[u8]) -> usize {
    if arguments.first() == Some(&b'"') {
        return arguments[1..]
            .iter()
            .position(|&b| b == b'"')
            .map_or(arguments.len(), |at| at + 2);
    }
    arguments
        .iter()
        .position(|&b| b == b' ' || b == b'\t')
        .unwrap_or(arguments.len())
}

/// Writes the text of `line` (a text line, or a macro's arguments): its
/// escapes as the page shows them. Never longer than `line`.
fn text(line: &[u8], out: &mut Vec<u8>) {
    let mut at = 0;
    while at < line.len() {
        // The run before the next escape, as it is.
        let Some(run) = memchr::memchr(b'\\', &line[at..]) else {
            out.extend_from_slice(&line[at..]);
            return;
        };
        out.extend_from_slice(&line[at..at + run]);
        at += run;
        let Some(&escape) = line.get(at + 1) else {
            // A trailing backslash joins the next line.
            return;
        };
        at += 2;
        match escape {
            // Comments: the rest of the line.
            b'"' | b'#' => return,
            // Special characters and strings: a space.
            b'(' => {
                at = past_chars(line, at, 2);
                out.push(b' ');
            }
            b'[' => {
                at = closing(line, at, b']');
                out.push(b' ');
            }
            b'*' => {
                at = name_end(line, at);
                out.push(b' ');
            }
            // Fonts, colours, registers, marks, environment and the
            // like: nothing.
            b'f' | b'F' | b'm' | b'M' | b'n' | b'g' | b'k' | b'V' | b'Y' | b'$' => {
                if escape == b'n' && matches!(line.get(at), Some(b'+' | b'-')) {
                    at += 1;
                }
                at = name_end(line, at);
            }
            b's' => at = size_end(line, at),
            // A delimited argument: nothing, or a space for a character.
            b'h' | b'v' | b'w' | b'o' | b'l' | b'L' | b'D' | b'X' | b'Z' | b'b' | b'x' | b'R'
            | b'A' | b'B' | b'S' | b'H' | b'N' | b'C' => {
                at = match line.get(at) {
                    Some(&delimiter) if delimiter.is_ascii() => closing(line, at + 1, delimiter),
                    // Only a pathological file has another delimiter.
                    Some(_) => line.len(),
                    None => at,
                };
                if matches!(escape, b'N' | b'C') {
                    out.push(b' ');
                }
            }
            b'-' => out.push(b'-'),
            b'e' | b'\\' => out.push(b'\\'),
            b' ' | b'~' | b'0' | b't' => out.push(b' '),
            // Zero-width and spacing escapes, conditional braces: nothing.
            b'&' | b')' | b',' | b'/' | b':' | b'c' | b'%' | b'p' | b'r' | b'u' | b'd' | b'a'
            | b'|' | b'^' | b'{' | b'}' | b'!' | b'?' => {}
            other => out.push(other),
        }
    }
}

/// Past the name at `at`: one character, `(xy`, or `[name]`.
fn name_end(line: &[u8], at: usize) -> usize {
    match line.get(at) {
        Some(b'(') => past_chars(line, at + 1, 2),
        Some(b'[') => closing(line, at + 1, b']'),
        Some(_) => past_chars(line, at, 1),
        None => at,
    }
}

/// Past `count` characters from `at` (UTF-8: a name never ends inside a
/// character, so valid text stays valid).
fn past_chars(line: &[u8], mut at: usize, count: usize) -> usize {
    for _ in 0..count {
        if at >= line.len() {
            break;
        }
        at += 1;
        while at < line.len() && line[at] & 0xC0 == 0x80 {
            at += 1;
        }
    }
    at
}

/// Past a size escape's argument at `at`: `N`, `+N`, `-N`, `(NN`,
/// `[N]`, `'N'`.
fn size_end(line: &[u8], mut at: usize) -> usize {
    if matches!(line.get(at), Some(b'+' | b'-')) {
        at += 1;
    }
    match line.get(at) {
        Some(b'(') => past_chars(line, at + 1, 2),
        Some(b'[') => closing(line, at + 1, b']'),
        Some(b'\'') => closing(line, at + 1, b'\''),
        Some(digit) if digit.is_ascii_digit() => at + 1,
        _ => at,
    }
}

/// Past the first `delimiter` at or after `at` (the line's end if none).
fn closing(line: &[u8], at: usize, delimiter: u8) -> usize {
    line.get(at..)
        .and_then(|rest| rest.iter().position(|&b| b == delimiter))
        .map_or(line.len(), |found| at + found + 1)
}

#[cfg(test)]
mod tests {
    use super::super::{Format, view_words};

    fn words(page: &str) -> Vec<String> {
        view_words(Format::Roff, page)
    }

    #[test]
    fn a_man_page_reads_as_man_shows_it() {
        let page = ".\\\" DO NOT MODIFY THIS FILE!\n\
            .TH LS \"1\" \"September 2022\" \"GNU coreutils 9.1\" \"User Commands\"\n\
            .SH NAME\n\
            ls \\- list directory contents\n\
            .SH SYNOPSIS\n\
            .B ls\n\
            [\\fI\\,OPTION\\/\\fR]... [\\fI\\,FILE\\/\\fR]...\n\
            .PP\n\
            .TP\n\
            \\fB\\-a\\fR, \\fB\\-\\-all\\fR\n\
            do not ignore entries starting with .\n\
            .IP \\(bu 4\n\
            don\\(aqt \\s-1list\\s0 it\\*(lq\\&.\n\
            .sp 2\n\
            .in +4n\n";
        assert_eq!(
            words(page).join(" "),
            "LS \"1\" \"September 2022\" \"GNU coreutils 9.1\" \"User Commands\" NAME ls - list \
             directory contents SYNOPSIS ls [OPTION]... [FILE]... -a, --all do not ignore entries \
             starting with . don t list it ."
        );
    }

    #[test]
    fn definitions_and_ignored_blocks_are_not_shown() {
        let page = ".TH X 1\n.de Bx\n.ds a b\nhidden\n..\nshown\n.ig\nignored text\n..\n\
                    .de YY END\nalso hidden\n.END\nagain\n";
        assert_eq!(words(page), ["X", "1", "shown", "again"]);
    }

    #[test]
    fn mdoc_macro_names_called_on_a_line_are_markup() {
        let page = ".Dd March 3, 2024\n.Dt LS 1\n.Sh NAME\n.Nm ls\n.Nd list directory contents\n\
                    .Bl -tag -width Ds\n.It Fl a Ar file\nInclude entries.\n.El\n";
        assert_eq!(
            words(page).join(" "),
            "March 3, 2024 LS 1 NAME ls list directory contents a file Include entries."
        );
    }

    #[test]
    fn a_file_that_does_not_start_as_roff_is_read_as_it_is() {
        let log = "\nMar  3 10:00:01 host cron[12]: \\fBjob\\fR done\n.hidden line\n";
        assert_eq!(
            String::from_utf8(super::super::prose_of(Format::Roff, log.as_bytes())).unwrap(),
            log
        );
    }

    #[test]
    fn every_listed_name_is_found_and_no_other() {
        use super::{DEFINITIONS, LAYOUT, MDOC_CALLABLE, Names};
        for list in [LAYOUT, DEFINITIONS, MDOC_CALLABLE] {
            let names = Names::new(list);
            assert_eq!(names.0.len(), list.len(), "a name longer than 4 bytes");
            for name in list {
                assert!(names.contains(name), "{}", String::from_utf8_lossy(name));
            }
        }
        let layout = Names::new(LAYOUT);
        for other in [&b""[..], b"d", b"ds12", b"ds1x", b"SH", b"B", b"TPx", b"T"] {
            assert!(
                !layout.contains(other),
                "{}",
                String::from_utf8_lossy(other)
            );
        }
    }

    #[test]
    fn escapes_at_the_end_of_a_line_stop_there() {
        for line in [
            "a \\", "a \\f", "a \\(b", "a \\[x", "a \\s+", "a \\h'3", "a \\*(",
        ] {
            let page = format!(".TH X 1\n{line}\n");
            assert_eq!(words(&page)[..3], ["X", "1", "a"], "{line}");
        }
    }
}
