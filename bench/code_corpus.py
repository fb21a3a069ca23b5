"""Codebases for the code retrieval bench, with their doc comments stripped and kept as queries.

CodeSearchNet style: each documented function's doc comment is removed (replaced by blank
lines, so every line number holds), the first sentence of that comment becomes a query, and
the function's line range in its file is the target. Python docstrings are found with `ast`,
JSDoc `/** */` blocks with tree-sitter; comments that document no function are stripped too.

Sources: installed pure-Python packages; npm packages (JavaScript, or TypeScript sources)
fetched once with `npm pack`, and PyPI
source distributions with `pip download`, into bench/out/ (gitignored), each checked against a
pinned sha256; Rust crates and Go modules as Debian's librust-*-dev and golang-*-dev packages
ship them (their sources under /usr/share/cargo/registry and /usr/share/gocode/src), checked
against a pinned sha256 of their files. A source
distribution or a crate keeps all its files (docs, tests, examples, manifests), so a ranker
must put the documented function above the prose and the tests about it.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import io
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

OUT = Path(__file__).parent / "out"
MAX_QUERIES = 300
SEED = 20240611
MIN_QUERY_WORDS = 3
MIN_LINES = 3  # non-blank lines left in the function once its doc comment is gone


@dataclass(frozen=True)
class Target:
    query: str
    path: str
    start_line: int  # 1-based, inclusive: the function with its decorators
    end_line: int
    name: str


@dataclass
class Codebase:
    name: str
    files: dict[str, str]  # relative path -> stripped text
    targets: list[Target]  # sampled, seeded


class Unavailable(Exception):
    """A codebase that can't be had on this machine (no npm, no network, no package)."""


# ---- first sentence ------------------------------------------------------------------------
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")


def first_sentence(doc: str) -> str:
    """The first sentence of the first paragraph, whitespace collapsed."""
    paragraph = re.split(r"\n\s*\n", doc.strip(), maxsplit=1)[0]
    text = " ".join(paragraph.split())
    end = _SENTENCE_END.search(text)
    return text[: end.end()] if end else text


def _usable(query: str) -> bool:
    return len(re.findall(r"[A-Za-z]{2,}", query)) >= MIN_QUERY_WORDS


# ---- Python --------------------------------------------------------------------------------
def strip_python(text: str, path: str) -> tuple[str, list[Target]]:
    """Docstrings blanked out (a body left empty gets `pass`); targets for documented defs."""
    tree = ast.parse(text)
    lines = text.encode("utf-8").split(b"\n")
    targets: list[Target] = []
    spans = []  # (node owning the docstring, the docstring expression)
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                spans.append((node, body[0]))
    for node, expr in spans:
        first, last = expr.lineno - 1, expr.end_lineno - 1
        prefix = lines[first][: expr.col_offset]
        suffix = lines[last][expr.end_col_offset:]
        alone = len(node.body) == 1 and not isinstance(node, ast.Module)
        filler = b"pass" if alone or prefix.strip() else b""
        lines[first] = (prefix + filler + suffix if first == last else prefix + filler).rstrip()
        for n in range(first + 1, last + 1):
            lines[n] = suffix.rstrip() if n == last and suffix.strip() else b""
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            start = min([d.lineno for d in node.decorator_list] + [node.lineno])
            targets.append(Target(first_sentence(expr.value.value), path, start,
                                  node.end_lineno, node.name))
    stripped = b"\n".join(lines).decode("utf-8")
    ast.parse(stripped)  # the stripped file must still be Python
    return stripped, _with_bodies(targets, stripped)


