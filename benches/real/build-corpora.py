#!/usr/bin/env python3
"""Builds the real-text corpora of docs/QUALITY.md ("Real text") from Debian
and PyPI, with nothing but the Python standard library, apt-get, dpkg-deb
and pip.

Corpora (each in OUT/NAME/):

- debian-docs: /usr/share/doc and /usr/share/man of the packages in
  benches/real/debian-packages.txt (copyright files, changelogs, READMEs,
  NEWS, examples, man pages), fetched with `apt-get download` and read
  with `dpkg-deb --fsys-tarfile`: nothing is installed or unpacked.
- debian-copyright: the copyright files alone (/usr/share/doc/PKG/copyright
  of each package): licence texts and boilerplate.
- pypi-releases: the text files of the sdists in
  benches/real/pypi-releases.txt, fetched with `pip download`.
- mixed: debian-docs and pypi-releases together (built first if asked in
  the same run, else read from OUT), with the man pages installed on this
  machine (/usr/share/man, decompressed, redirects left out): a corpus
  past the cost model's small-corpus size (20,000), of the kind whose
  documents crowd (versions of one project's files, man pages). Its size
  depends on the packages installed: 45,510 documents on the development
  machine (21,008 of them man pages).
- short-records: the one-line descriptions of the packages in Debian's
  main Packages index (bookworm, the machine's architecture), at most three
  packages per source package, one record per package, id = package name.

Each corpus is `corpus.jsonl` ({"id", "text"} per line, sorted by id),
`manifest.json` (sources, versions, counts, bytes, what was left out and
why) and, for the file corpora, the documents themselves under `docs/`
(id = path relative to the corpus folder), written as UTF-8 so that
`simdup scan docs` and `simdup scan --records jsonl < corpus.jsonl` read
the same text. Left out: symbolic and hard links, hidden files, files with a NUL
byte in their first 8 KiB, compressed files other than .gz (which are
decompressed), man pages that only redirect (`.so`), files over 1 MiB, and
files without a single letter or digit (no words: simdup never pairs them).

Downloads are cached in OUT/cache, so a rebuild fetches nothing new.

Usage: benches/real/build-corpora.py [--out target/real] [--only NAME,...]
Needs: Debian or Ubuntu with `apt-get update` done (for apt-get download
and the Packages index), dpkg-deb, pip.
"""

import argparse
import datetime
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
CORPORA = ("debian-docs", "debian-copyright", "pypi-releases", "short-records", "mixed")
MAX_BYTES = 1 << 20
PER_SOURCE = 3  # short-records: packages kept per source package
SNIFF = 8192
# Text files kept from sdists, by extension; files without one are kept too
# (LICENSE, README, PKG-INFO, AUTHORS...).
PYPI_TEXT = {
    "py", "pyi", "pyx", "pxd", "rst", "md", "txt", "cfg", "toml", "ini", "in",
    "po", "pot", "js", "html", "css", "tex", "sty", "json", "yaml", "yml",
    "sh", "bat", "conf", "inc", "c", "h", "xml", "csv", "jinja", "j2",
}
# Never text, or compressed in a way we do not undo.
BINARY_EXT = {
    "png", "jpg", "jpeg", "gif", "ico", "pdf", "bz2", "xz", "zst", "z", "lz",
    "lzma", "zip", "jar", "mo", "gmo", "woff", "woff2", "ttf", "otf", "pyc",
    "so", "a", "o", "exe", "dll", "db", "sqlite", "svgz", "tgz",
}


START = time.time()


def log(msg):
    print(f"build-corpora: [{time.time() - START:4.0f} s] {msg}", file=sys.stderr, flush=True)


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def has_word(text):
    return any(c.isalnum() for c in text)


