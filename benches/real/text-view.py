#!/usr/bin/env python3
"""Writes the text view of a real-text corpus (benches/real/build-corpora.py):
an independent reference for simdup's default `--markup text`, so that the
default can be scored against exact ground truth of the text it compares.

Reads SRC/corpus.jsonl and writes OUT/corpus.jsonl (default: SRC-text
beside SRC) with the same ids in the same order; `text` is the text view
of each markup file, chosen by the extension of its id (any case), and
the text unchanged for every other document (records included). OUT gets
a manifest.json saying what was derived from what; it has no docs/ (simdup
still reads SRC/docs). Then `truth --corpus OUT` makes its ground truth.

The view follows docs/MARKUP.md ("What is text") with code written for
this script alone (nothing of simdup's scanners is called or ported), and
with the Python standard library only. Where MARKUP.md leaves a choice,
the page as a reader sees it decides: what the HTML build shows is text.
Only words count (the truth splits text into runs of letters and digits),
so a rule needs care only where it drops, keeps or joins letters and
digits; lines of punctuation alone (underlines, rules, table borders, list
bullets) may stay as they are. A view keeps the file's lines (a dropped
line stays, empty), so `simdup explain FILE VIEW` shows where simdup's
view and this one differ.

- HTML (.html .htm .xhtml): html.parser. Tags, comments, declarations,
  processing instructions and the contents of <script> and <style> go;
  character references are decoded (html.unescape: every HTML5 name, and
  the few that HTML5 reads without `;`, such as `&copy`).
  A tag separates words unless it is one of INLINE_TAGS.
- Markdown (.md .markdown .mdown .mkd), line by line: front matter (`---`
  or `+++` on the first line, up to the same line), fence lines at any
  indentation (the code between them is kept verbatim), heading `#`s, block quote and list
  markers, task boxes, link reference definitions, images (with their alt
  text; a badge's link too), link targets (`[text](url)`, `[text][ref]`
  keep `text`), autolinks, footnote labels (`[^1]`, `[^1]:`; the
  footnote's text stays), HTML comments and tags (a tag whose `>` is on
  a later line goes up to it or to a blank line), emphasis marks (`*`,
  `_`, `~` unless between two letters or digits), the backslash of
  escapes; character references are decoded. Code spans are kept as they
  are. Not handled: indented code blocks (read as text), code spans or
  links across lines, nested brackets in link text.
- reStructuredText (.rst .rest), line by line: explicit markup blocks
  (`.. ` and the lines indented under it) that are comments, hyperlink
  targets (`__ url` too) or substitution definitions go, and so do the directives of
  DROP_DIRECTIVES with their bodies; other directives lose their
  `.. name::` marker and option lines (`:opt: value`), keep their body and
  their argument (an admonition's first line, an object's signature such
  as `.. py:function:: spam(eggs)`: the page shows both), except those of
  DROP_ARGUMENT (a language, an image's path). Footnote and citation labels go. Literal blocks (after `::`) and
  code directives' bodies are kept verbatim. Inline: roles
  (`:ref:`Guide <guide>`` keeps `Guide`, `:class:`~a.B`` keeps `a.B`),
  references (`` `text <url>`_ `` keeps `text`, `word_` keeps `word`),
  footnote and citation references (`[1]_`) go; emphasis marks, inline
  literal backquotes, escapes (`\\ ` joins). Substitution references
  (`|name|`) keep their name. Lines of one repeated punctuation character
  (adornments, transitions) go.
- AsciiDoc (.adoc .asciidoc), line by line: attribute entries, `//`
  comments and `////` blocks, `++++` passthrough blocks, block delimiter
  lines, block attribute and anchor lines (`[source,python]`, `[[id]]`),
  block macros on their own line (`image::x[]`), section title `=`s,
  numbered list markers, link and macro syntax (`https://x.org[the site]`
  and `link:a.html[page]` keep their text, `<<id,text>>` keeps `text`,
  `<<id>>` and `image:x.png[]` go), attribute references (`{name}`: a
  space) and formatting marks. Listing (`----`) and literal (`....`)
  blocks are kept verbatim; block titles (`.Title`) are text.
- Man pages (roff: .man .mdoc .roff, and section extensions such as .1,
  .3pm, .1ssl), line by line, only when the first line that is not blank
  starts with `.` or `'` (anything else is read as it is): comment lines
  and `\\"` comments, request and macro names, the arguments of
  ROFF_LAYOUT and the blocks of ROFF_BLOCKS (up to `..` or the named end)
  go; `.IP` keeps its tag only; in mdoc pages (after `.Dd`), the names of
  MDOC_CALLED on a macro line go. Escapes, by regular expression:
  special characters, strings and `\\N'..'` become a space; fonts, sizes,
  colours, registers and delimited arguments (`\\h'..'`) go; `\\-` is `-`.

Usage: benches/real/text-view.py SRC [--out OUT]
       benches/real/text-view.py --self-test
"""