def python_package(name: str) -> dict[str, str]:
    """An installed package's .py files, keyed `name/relative/path.py`."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise Unavailable(f"python package {name} is not installed")
    root = Path(next(iter(spec.submodule_search_locations)))
    return {f"{name}/{p.relative_to(root).as_posix()}": p.read_text(encoding="utf-8")
            for p in sorted(root.rglob("*.py"))}


# ---- JavaScript ----------------------------------------------------------------------------
_FUNCTIONS = {"function_declaration", "generator_function_declaration", "function_expression",
              "function", "arrow_function", "method_definition", "generator_function"}


_CLASSES = {"class_declaration", "abstract_class_declaration", "class", "interface_declaration"}


def _has_function(node) -> bool:
    if node.type in _FUNCTIONS:
        return True
    return any(_has_function(c) for c in node.named_children)


def jsdoc_text(comment: str) -> str:
    """A `/** ... */` block's description: the lines before the first @tag."""
    body = comment.removeprefix("/**").removesuffix("*/")
    out = []
    for line in body.splitlines():
        line = re.sub(r"^\s*\*?\s?", "", line)
        if line.lstrip().startswith("@"):
            break
        out.append(line)
    return "\n".join(out)


def strip_javascript(text: str, path: str, language: str = "javascript"
                     ) -> tuple[str, list[Target]]:
    """JSDoc blocks blanked out; targets for the ones right above a function."""
    from tree_sitter_language_pack import get_parser

    data = bytearray(text.encode("utf-8"))
    tree = get_parser(language).parse(bytes(data))
    comments = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "comment" and data[node.start_byte:node.start_byte + 3] == b"/**":
            comments.append(node)
        stack.extend(node.children)
    targets = []
    for node in comments:
        owner = node.next_named_sibling
        inner = owner.child_by_field_name("declaration") if owner is not None and \
            owner.type == "export_statement" else owner
        if inner is not None and inner.type in _CLASSES:
            continue  # functions are the targets, not a class around them
        if owner is not None and owner.type != "comment" and _has_function(owner):
            doc = jsdoc_text(data[node.start_byte:node.end_byte].decode("utf-8"))
            name = (inner or owner).child_by_field_name("name")
            targets.append(Target(first_sentence(doc), path, owner.start_point[0] + 1,
                                  owner.end_point[0] + 1,
                                  name.text.decode("utf-8") if name else owner.type))
    for node in sorted(comments, key=lambda n: -n.start_byte):
        span = data[node.start_byte:node.end_byte]
        data[node.start_byte:node.end_byte] = b"\n" * span.count(b"\n")
    stripped = re.sub(r"[ \t]+\n", "\n", data.decode("utf-8"))
    return stripped, _with_bodies(targets, stripped)


def strip_typescript(text: str, path: str) -> tuple[str, list[Target]]:
    """TypeScript's JSDoc blocks blanked out, as `strip_javascript` does for JavaScript."""
    return strip_javascript(text, path, "typescript")


def npm_package(spec: str, sha256: str, exclude: re.Pattern[str],
                suffix: str = ".js") -> dict[str, str]:
    """`npm pack spec` once into bench/out/; the package's `suffix` files not matching
    `exclude`."""
    name, version = spec.rsplit("@", 1)
    tarball = OUT / f"{name}-{version}.tgz"
    if not tarball.exists():
        if shutil.which("npm") is None:
            raise Unavailable("npm is not installed")
        OUT.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(["npm", "pack", spec, "--silent"], cwd=OUT, capture_output=True,
                              text=True, timeout=120)
        if done.returncode != 0 or not tarball.exists():
            raise Unavailable(f"npm pack {spec} failed: {done.stderr.strip()[:200]}")
    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
    if digest != sha256:
        tarball.unlink()
        raise Unavailable(f"{tarball.name}: sha256 {digest} is not the pinned {sha256}")
    files = {}
    with tarfile.open(fileobj=io.BytesIO(tarball.read_bytes())) as tar:
        for member in tar.getmembers():
            rel = member.name.removeprefix("package/")
            if member.isfile() and rel.endswith(suffix) and not exclude.search(rel):
                files[f"{name}/{rel}"] = tar.extractfile(member).read().decode("utf-8")
    return dict(sorted(files.items()))


# ---- Rust ----------------------------------------------------------------------------------
def rust_doc_text(lines: list[str]) -> str:
    """`///` lines' text: the markers and one space after them dropped."""
    return "\n".join(re.sub(r"^\s*///\s?", "", line) for line in lines)