class Corpus:
    """Collects documents, then writes docs/, corpus.jsonl and manifest.json."""

    def __init__(self, out, name, files=True):
        self.dir = os.path.join(out, name)
        self.name = name
        self.files = files
        self.docs = {}
        self.skipped = {}

    def skip(self, reason):
        self.skipped[reason] = self.skipped.get(reason, 0) + 1

    def add(self, rel, data, kind=None):
        """Adds a document from bytes; `rel` is its path below docs/ (or its
        id, for records). Returns whether it was kept."""
        if b"\0" in data[:SNIFF]:
            self.skip("binary")
            return False
        if len(data) > MAX_BYTES:
            self.skip("over_1MiB")
            return False
        text = data.decode("utf-8", errors="replace")
        if not has_word(text):
            self.skip("no_words")
            return False
        doc_id = f"docs/{rel}" if self.files else rel
        if doc_id in self.docs:
            self.skip("duplicate_name")
            return False
        self.docs[doc_id] = (text, kind)
        return True

    def write(self, manifest):
        if os.path.exists(self.dir):
            shutil.rmtree(self.dir)
        os.makedirs(self.dir)
        total = 0
        kinds = {}
        with open(os.path.join(self.dir, "corpus.jsonl"), "w", encoding="utf-8") as out:
            for doc_id in sorted(self.docs):
                text, kind = self.docs[doc_id]
                encoded = text.encode("utf-8")
                total += len(encoded)
                if kind:
                    kinds[kind] = kinds.get(kind, 0) + 1
                out.write(json.dumps({"id": doc_id, "text": text}, ensure_ascii=False))
                out.write("\n")
                if self.files:
                    path = os.path.join(self.dir, doc_id)
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    with open(path, "wb") as f:
                        f.write(encoded)
        manifest = {
            "corpus": self.name,
            "built": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "documents": len(self.docs),
            "bytes": total,
            "kinds": dict(sorted(kinds.items())),
            "left_out": dict(sorted(self.skipped.items())),
            **manifest,
        }
        with open(os.path.join(self.dir, "manifest.json"), "w", encoding="utf-8") as f:
            json.dump(manifest, f, indent=2, ensure_ascii=False)
            f.write("\n")
        log(f"{self.name}: {len(self.docs)} documents, {total / 1e6:.1f} MB -> {self.dir}")


def read_list(path):
    with open(path, encoding="utf-8") as f:
        return [l.strip() for l in f if l.strip() and not l.startswith("#")]


# ---------------------------------------------------------------- Debian