import argparse
import html
import json
import os
import re
import sys
import time
from html.parser import HTMLParser

MARKDOWN = {"md", "markdown", "mdown", "mkd"}
RST = {"rst", "rest"}
ASCIIDOC = {"adoc", "asciidoc"}
HTML = {"html", "htm", "xhtml"}
ROFF = {"man", "mdoc", "roff"}
ROFF_SECTION = re.compile(r"[1-9][a-z0-9]{0,5}")

# Tags that do not separate words (`wo<b>rd</b>` is one word); every other
# tag, known or not, does.
INLINE_TAGS = frozenset(
    "a abbr acronym b bdi bdo big cite code data del dfn em font i img ins kbd label mark "
    "q s samp small span strike strong sub sup time tt u var wbr".split())


def format_of(doc_id):
    base = doc_id.rsplit("/", 1)[-1]
    ext = base.rsplit(".", 1)[-1].lower() if "." in base else ""
    for name, exts in (("markdown", MARKDOWN), ("rst", RST), ("asciidoc", ASCIIDOC),
                       ("html", HTML)):
        if ext in exts:
            return name
    if ext in ROFF or ROFF_SECTION.fullmatch(ext):
        return "roff"
    return None


# ---------------------------------------------------------------- HTML


class _HtmlText(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out = []
        self.hidden = None  # "script" or "style" while inside one

    def _lines(self, dropped):
        # What goes leaves its line breaks, so the view keeps the lines.
        if dropped and "\n" in dropped:
            self.out.append("\n" * dropped.count("\n"))

    def handle_starttag(self, tag, attrs):
        self._lines(self.get_starttag_text())
        if self.hidden:
            return
        if tag in ("script", "style"):
            self.hidden = tag
        if tag not in INLINE_TAGS:
            self.out.append(" ")

    def handle_startendtag(self, tag, attrs):
        # <br/>, <script src=x/>: no content follows.
        self._lines(self.get_starttag_text())
        if not self.hidden and tag not in INLINE_TAGS:
            self.out.append(" ")

    def parse_endtag(self, i):
        # The parser hands end tags over without their text: `</p\n>`.
        j = super().parse_endtag(i)
        if j > i:
            self._lines(self.rawdata[i:j])
        return j

    def handle_endtag(self, tag):
        if self.hidden:
            if tag != self.hidden:
                return
            self.hidden = None
        if tag not in INLINE_TAGS:
            self.out.append(" ")

    def handle_data(self, data):
        if self.hidden:
            self._lines(data)
        else:
            self.out.append(data)

    # Comments, declarations, processing instructions, CDATA: dropped.
    handle_comment = handle_decl = handle_pi = unknown_decl = _lines


def html_text(text):
    p = _HtmlText()
    p.feed(text)
    p.close()
    return "".join(p.out)


# ---------------------------------------------------------------- shared inline helpers

# Placeholders (private use characters, which are not letters or digits)
# protect code spans and escaped characters from the inline rules.
_PH = "\ue000"
_PH_RE = re.compile(_PH + r"(\d+)" + _PH)


class _Protect:
    def __init__(self):
        self.kept = []

    def __call__(self, s):
        self.kept.append(s)
        return f"{_PH}{len(self.kept) - 1}{_PH}"

    def restore(self, line):
        # A protected piece may hold placeholders of its own.
        while _PH in line:
            line = _PH_RE.sub(lambda m: self.kept[int(m.group(1))], line)
        return line


def _drop_marks(line, marks):
    """Removes runs of the emphasis characters `marks` unless they stand
    between two letters or digits (`snake_case`, `2*3` stay)."""
    def one(m):
        s, e = m.start(), m.end()
        before = line[s - 1] if s > 0 else " "
        after = line[e] if e < len(line) else " "
        return m.group(0) if before.isalnum() and after.isalnum() else ""
    return re.sub(f"[{re.escape(marks)}]+", one, line)


# ---------------------------------------------------------------- Markdown

_MD_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_MD_HEADING = re.compile(r"^( {0,3})#{1,6}(?=\s|$)")
_MD_CLOSING_HASHES = re.compile(r"\s#+\s*$")
_MD_QUOTE = re.compile(r"^ {0,3}> ?")
_MD_LIST = re.compile(r"^\s*(?:[-+*]|\d{1,9}[.)])(?=\s|$)")
_MD_TASK = re.compile(r"^\s*\[[ xX]\](?=\s|$)")
_MD_REFDEF = re.compile(r"^ {0,3}\[[^\]^][^\]]*\]:\s*\S")
_MD_FOOTNOTE = re.compile(r"\[\^[^\]\s]+\]:?")
_MD_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")
_MD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_MD_IMAGE = re.compile(r"!\[[^\[\]]*\](?:\((?:[^()]|\([^()]*\))*\)|\[[^\[\]]*\])")
_MD_EMPTY_LINK = re.compile(r"\[\s*\]\((?:[^()]|\([^()]*\))*\)")
_MD_LINK = re.compile(r"\[([^\[\]]*)\](?:\((?:[^()]|\([^()]*\))*\)|\[[^\[\]]*\])")
_MD_AUTOLINK = re.compile(r"<(?:[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)>")
_TAG_NAME = r"[A-Za-z][A-Za-z0-9-]*"
_MD_TAG = re.compile(r"</?(" + _TAG_NAME + r")(?:\s[^<>]*)?/?>")
_MD_OPEN_TAG = re.compile(r"</?(" + _TAG_NAME + r")(?:\s[^<>]*)?$")
# Elements of HTML: a tag of one of these whose `>` is on a later line
# goes up to it (or to a blank line).
_KNOWN_TAGS = frozenset(
    "a abbr address area article aside audio b bdi bdo blockquote body br button canvas "
    "caption center cite code col colgroup dd del details dfn dialog div dl dt em embed "
    "fieldset figcaption figure font footer form h1 h2 h3 h4 h5 h6 head header hr html i "
    "iframe img input ins kbd label legend li link main map mark meta nav noscript object "
    "ol optgroup option output p param picture pre q s samp script section select small "
    "source span strike strong style sub summary sup svg table tbody td template textarea "
    "tfoot th thead time title tr track tt u ul var video wbr".split())


def _md_tag(m):
    return "" if m.group(1).lower() in INLINE_TAGS else " "


def markdown_text(text):
    lines = text.split("\n")
    out = []
    start = 0
    if lines and lines[0].rstrip() in ("---", "+++"):
        delim = lines[0].rstrip()
        for j in range(1, len(lines)):
            if lines[j].rstrip() == delim:
                start = j + 1
                break
    fence = None  # (character, length) of the open fence
    in_comment = in_tag = False
    for i in range(start, len(lines)):
        line = lines[i]
        out.extend([""] * (i - len(out)))  # dropped lines stay, empty
        if fence:
            m = _MD_FENCE.match(line)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= fence[1] \
                    and not line[m.end():].strip():
                fence = None
            else:
                out.append(line)
            continue
        if in_comment:
            end = line.find("-->")
            if end < 0:
                continue
            line, in_comment = line[end + 3:], False
        elif in_tag:
            if not line.strip():
                in_tag = False
            else:
                end = line.find(">")
                if end < 0:
                    continue
                line, in_tag = " " + line[end + 1:], False
        m = _MD_FENCE.match(line)
        if m and not (m.group(1)[0] == "`" and "`" in line[m.end():]):
            fence = (m.group(1)[0], len(m.group(1)))
            continue
        if _MD_REFDEF.match(line):
            continue
        # Block markers, nested: `> 1. [x] text`.
        while True:
            new = _MD_QUOTE.sub("", line, count=1)
            new = _MD_LIST.sub("", new, count=1)
            new = _MD_TASK.sub("", new, count=1)
            if new == line:
                break
            line = new
        if _MD_HEADING.match(line):
            line = _MD_CLOSING_HASHES.sub("", _MD_HEADING.sub(r"\1", line, count=1))
        line, in_comment, in_tag = _md_inline(line)
        out.append(line)
    out.extend([""] * (len(lines) - len(out)))
    return "\n".join(out)


def _md_inline(line):
    keep = _Protect()
    line = _MD_CODE_SPAN.sub(lambda m: keep(m.group(2)), line)
    line = _MD_ESCAPE.sub(lambda m: keep(m.group(1)), line)
    in_comment = in_tag = False
    # HTML comments; one left open goes on to the next lines.
    parts = []
    while True:
        s = line.find("<!--")
        if s < 0:
            parts.append(line)
            break
        parts.append(line[:s])
        e = line.find("-->", s + 4)
        if e < 0:
            in_comment = True
            break
        line = line[e + 3:]
    line = " ".join(parts)
    line = _MD_IMAGE.sub("", line)
    line = _MD_EMPTY_LINK.sub("", line)  # a badge's link, its image gone
    line = _MD_LINK.sub(r"\1", line)
    line = _MD_AUTOLINK.sub("", line)
    line = _MD_FOOTNOTE.sub("", line)
    line = _MD_TAG.sub(_md_tag, line)
    if not in_comment:
        m = _MD_OPEN_TAG.search(line)
        if m and m.group(1).lower() in _KNOWN_TAGS:
            line, in_tag = line[:m.start()], True
    line = _drop_marks(line, "*_~")
    line = html.unescape(line)
    return keep.restore(line), in_comment, in_tag


# ---------------------------------------------------------------- reStructuredText

# Directives whose whole block goes (the body is not prose).
DROP_DIRECTIVES = frozenset(
    "image include literalinclude raw toctree contents only ifconfig highlight sectnum "
    "section-numbering index tabularcolumns currentmodule module default-role role meta "
    "title header footer target-notes "
    "inheritance-diagram program default-domain sectionauthor moduleauthor codeauthor".split())
# Directives whose argument goes (a language, a path, a class name); their
# body stays. (`.. class::` is Sphinx's: its argument is a signature.)
DROP_ARGUMENT = frozenset("code-block code sourcecode figure rst-class cssclass".split())
# Directives whose body is kept verbatim (code).
VERBATIM_BODY = frozenset("code-block code sourcecode doctest testcode testoutput".split())

_RST_EXPLICIT = re.compile(r"^(\s*)\.\.(?:\s+(.*))?$")
_RST_DIRECTIVE = re.compile(r"^([\w.+-]+(?::[\w.+-]+)*)::(?:\s+(.*))?$")
_RST_FOOTNOTE = re.compile(r"^\[(?:\d+|#[\w.-]*|\*|[\w.-]+)\](?:\s+(.*))?$")
_RST_OPTION = re.compile(r"^\s+:[\w.+ -]+:(?:\s.*)?$")
_RST_ANON_TARGET = re.compile(r"^\s*__ ")
_RST_ADORNMENT = re.compile(r"^\s*([!-/:-@\[-`{-~])\1+\s*$")
_RST_LITERAL = re.compile(r"``(.+?)``")
_RST_ESCAPE = re.compile(r"\\(.)")
_RST_ROLE_FIRST = re.compile(r":[\w.+-]+(?::[\w.+-]+)*:`([^`]+)`")
_RST_ROLE_AFTER = re.compile(r"`([^`]+)`:[\w.+-]+(?::[\w.+-]+)*:")
_RST_REFERENCE = re.compile(r"_?`([^`]+)`(?:__?)?")
_RST_FOOTREF = re.compile(r"\[(?:\d+|#[\w.-]*|\*|[\w.-]+)\]_")
_RST_TARGET_TAIL = re.compile(r"^(.*?)\s*<[^<>]+>\s*$", re.S)


def _indent(line):
    return len(line) - len(line.lstrip())


def _rst_text_of(inner):
    """The text of `text <target>` or of a role's content."""
    m = _RST_TARGET_TAIL.match(inner)
    if m and m.group(1):
        return m.group(1)
    if m:  # `<target>` alone: the target is the text
        inner = inner.strip()[1:-1]
    return inner.lstrip("~!")


def _rst_inline(line):
    keep = _Protect()
    line = _RST_LITERAL.sub(lambda m: keep(m.group(1)), line)
    line = line.replace("\\ ", "")
    line = _RST_ESCAPE.sub(lambda m: keep(m.group(1)), line)
    line = _RST_ROLE_FIRST.sub(lambda m: _rst_text_of(m.group(1)), line)
    line = _RST_ROLE_AFTER.sub(lambda m: _rst_text_of(m.group(1)), line)
    line = _RST_FOOTREF.sub("", line)
    line = _RST_REFERENCE.sub(lambda m: _rst_text_of(m.group(1)), line)
    line = line.replace("*", "").replace("|", " ")
    return keep.restore(line)


def rst_text(text):
    out = []
    drop_under = None  # drop the lines indented more than this
    verbatim_under = None  # keep verbatim the lines indented more than this
    literal_after = None  # a `::` line: a literal block may follow, indented more
    options_under = None  # drop option lines right after a directive line
    pending_verbatim = False  # and keep its body verbatim (a code directive)
    lines = text.split("\n")
    for i, line in enumerate(lines):
        out.extend([""] * (i - len(out)))  # dropped lines stay, empty
        blank = not line.strip()
        if drop_under is not None:
            if blank or _indent(line) > drop_under:
                continue
            drop_under = None
        if verbatim_under is not None:
            if blank or _indent(line) > verbatim_under:
                out.append(line)
                continue
            verbatim_under = None
        if options_under is not None:
            if not blank and _indent(line) > options_under and _RST_OPTION.match(line):
                continue
            pending, options_under = options_under, None
            if pending_verbatim:
                if blank or _indent(line) > pending:
                    verbatim_under = pending
                    out.append(line)
                    continue
        if literal_after is not None:
            if blank:
                out.append(line)
                continue
            if _indent(line) > literal_after:
                verbatim_under = literal_after
                literal_after = None
                out.append(line)
                continue
            literal_after = None
        m = _RST_EXPLICIT.match(line)
        if m:
            ind, rest = len(m.group(1)), (m.group(2) or "")
            d = _RST_DIRECTIVE.match(rest)
            f = _RST_FOOTNOTE.match(rest)
            if d:
                name = d.group(1).lower().rsplit(":", 1)[-1]
                if name in DROP_DIRECTIVES:
                    drop_under = ind
                    continue
                arg = "" if name in DROP_ARGUMENT else (d.group(2) or "")
                out.append(_rst_inline(arg))
                options_under = ind
                pending_verbatim = name in VERBATIM_BODY
                continue
            if f:
                out.append(_rst_inline(f.group(1) or ""))
                continue
            # A comment, a hyperlink target (`.. _name:`) or a substitution
            # definition (`.. |name| image:: x`).
            drop_under = ind
            continue
        if _RST_ANON_TARGET.match(line) or _RST_ADORNMENT.match(line):
            continue
        if line.rstrip().endswith("::"):
            literal_after = _indent(line)
        out.append(_rst_inline(line))
    out.extend([""] * (len(lines) - len(out)))
    return "\n".join(out)



# ---------------------------------------------------------------- AsciiDoc

_AD_ATTRIBUTE_ENTRY = re.compile(r"^:!?[\w-]+!?:(?:\s.*)?$")
_AD_DELIMITER = re.compile(r"^(?:(-{4,}|\.{4,}|\+{4,}|/{4,}|={4,}|\*{4,}|_{4,})|--|\|={3,}|```.*)\s*$")
_AD_BLOCK_ATTRIBUTE = re.compile(r"^\[[^\[\]]*\]\s*$|^\[\[[^\[\]]*\]\]\s*$")
_AD_BLOCK_MACRO = re.compile(r"^[a-z]\w*::\S*\[.*\]\s*$")
_AD_TITLE = re.compile(r"^={1,6}\s+")
_AD_NUMBERED = re.compile(r"^\s*\d+\.\s+")
_AD_XREF = re.compile(r"<<([^<>,]*)(?:,\s*([^<>]*))?>>")
_AD_IMAGE = re.compile(r"\bimage:[^\s\[]*\[[^\]]*\]")
_AD_URL_MACRO = re.compile(r"\b(?:https?|ftp|irc|mailto|file):[^\s\[]*\[([^\]]*)\]")
_AD_MACRO = re.compile(r"\b[a-z][\w-]*:[^\s\[]*\[([^\]]*)\]")
_AD_ATTR_REF = re.compile(r"\{[\w-]+\}")
_AD_ANCHOR = re.compile(r"\[\[[^\[\]]*\]\]|\[#[^\[\]]*\]")


def _ad_inline(line):
    line = _AD_ANCHOR.sub("", line)
    line = _AD_XREF.sub(lambda m: m.group(2) or "", line)
    line = _AD_IMAGE.sub("", line)
    line = _AD_URL_MACRO.sub(r"\1", line)
    line = _AD_MACRO.sub(r"\1", line)
    line = _AD_ATTR_REF.sub(" ", line)
    return _drop_marks(line, "*_`#^~+")


def asciidoc_text(text):
    out = []
    block = None  # the delimiter of the open block whose lines are not read as markup
    lines = text.split("\n")
    for i, line in enumerate(lines):
        out.extend([""] * (i - len(out)))  # dropped lines stay, empty
        stripped = line.rstrip()
        if block:
            if stripped == block:
                block = None
            elif block[0] in "-.":
                out.append(line)  # listing and literal blocks: verbatim
            continue  # comment and passthrough blocks: dropped
        if stripped.startswith("//") and not stripped.startswith("////"):
            continue
        m = _AD_DELIMITER.match(stripped)
        if m:
            if m.group(1) and m.group(1)[0] in "-./+":
                block = stripped
            continue
        if _AD_ATTRIBUTE_ENTRY.match(stripped) or _AD_BLOCK_ATTRIBUTE.match(stripped) \
                or _AD_BLOCK_MACRO.match(stripped):
            continue
        line = _AD_TITLE.sub("", line)
        line = _AD_NUMBERED.sub("", line)
        out.append(_ad_inline(line))
    out.extend([""] * (len(lines) - len(out)))
    return "\n".join(out)


# ---------------------------------------------------------------- roff


# Requests and macros whose arguments the page does not show.
ROFF_LAYOUT = frozenset(
    "ad af as bd bp br cc ce ch chop cs cu ds ds1 ec el EE EN EQ eo ev EX fam fc fi fl fp ft hc "
    "HP hw hy ie if in it lf ll ls lt mk mso na ne nf nh nm nn nr ns pc PD pl pn po ps rm rn rr "
    "RE RS rs rt so sp ss ta tc TE ti tm TP tr TS ul UR vs MT Bd Bf Bk Bl Ed Ef Ek El".split())
ROFF_BLOCKS = frozenset("de de1 dei am am1 ami ig".split())
# mdoc macros callable on a macro line: markup there, not words.
MDOC_CALLED = frozenset(
    "Ac Ad An Ao Ap Aq Ar At Bc Bo Bq Brc Bro Brq Bsx Bx Cd Cm Dc Do Dq Dv Dx Ec Em En Eo Er Es "
    "Ev Fa Fc Fl Fn Fo Fr Ft Fx Ic Li Lk Ms Mt Nm No Ns Nx Oc Oo Op Ox Pa Pc Pf Po Pq Qc Ql Qo Qq "
    "Sc So Sq St Sx Sy Ta Tn Ux Va Vt Xc Xo Xr".split())
# Escapes, in the order they are tried: what each becomes.
_ROFF_ESCAPES = [
    (re.compile(r'\\["#].*$'), ""),                                  # comment
    (re.compile(r"\\(?:\(.{0,2}|\[[^\]]*\]?|\*(?:\(.{0,2}|\[[^\]]*\]?|.?))"), " "),   # characters, strings
    (re.compile(r"\\[CN](.)(?:(?!\1).)*\1?"), " "),                    # a character by name or number
    (re.compile(r"\\s[-+]?(?:\(..|\[[^\]]*\]?|'[^']*'?|\d)?"), ""),    # sizes
    (re.compile(r"\\n[-+]?(?:\(..|\[[^\]]*\]?|.)"), ""),               # registers
    (re.compile(r"\\[fFmMgkVY$](?:\(..|\[[^\]]*\]?|.)"), ""),        # fonts, colours, ...
    (re.compile(r"\\[hvwolLDXZbxRABSH](.)(?:(?!\1).)*\1?"), ""),      # delimited arguments
    (re.compile(r"\\[ ~0t]"), " "),
    (re.compile(r"\\[-]"), "-"),
    (re.compile(r"\\[e\\\\]"), "\\\\"),
    (re.compile(r"\\[&),/:c%pruda|^{}!?]"), ""),
    (re.compile(r"\\$"), ""),
    (re.compile(r"\\(.)"), r"\1"),
]


def _roff_escapes(line):
    # One pass, left to right: each escape is replaced where it starts.
    out, at = [], 0
    while True:
        k = line.find("\\", at)
        if k < 0:
            out.append(line[at:])
            return "".join(out)
        out.append(line[at:k])
        for pattern, repl in _ROFF_ESCAPES:
            m = pattern.match(line, k)
            if m:
                out.append(m.expand(repl) if "\\" in repl else repl)
                at = m.end()
                break


def roff_text(text):
    lines = text.split("\n")
    first = next((l for l in lines if l.strip()), "")
    if not first.startswith((".", "'")):
        return text
    out, until, mdoc = [], None, False
    for line in lines:
        if until is not None:
            out.append("")
            if line.rstrip(" \t") == until:
                until = None
            continue
        if not line.startswith((".", "'")):
            out.append(_roff_escapes(line))
            continue
        rest = line[1:].lstrip(" \t")
        if rest.startswith(('\\"', "\\#")):
            out.append("")
            continue
        name, args = re.match(r"([^ \t]*)[ \t]*(.*)", rest).groups()
        words = args.split()
        if name == "Dd":
            mdoc = True
        if name in ROFF_BLOCKS:
            ends = words[:1] if name == "ig" else words[1:2]
            until = "." + (ends[0] if ends else ".")
            out.append("")
            continue
        if not name or name in ROFF_LAYOUT:
            out.append("")
            continue
        if name == "IP":
            a = args.lstrip(" \t")
            tag = a[:a.index('"', 1) + 1] if a.startswith('"') and '"' in a[1:] else (a.split() or [""])[0]
            out.append(_roff_escapes(tag))
            continue
        out.append(" ".join(_roff_escapes(w) for w in words if not (mdoc and w in MDOC_CALLED)))
    return "\n".join(out)


VIEWS = {"markdown": markdown_text, "rst": rst_text, "asciidoc": asciidoc_text,
         "html": html_text, "roff": roff_text}


def text_view(doc_id, text):
    fmt = format_of(doc_id)
    return (VIEWS[fmt](text) if fmt else text), fmt


# ---------------------------------------------------------------- self-test


def _words(s):
    return re.findall(r"[^\W_]+", s.lower())


def self_test():
    cases = [
        ("a.html", "<p>one</p><p>two</p>wo<b>rd</b> &amp; &eacute;t&#233; "
                   "<script>var x</script><style>p{}</style><!-- hid -->",
         "one two word été"),
        ("a.md", "---\ntitle: gone\n---\n# Head #\n1. [x] see [the site](https://x.org \"t\") "
                 "and [ref][r]\n\n```python\nkeep *this* [a](b)\n```\n![alt](i.png) "
                 "[![badge](b.svg)](https://ci) <https://auto> `code [c](d)` snake_case "
                 "*em* \\*lit\\* <div class=\"x\"\n  id=y>in</div> <!-- c\n-->after\n"
                 "[r]: https://ref.example",
         "head see the site and ref keep this a b code c d snake case em lit in after"),
        ("a.rst", "Title\n=====\n\n.. note:: Read this.\n   :class: x\n\n   Body text.\n\n"
                  ".. code-block:: python\n   :linenos:\n\n   x = `a <b>`_\n\n"
                  ".. image:: pic.png\n   :alt: gone\n\n.. _target: https://x.org\n\n"
                  ".. a comment\n   more\n\nSee :ref:`Guide <guide>`, `text <https://u>`_, "
                  "word_, [1]_, ``lit\\n\\\\x`` and\\ s.\n\nExample::\n\n   `kept <x>`_ \\a\\b\n\nend",
         "title read this body text x a b see guide text word lit n x ands example kept x a b end"),
        ("a.adoc", ":toc: left\n= Title\n// comment\n[source,python]\n----\nkeep *it*\n----\n"
                   "See https://x.org[the site] and link:a.html[page], <<id,text>> <<gone>> "
                   "image:x.png[] {attr} *bold*\nimage::big.png[]\n.Block title",
         "title keep it see the site and page text bold block title"),
        ("ls.1", ".\\\" gone\n.TH LS \"1\" \"GNU\"\n.SH NAME\nls \\- list \\fBdirectory\\fR "
                 "don\\(aqt\\s-1x\\s0 \\*(lq\\&.\n.TP\n.IP \\(bu 4\n.de X\nhidden\n..\n.sp 2\n"
                 "\\h'3n'tail \\N'45' end \\\" comment",
         "ls 1 gnu name ls list directory don tx tail end"),
        ("ls.8", ".Dd May 1, 2024\n.Sh NAME\n.It Fl a Ar file\n.Bl -tag -width Ds\ntext",
         "may 1 2024 name a file text"),
        ("syslog.1", "Mar 3 host: \\fBx\\fR\n.hidden", "mar 3 host fbx fr hidden"),
        ("a.txt", "<p>kept</p>", "p kept p"),
    ]
    failed = 0
    for doc_id, text, want in cases:
        got = " ".join(_words(text_view(doc_id, text)[0]))
        if got != want:
            failed += 1
            print(f"text-view self-test: {doc_id}: got {got!r}, want {want!r}", file=sys.stderr)
    print(f"{len(cases) - failed} passed, {failed} failed")
    return 1 if failed else 0


# ---------------------------------------------------------------- main


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("src", nargs="?", help="corpus folder (holding corpus.jsonl)")
    p.add_argument("--out", help="output folder (default: SRC-text beside SRC)")
    p.add_argument("--self-test", action="store_true", help="check the rules on a few inputs")
    args = p.parse_args()
    if args.self_test:
        return self_test()
    if not args.src:
        p.error("give a corpus folder")
    src = args.src.rstrip("/")
    out_dir = args.out or src + "-text"
    start = time.time()
    os.makedirs(out_dir, exist_ok=True)
    counts, bytes_in, bytes_out, documents = {}, {}, {}, 0
    tmp = os.path.join(out_dir, "corpus.jsonl.tmp")
    with open(os.path.join(src, "corpus.jsonl"), encoding="utf-8") as f, \
            open(tmp, "w", encoding="utf-8") as out:
        for line in f:
            doc = json.loads(line)
            text, fmt = text_view(doc["id"], doc["text"])
            key = fmt or "other"
            counts[key] = counts.get(key, 0) + 1
            bytes_in[key] = bytes_in.get(key, 0) + len(doc["text"].encode("utf-8"))
            bytes_out[key] = bytes_out.get(key, 0) + len(text.encode("utf-8"))
            documents += 1
            out.write(json.dumps({"id": doc["id"], "text": text}, ensure_ascii=False))
            out.write("\n")
    os.replace(tmp, os.path.join(out_dir, "corpus.jsonl"))
    manifest = {
        "corpus": os.path.basename(out_dir),
        "derived_from": os.path.basename(src),
        "view": "text (benches/real/text-view.py; docs/MARKUP.md)",
        "documents": documents,
        "by_format": {k: {"documents": counts[k], "bytes": bytes_in[k], "text_bytes": bytes_out[k]}
                      for k in sorted(counts)},
    }
    with open(os.path.join(out_dir, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    summary = ", ".join(f"{k} {counts[k]} ({bytes_in[k] / 1e6:.1f} -> {bytes_out[k] / 1e6:.1f} MB)"
                        for k in sorted(counts))
    print(f"text-view: {documents} documents: {summary}; {time.time() - start:.1f} s -> {out_dir}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