def strip_rust(text: str, path: str) -> tuple[str, list[Target]]:
    """`///` and `//!` doc lines blanked out; targets for the `fn` items `///` documents."""
    from tree_sitter_language_pack import get_parser

    lines = text.split("\n")
    tree = get_parser("rust").parse(text.encode("utf-8"))
    targets = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if node.type != "function_item":
            continue
        first = node
        prev = node.prev_named_sibling
        while prev is not None and prev.type == "attribute_item":
            first, prev = prev, prev.prev_named_sibling
        row = first.start_point[0] - 1
        doc: list[str] = []
        while row >= 0 and lines[row].lstrip().startswith("///"):
            doc.insert(0, lines[row])
            row -= 1
        if doc:
            name = node.child_by_field_name("name")
            targets.append(Target(first_sentence(rust_doc_text(doc)), path,
                                  first.start_point[0] + 1, node.end_point[0] + 1,
                                  name.text.decode("utf-8") if name else "fn"))
    stripped = "\n".join("" if re.match(r"\s*//[/!]", line) else line for line in lines)
    return stripped, _with_bodies(targets, stripped)


# ---- Go ------------------------------------------------------------------------------------
_GO_FUNCTIONS = ("function_declaration", "method_declaration")


def strip_go(text: str, path: str) -> tuple[str, list[Target]]:
    """The `//` comment block right above each top-level declaration blanked out (Go's doc
    comments); targets for the functions and methods such a block documents."""
    from tree_sitter_language_pack import get_parser

    lines = text.split("\n")
    tree = get_parser("go").parse(text.encode("utf-8"))
    targets = []
    blank: set[int] = set()
    for node in tree.root_node.named_children:
        if node.type == "comment":
            continue
        row = node.start_point[0] - 1
        doc: list[str] = []
        while row >= 0 and lines[row].lstrip().startswith("//"):
            doc.insert(0, lines[row])
            blank.add(row)
            row -= 1
        if doc and node.type in _GO_FUNCTIONS:
            name = node.child_by_field_name("name")
            body = "\n".join(re.sub(r"^\s*//\s?", "", line) for line in doc)
            targets.append(Target(first_sentence(body), path, node.start_point[0] + 1,
                                  node.end_point[0] + 1,
                                  name.text.decode("utf-8") if name else "func"))
    stripped = "\n".join("" if n in blank else line for n, line in enumerate(lines))
    return stripped, _with_bodies(targets, stripped)


GOCODE = Path("/usr/share/gocode/src")


def go_module(import_path: str, debian_package: str, sha256: str) -> dict[str, str]:
    """A Go module's text files as Debian's `debian_package` installs them, checksum-pinned."""
    root = GOCODE / import_path
    if not root.is_dir():
        raise Unavailable(f"{root} missing: apt-get install {debian_package}")
    files = _text_files(root, import_path.rsplit("/", 1)[-1])
    digest = tree_digest(files)
    if digest != sha256:
        raise Unavailable(f"{root}: sha256 {digest} is not the pinned {sha256}")
    return files


CARGO_REGISTRY = Path("/usr/share/cargo/registry")


def tree_digest(files: dict[str, str]) -> str:
    """sha256 over the sorted (path, text) pairs of a source tree."""
    digest = hashlib.sha256()
    for rel, text in sorted(files.items()):
        digest.update(rel.encode("utf-8") + b"\0" + text.encode("utf-8") + b"\0")
    return digest.hexdigest()


_TEXT_SUFFIXES = (".rs", ".py", ".js", ".ts", ".md", ".rst", ".txt", ".toml", ".cfg", ".yml",
                  ".yaml", ".json", ".ini", ".in", ".go", ".mod")


def _text_files(root: Path, prefix: str) -> dict[str, str]:
    out = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if p.is_file() and (p.suffix in _TEXT_SUFFIXES or p.name in ("LICENSE", "Makefile")) \
                and not rel.startswith(("debian/", ".")):
            out[f"{prefix}/{rel}"] = p.read_text(encoding="utf-8", errors="replace")
    return out