def apt_download(packages, cache):
    """Downloads the .deb of each package not yet in the cache; returns
    {package: path} and the packages apt could not fetch."""
    os.makedirs(cache, exist_ok=True)

    def cached():
        found = {}
        for name in os.listdir(cache):
            if name.endswith(".deb"):
                found[name.split("_", 1)[0]] = os.path.join(cache, name)
        return found

    have = cached()
    missing = [p for p in packages if p not in have]
    failed = []
    for i in range(0, len(missing), 100):
        batch = missing[i : i + 100]
        log(f"apt-get download: {i + len(batch)} of {len(missing)}")
        r = subprocess.run(["apt-get", "download", "-q", *batch], cwd=cache,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            # One unknown package fails the whole batch: retry one by one.
            for p in batch:
                r = subprocess.run(["apt-get", "download", "-q", p], cwd=cache,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                if r.returncode != 0:
                    failed.append(p)
                    log(f"apt-get download {p} failed: {r.stderr.strip().splitlines()[-1:]}")
    have = cached()
    return {p: have[p] for p in packages if p in have}, failed


def deb_field(deb, *fields):
    r = subprocess.run(["dpkg-deb", "-f", deb, *fields], check=True,
                       stdout=subprocess.PIPE, text=True)
    out = {}
    for line in r.stdout.splitlines():
        if ":" in line and not line[0].isspace():
            k, v = line.split(":", 1)
            out[k] = v.strip()
    return out


def unpack_deb(deb):
    """The documentation files of one .deb: [(path, bytes)], with .gz
    decompressed; plus the reasons for what was left out. Reads the
    package's file system as a stream (`dpkg-deb --fsys-tarfile`): nothing
    is written to disk, nothing is installed."""
    files, skipped = [], []
    proc = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", deb], stdout=subprocess.PIPE)
    with tarfile.open(fileobj=proc.stdout, mode="r|") as tar:
        for member in tar:
            rel = member.name[2:] if member.name.startswith("./") else member.name
            top = next((t for t in ("usr/share/doc/", "usr/share/man/") if rel.startswith(t)), None)
            if top is None or member.isdir():
                continue
            name = os.path.basename(rel)
            if any(part.startswith(".") for part in rel.split("/")):
                skipped.append("hidden")
                continue
            if not member.isfile():
                skipped.append("link")
                continue
            data = tar.extractfile(member).read()
            ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
            if ext == "gz":
                try:
                    data = gzip.decompress(data)
                except (OSError, EOFError):
                    skipped.append("bad_gzip")
                    continue
                rel = rel[:-3]
                base = os.path.basename(rel)
                ext = base.rsplit(".", 1)[-1].lower() if "." in base else ""
            if ext in BINARY_EXT:
                skipped.append("binary_type")
                continue
            if top == "usr/share/man/" and data.startswith(b".so ") and len(data) < 256:
                skipped.append("man_redirect")
                continue
            files.append((rel, data))
    if proc.wait() != 0:
        raise SystemExit(f"dpkg-deb --fsys-tarfile {deb} failed")
    files.sort()
    return files, skipped


def kind_of(rel):
    base = os.path.basename(rel).lower()
    if rel.startswith("usr/share/man/"):
        return "man"
    if base == "copyright":
        return "copyright"
    if base.startswith("changelog"):
        return "changelog"
    if base.startswith("news"):
        return "news"
    if base.startswith("readme"):
        return "readme"
    return "other_doc"


def build_debian(out, want):
    packages = read_list(os.path.join(HERE, "debian-packages.txt"))
    debs, failed = apt_download(packages, os.path.join(out, "cache", "debs"))
    log(f"reading {len(debs)} packages")

    def one(item):
        package, deb = item
        info = deb_field(deb, "Package", "Version", "Source", "Section")
        files, skipped = unpack_deb(deb)
        return package, deb, info, files, skipped

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(one, sorted(debs.items())))
    log("read; writing the corpora")
    docs = Corpus(out, "debian-docs")
    copyright = Corpus(out, "debian-copyright")
    sources = []
    no_copyright = []
    for package, deb, info, files, skipped in results:
        sources.append({
            "package": package,
            "version": info.get("Version", ""),
            "source": info.get("Source", package).split(" ")[0],
            "section": info.get("Section", ""),
            "deb": os.path.basename(deb),
            "sha256": sha256_file(deb),
        })
        for reason in skipped:
            docs.skip(reason)
        own = f"usr/share/doc/{package}/copyright"
        found_own = False
        for rel, data in files:
            docs.add(f"{package}/{rel}", data, kind_of(rel))
            if rel == own:
                found_own = copyright.add(f"{package}/copyright", data, "copyright")
        if not found_own:
            no_copyright.append(package)
            copyright.skip("no_own_copyright_file")
    common = {
        "source": "Debian packages (apt-get download, dpkg-deb -x)",
        "package_list": "benches/real/debian-packages.txt",
        "packages": len(sources),
        "packages_not_downloaded": failed,
        "apt_sources": apt_sources(),
        "max_document_bytes": MAX_BYTES,
    }
    if "debian-docs" in want:
        docs.write({**common, "members": "/usr/share/doc/** and /usr/share/man/** of each package",
                    "package_versions": sources})
    if "debian-copyright" in want:
        copyright.write({**common, "members": "/usr/share/doc/PKG/copyright of each package",
                         "packages_without_own_copyright": no_copyright,
                         "package_versions": sources})


def apt_sources():
    r = subprocess.run(["apt-get", "indextargets", "--format",
                        "$(SITE) $(RELEASE) $(COMPONENT) $(ARCHITECTURE)", "Identifier: Packages"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return sorted(set(r.stdout.split("\n")) - {""})


# ---------------------------------------------------------------- PyPI


def pip_download(spec, cache):
    name, version = spec.split("==")
    os.makedirs(cache, exist_ok=True)
    norm = re.sub(r"[-_.]+", "_", name).lower()

    def find():
        for f in os.listdir(cache):
            stem = re.sub(r"[-_.]+", "_", f).lower()
            if stem.startswith(f"{norm}_{version.replace('.', '_')}_") and \
                    (f.endswith(".tar.gz") or f.endswith(".zip")):
                return os.path.join(cache, f)
        return None

    found = find()
    if found:
        return found
    log(f"pip download {spec}")
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                    "--no-binary", name, "--dest", cache, spec], check=True)
    found = find()
    if not found:
        raise SystemExit(f"pip download {spec}: no sdist in {cache}")
    return found


def sdist_members(path):
    """(path, bytes) of every regular file of an sdist, sorted by path;
    None for links."""
    members = []
    if path.endswith(".zip"):
        with zipfile.ZipFile(path) as z:
            for info in z.infolist():
                if not info.is_dir():
                    members.append((info.filename, z.read(info)))
    else:
        # In archive order: seeking back in a compressed stream is slow.
        with tarfile.open(path, mode="r|*") as t:
            for m in t:
                if m.isfile():
                    members.append((m.name, t.extractfile(m).read()))
                elif not m.isdir():
                    members.append((m.name, None))
    members.sort(key=lambda m: m[0])
    return members


def build_pypi(out):
    corpus = Corpus(out, "pypi-releases")
    releases = []
    for spec in read_list(os.path.join(HERE, "pypi-releases.txt")):
        sdist = pip_download(spec, os.path.join(out, "cache", "pypi"))
        kept = 0
        for name, data in sdist_members(sdist):
            parts = name.split("/")
            if data is None:
                corpus.skip("symlink")
                continue
            if any(p.startswith(".") for p in parts):
                corpus.skip("hidden")
                continue
            base = parts[-1]
            ext = base.rsplit(".", 1)[-1].lower() if "." in base else ""
            if ext and ext not in PYPI_TEXT:
                corpus.skip("not_text_type")
                continue
            kept += corpus.add(name, data, ext or "no_extension")
        releases.append({"release": spec, "sdist": os.path.basename(sdist),
                         "sha256": sha256_file(sdist), "documents": kept})
    corpus.write({
        "source": "PyPI sdists (pip download --no-deps --no-binary NAME)",
        "release_list": "benches/real/pypi-releases.txt",
        "releases": releases,
        "extensions_kept": sorted(PYPI_TEXT) + ["(none)"],
        "max_document_bytes": MAX_BYTES,
    })


# ---------------------------------------------------------------- Debian Packages index


def build_short_records(out):
    r = subprocess.run(["apt-get", "indextargets", "--format",
                        "$(FILENAME)\t$(SITE)\t$(CODENAME)\t$(COMPONENT)\t$(ARCHITECTURE)",
                        "Identifier: Packages"], check=True, stdout=subprocess.PIPE, text=True)
    targets = [l.split("\t") for l in r.stdout.splitlines() if l]
    # The release's own main index: not -updates or -security, which only
    # repeat packages with newer versions.
    main = [t for t in targets if t[3] == "main" and t[2] in ("bookworm",)
            and "debian.org" in t[1] and "security" not in t[1]
            and "updates" not in os.path.basename(t[0])]
    if len(main) != 1:
        raise SystemExit("short-records: no Debian bookworm main Packages index; "
                         f"run `apt-get update` (index targets: {targets})")
    filename, site, codename, component, arch = main[0]
    data = subprocess.run(["/usr/lib/apt/apt-helper", "cat-file", filename], check=True,
                          stdout=subprocess.PIPE).stdout
    corpus = Corpus(out, "short-records", files=False)
    # Package name, source package, first line of the description.
    entries = []
    for block in data.decode("utf-8", errors="replace").split("\n\n"):
        fields = {}
        for line in block.split("\n"):
            if line and not line[0].isspace() and ":" in line:
                key, value = line.split(":", 1)
                fields[key] = value.strip()
        if "Package" in fields and "Description" in fields:
            source = fields.get("Source", fields["Package"]).split(" ")[0]
            entries.append((fields["Package"], source, fields["Description"]))
    entries.sort()
    per_source = {}
    for package, source, description in entries:
        # A few sources build hundreds of packages with templated
        # descriptions (the GCC cross compilers: "GNU C compiler for the
        # mips64el architecture", ...): their cliques would outweigh the rest.
        per_source[source] = per_source.get(source, 0) + 1
        if per_source[source] > PER_SOURCE:
            corpus.skip(f"beyond_{PER_SOURCE}_per_source")
            continue
        corpus.add(package, description.encode("utf-8"))
    corpus.write({
        "source": "the first line of each Description: field of Debian's Packages index, "
                  f"at most {PER_SOURCE} packages per source package (the first by name)",
        "index": f"{site} {codename} {component} {arch}",
        "index_sha256": hashlib.sha256(data).hexdigest(),
        "index_packages": len(entries),
        "id": "package name",
    })


def build_mixed(out):
    corpus = Corpus(out, "mixed")
    for name in ("debian-docs", "pypi-releases"):
        path = os.path.join(out, name, "corpus.jsonl")
        if not os.path.exists(path):
            sys.exit(f"build-corpora: {path} is missing: build {name} first")
        with open(path, encoding="utf-8") as f:
            for line in f:
                doc = json.loads(line)
                corpus.docs[doc["id"]] = (doc["text"], name)
    man = "/usr/share/man"
    for root, dirs, files in os.walk(man):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            if os.path.islink(path) or not os.path.isfile(path):
                corpus.skip("link")
                continue
            with open(path, "rb") as f:
                data = f.read()
            if name.endswith(".gz"):
                try:
                    data = gzip.decompress(data)
                except (OSError, EOFError):
                    corpus.skip("bad_gzip")
                    continue
                name = name[:-3]
            if data.startswith(b".so ") and len(data) < 256:
                corpus.skip("man_redirect")
                continue
            rel = os.path.join("man", os.path.relpath(root, man), name)
            corpus.add(rel, data, kind="man")
    corpus.write({
        "source": "debian-docs and pypi-releases (as built), and this machine's /usr/share/man",
    })


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default="target/real", help="output folder (default target/real)")
    p.add_argument("--only", default=",".join(CORPORA),
                   help=f"corpora to build, comma-separated (default: {','.join(CORPORA)})")
    args = p.parse_args()
    want = set(args.only.split(","))
    unknown = want - set(CORPORA)
    if unknown:
        p.error(f"unknown corpus {sorted(unknown)}; known: {', '.join(CORPORA)}")
    if want & {"debian-docs", "debian-copyright"}:
        build_debian(args.out, want)
    if "pypi-releases" in want:
        build_pypi(args.out)
    if "short-records" in want:
        build_short_records(args.out)
    if "mixed" in want:
        build_mixed(args.out)
    log("done")


if __name__ == "__main__":
    main()