def cargo_crate(name: str, version: str, debian_package: str, sha256: str) -> dict[str, str]:
    """A crate's text files as Debian's `debian_package` installs them, checksum-pinned."""
    root = CARGO_REGISTRY / f"{name}-{version}"
    if not root.is_dir():
        raise Unavailable(f"{root} missing: apt-get install {debian_package}")
    files = _text_files(root, name)
    digest = tree_digest(files)
    if digest != sha256:
        raise Unavailable(f"{root}: sha256 {digest} is not the pinned {sha256}")
    return files


def pypi_sdist(name: str, version: str, sha256: str) -> dict[str, str]:
    """`pip download` a source distribution once into bench/out/; all its text files."""
    tarball = OUT / f"{name}-{version}.tar.gz"
    if not tarball.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps",
                               "--no-binary", ":all:", f"{name}=={version}", "-d", str(OUT),
                               "-q"], capture_output=True, text=True, timeout=180)
        if done.returncode != 0 or not tarball.exists():
            raise Unavailable(f"pip download {name}=={version} failed: "
                              f"{done.stderr.strip()[-200:]}")
    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
    if digest != sha256:
        tarball.unlink()
        raise Unavailable(f"{tarball.name}: sha256 {digest} is not the pinned {sha256}")
    files = {}
    with tarfile.open(tarball) as tar:
        for member in tar.getmembers():
            rel = member.name.split("/", 1)[-1]
            if member.isfile() and (rel.endswith(_TEXT_SUFFIXES) or rel == "LICENSE.rst") \
                    and not rel.endswith("PKG-INFO"):
                files[f"{name}/{rel}"] = tar.extractfile(member).read().decode("utf-8",
                                                                                "replace")
    return dict(sorted(files.items()))


# ---- assembling ----------------------------------------------------------------------------
def _with_bodies(targets: list[Target], stripped: str) -> list[Target]:
    """Targets with a usable query and some code left (CodeSearchNet drops the tiny ones)."""
    lines = stripped.splitlines()
    return [t for t in targets if _usable(t.query) and
            sum(1 for line in lines[t.start_line - 1:t.end_line] if line.strip()) >= MIN_LINES]


STRIPPERS = {".py": strip_python, ".js": strip_javascript, ".ts": strip_typescript,
             ".rs": strip_rust, ".go": strip_go}
# Queries describe library code: documented tests, examples and benchmarks are no targets.
NOT_TARGETS = re.compile(
    r"(^|/)(tests?|examples?|benches|docs?)/|(^|/)(test_|conftest)|_test\.go$")


def build(name: str, sources: dict[str, str]) -> Codebase:
    """Strip every source file (other files stay as they are); keep queries that name one
    function only; sample them, seeded."""
    files: dict[str, str] = {}
    targets: list[Target] = []
    for path, text in sources.items():
        strip = STRIPPERS.get(os.path.splitext(path)[1])
        if strip is None:
            files[path] = text
            continue
        try:
            files[path], found = strip(text, path)
        except SyntaxError:
            continue  # a file this Python can't parse is left out of the corpus
        targets.extend(t for t in found if not NOT_TARGETS.search(t.path.split("/", 1)[-1]))
    counts: dict[str, int] = {}
    for t in targets:
        counts[t.query.lower()] = counts.get(t.query.lower(), 0) + 1
    unique = [t for t in targets if counts[t.query.lower()] == 1]
    if len(unique) > MAX_QUERIES:
        unique = random.Random(f"{SEED}:{name}").sample(unique, MAX_QUERIES)
    return Codebase(name, files, sorted(unique, key=lambda t: (t.path, t.start_line)))


def write_repo(codebase: Codebase, dest: Path) -> None:
    """The stripped files committed into a fresh git repository at `dest`."""
    for rel, text in codebase.files.items():
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@b"}
    for cmd in (["init", "-q"], ["add", "."], ["commit", "-qm", "corpus"]):
        subprocess.run(["git", *cmd], cwd=dest, check=True, env=env, capture_output=True)
