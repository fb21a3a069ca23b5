"""What later history overtook: an entry a newer entry on the same subject replaces.

A changelog and a commit log are histories; only the newest word on a subject is still true.
Pure rules over (order, text) pairs, the larger order the newer:
- the supported runtime: "Drop support for Python 3.6" is overtaken by a later drop of 3.7
  (the floor moved), whatever runtime it names ("nodejs 8", or a bare "2.5");
- a default of the same name, the build backend: the newest change is the one that holds;
- a replacement replaced: "use X instead of Y" is overtaken by a later "use Z instead of X";
- a deprecation overtaken by the removal of what it deprecated (a later entry naming the same
  identifier that removes it, or says it is "not accepted anymore"; for a deprecation naming
  no code, a later removal sharing two of its longer words); a later entry no rule keeps
  counts for this one only;
- a notice of a change "in 19.1.0" once 19.1.0 is out;
- a removal a later entry undoes ("Add `Enum` field"), a `Revert "X"` a later entry does
  again, a default a later entry sets anew on the same subject (two longer words shared).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

Order = tuple[int, ...]
UNRELEASED: Order = (10**9,)

_NUMBER = r"v?\d+(?:\.\d+)*(?:\.x)?"
_SUPPORT_WORDS = re.compile(r"\bsupport|\brequire|\bminimum\b|\bfloor\b"
                            r"|\b(?:has been|have been|is|are|was|were) dropped\b", re.I)
_SUPPORT_STEM = re.compile(r"(?:support|require|minimum|floor|dropped)", re.I)
_NEAR = 4  # words between a support word and the runtime it moves
_NOT_NAMES = {"for", "and", "or", "of", "support", "supports", "version", "versions", "to",
              "than", "from", "drop", "dropped", "drops", "remove", "removed", "on", "with",
              "in", "the", "added", "add", "least", "is", "are", "now", "requires", "require"}
_DEFAULT = re.compile(r"\bdefault (?:value )?(?:of |for )?(?P<name>`[^`]+`|[a-z][\w -]{2,40}?)"
                      r"\s+(?:from|to|back|is|are|now|changed|has|was|will)\b", re.I)
_BUILD = re.compile(r"\bbuild[- ](?:backend|system)\b", re.I)
_CHOSEN = re.compile(r"^(?:use[sd]?|switch(?:ed|es)? to|migrat(?:e|ed|es) to|move[sd]? to"
                     r"|adopt(?:s|ed)?|prefer(?:s|red)?)\s+(?P<what>.+?)"
                     r"(?:\s+(?:instead of|rather than|over|for|as|in|to|with|because|so)\b|$)"
                     r"|^replace[sd]? .+? with (?P<with>.+?)(?:\s+(?:for|as|in|to|because)\b|$)",
                     re.I)
_REPLACED = re.compile(r"\b(?:instead of|rather than|from)\s+(?P<a>`[^`]+`|[\w.-]+)"
                       r"|^replace[sd]?\s+(?:uses? of\s+)?(?P<b>`[^`]+`|[\w.-]+)", re.I)
_CODE = re.compile(r"`([^`]+)`")
_IDENT = re.compile(r"[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*")
_CLI_OPTION = re.compile(r"--?[A-Za-z][\w-]*")
# a command and its subcommand, named whole: `pipx list` is not `pipx reset`
_COMMAND = re.compile(r"[a-z][\w-]* [a-z][\w-]*")
_ANNOUNCED = re.compile(rf"\b(?:will|to) (?:be )?(?:\w+ )?(?:changed?|removed|dropped|renamed"
                        rf"|replaced|deleted|become|switch\w*|default\w*)\b[^.]*?\bin "
                        rf"(?:version |release |\w+ )?(?P<v>{_NUMBER})"
                        rf"|\b(?:will|to) (?:\w+ ){{0,5}}until (?:version |release )?"
                        rf"(?P<u>{_NUMBER})", re.I)
_REMOVAL = re.compile(r"\bremov|\bdrop|\bdelet|\banymore\b|\bno longer\b", re.I)
# What says a thing is gone, not that it behaves otherwise ("`X` does not warn anymore",
# "`X` no longer uses exceptions" leave X in place).
_GONE = re.compile(r"\bremov|\bdrop|\bdelet|\b(?:no longer|not|n't) (?:be |been )?(?:supported"
                   r"|available|accepted|allowed|possible|exported|provided|included|present"
                   r"|exists?|part of|importable|public)\b", re.I)
# A deprecation told as history: "This has been deprecated since 18.2.0 and …" in an entry
# about what came of it.
# ("… has been deprecated in favor of …" is a deprecation made now, not one over.)
_WAS_DEPRECATED = re.compile(r"\b(?:has|have|had) been deprecated (?:since|in(?! favou?r)|for)\b"
                             r"|\bwas deprecated (?:since|in(?! favou?r))\b"
                             r"|\b(?:previously|formerly)"
                             r" deprecated\b", re.I)
# The thing a part belongs to is not what is removed or deprecated: "the `no_etag` parameter
# of `Response.freeze`", "the *hash* argument to `@define` / `@attr.s`", "… from `Y`".
_CONTAINER = re.compile(r"\b(?:(?:parameter|argument|option|attribute|method|field|key|flag"
                        r"|keyword|member)s?\s+(?:of|to|on|in|for)|from)\s+(?:the\s+)?"
                        r"`[^`]+`(?:\s*/\s*`[^`]+`)*", re.I)
# "Add `env` to `Jinja2Templates`, and deprecate `env_options`": what follows the verb.
_VERB_DEPRECATES = re.compile(r"\bdeprecat(?:e|es|ed|ing)\b(?=\s+(?:the\s+)?`)", re.I)
_SOFT = re.compile(r"\bsoft[- ]deprecat|\b(?:no|not|n't) (?:\w+ )?(?:plans?|intend\w*"
                   r"|intention) to remove\b|\bpending deprecation\b", re.I)


def without_containers(text: str) -> str:
    """`text` less the things its parts belong to ("the `_bind` method of `Field`")."""
    return _CONTAINER.sub("", text)


def historical(sentence: str) -> bool:
    """`sentence` tells of a deprecation that is over ("has been deprecated since 18.2.0")."""
    return bool(_WAS_DEPRECATED.search(sentence)) and not _PROMISED.search(sentence)


def soft(text: str) -> bool:
    """A deprecation with no warning and no removal planned ("only soft-deprecate X")."""
    return bool(_SOFT.search(text))
_DEPRECATED = re.compile(r"\bdeprecat", re.I)
# A removal only announced ("… and will be removed in 2024") removes nothing yet.
_PROMISED = re.compile(r"\b(?:will|to|may|might|would|shall)\s+(?:\w+\s+){0,2}?(?:be\s+)?"
                       r"(?:remov|drop|delet)\w*|\b(?:pending|future|eventual|upcoming|planned)"
                       r" (?:remov|delet)\w*", re.I)


def order(version: str | None) -> Order:
    """A version as something to compare ("unreleased" is newest of all)."""
    if version is None or version == "unreleased":
        return UNRELEASED
    return tuple(int(n) for n in re.findall(r"\d+", version.split("-")[0])[:4]) or (0,)


def support_subject(text: str) -> str | None:
    """The runtime or dependency whose supported versions `text` moves ("python", "node"),
    "" for a bare version ("Dropped support for 2.5"), None when it is not about that."""
    if not _SUPPORT_WORDS.search(text):
        return None
    words = [w.strip(".") for w in re.findall(r"[\w.+-]+", text)]
    # The support word says the versions of what it stands beside: in "`brotli` and Zstandard
    # support (the `compression.zstd` module on Python 3.14 and higher) are now required"
    # Python's versions are not what moved.
    said = [k for k, w in enumerate(words) if _SUPPORT_STEM.match(w)]
    for k, word in enumerate(words):
        if not re.fullmatch(_NUMBER, word):
            continue
        for at in range(k - 1, max(-1, k - 5), -1):
            low = words[at].lower().strip(".")
            if re.fullmatch(_NUMBER, low) or low in _NOT_NAMES:
                continue
            if low in ("pep", "pr", "issue", "gh", "protocol"):
                break
            if not any(at - _NEAR <= j <= k + _NEAR + 2 for j in said):
                break
            return re.sub(r"\.?js$", "", low) or low
        else:
            return ""
    return None


def default_subject(text: str) -> str | None:
    m = _DEFAULT.search(text)
    return " ".join(m.group("name").strip("`").lower().split()) if m else None


def identifiers(text: str) -> list[str]:
    """Code the text names: backticked spans first, then dotted or underscored words."""
    # a command-line option or a command is named whole: `--skip-maintenance` is not any
    # later "skip", `pipx list` not `pipx reset`
    found = [m.group(0) for span in _CODE.findall(text)
             if (m := _CLI_OPTION.match(span) or _COMMAND.fullmatch(span)
                 or _IDENT.search(span.removeprefix("import ")))]
    found += [w for w in re.findall(r"(?<![`\w])[A-Za-z_]\w*(?:\.\w+)+(?=\(\)|\b)"
                                    r"|(?<![`\w])\w+_\w+(?=\(\)|\b)", _CODE.sub("", text))
              if not re.match(r"^\d", w)]
    return found


def chosen(text: str) -> str | None:
    """What "use X instead of Y" / "switch to X" / "replace Y with X" picks, lower case."""
    m = _CHOSEN.match(text.strip())
    if not m:
        return None
    what = m.group("what") or m.group("with") or ""
    head = re.split(r"\b(?:instead of|rather than)\b", text)[0] if m.group("what") else what
    code = _CODE.search(head)
    word = code.group(1) if code else (what.split() or [""])[0]
    return word.strip(".,;:").removesuffix("()").lower() or None


def replaced(text: str) -> set[str]:
    return {(m.group("a") or m.group("b")).strip("`.,;:").removesuffix("()").lower()
            for m in _REPLACED.finditer(text)}


_EMPHASIS = re.compile(r"(?<![*\w])\*([A-Za-z_]\w*)\*(?![*\w])")
# What stays, after the word that says so ("… both are now aliases for `--fetch-python`").
_FAVOURED = re.compile(r"\b(?:in favou?r of|instead|use|please|replaced by|alias(?:es)? (?:for|of))"
                       r"\b.*", re.I)


def whole_names(text: str) -> set[str]:
    """The code `text` names, each whole and lower case (`Retry.DEFAULT()` is
    `retry.default`)."""
    return {i.removesuffix("()").lower() for i in identifiers(text)}


def _named(text: str) -> set[str]:
    """The code `text` names, whole and by last part, *emphasised* argument names too (a
    dotted deprecated name is matched whole; `attr.attr` is not any later `attr`)."""
    full = whole_names(text)
    return full | {_last(i) for i in full} | {w.lower() for w in _EMPHASIS.findall(text)}


def deprecated_names(text: str) -> set[str]:
    """What a deprecation deprecates: the code named in its "deprecated" sentences, before any
    "in favor of X" / "use X instead" (X is what stays), keyword arguments (`f(old=…)`)
    too. "Removed the deprecated X" is a removal, not a deprecation."""
    said = [_CONTAINER.sub("", _FAVOURED.sub("", _VERB_DEPRECATES.split(s)[-1]))
            for s in re.split(r"(?<=[.!?])\s+", text)
            if _DEPRECATED.search(s) and not _REMOVAL.search(_PROMISED.sub("", s))
            and not historical(s)]
    found = set().union(*map(whole_names, said)) \
        | {k.lower() for s in said for k in re.findall(r"`[^`]*?\((\w+)=", s)} \
        | {w.lower() for s in said for w in _EMPHASIS.findall(s)}
    if said and not found:  # "`a` is renamed to `b`. The old name is deprecated."
        old = re.sub(r"\b(?:renamed|moved|changed) to\b.*", "", _FAVOURED.sub("", text),
                     flags=re.I)
        found = whole_names(old)
    return found


_PLAIN_WORDS = {"depre", "remov", "suppo", "versi", "futur", "relea", "argum", "pleas", "inste",
                "warni", "pytho", "which", "there", "their", "about", "other", "would", "could",
                "alway", "never", "still", "being", "these", "those", "since", "until", "after",
                "longe", "follo"}
# A deprecation named as the history of a removal: "…, deprecated in Scrapy 2.13.0, is
# removed", "(deprecated since 2.1)".
_DEPRECATED_IN = re.compile(r"[,(]\s*deprecated (?:in|since) (?:[A-Za-z][\w-]* )?v?\d", re.I)


# Code written without backticks (a Sphinx role's target, "scrapy.spiderloader.SpiderLoader").
_DOTTED = re.compile(r"\b\w+(?:\.\w+)+\b")


def _stems(text: str) -> set[str]:
    """The longer words of `text` by their first five letters ("comparing" ~ "comparable"),
    code left out."""
    prose = _DOTTED.sub(" ", _CODE.sub(" ", text))
    return {w[:5].lower() for w in re.findall(r"[A-Za-z]{5,}", prose)} - _PLAIN_WORDS


def _behaviour_stems(text: str) -> set[str] | None:
    """For a deprecation naming no code ("comparing subclasses using `<` is deprecated"), the
    stems of its deprecating sentence: a later entry sharing two of them that says a thing is
    gone ends it. None for any other entry, and for a deprecation told as history
    ("`start_requests()`, deprecated in 2.13.0, is removed") or naming code anywhere (names in
    a list after a colon too)."""
    said = [s for s in re.split(r"(?<=[.!?])\s+", text)
            if _DEPRECATED.search(s) and not _DEPRECATED_IN.search(s)]
    return _stems(said[0]) if said and not _named(text) else None


_REVERT = re.compile(r"^revert(?:s|ed)?\s+[\"“'`](.+?)[\"”'`]", re.I)
# A newer entry that undoes an older one's change on the same code: "`/-/plugins.json` once
# again returns a top-level JSON array, reverting the object envelope introduced in 1.0a36".
_UNDOES = re.compile(r"\bonce again\b|\breverting\b|\breverts (?:the|a|an|its)\b"
                     r"|\b(?:goes|went|is|are) back to\b", re.I)
# A later entry that brings a removed name back ("Add `Enum` field" after "Remove `Enum`").
_ADDS = re.compile(r"^(?:add(?:s|ed)?|(?:re-?)?introduc\w+|restor\w+|bring\w* back)\b", re.I)
# An entry that sets a default anew (the words of `changelogs`' "default" rule).
_NEW_DEFAULT = re.compile(r"\bchange[sd]? (?:the )?default\b"
                          r"|\bdefault\b[^.]{0,60}\b(?:is|are) now\b|\bnow defaults? to\b"
                          r"|\bdefaults? (?:changed|is changed)\b"
                          r"|\bdefault\b[^.]{0,60}\bfrom\b[^.]{1,40}\bto\b|\bnow\b[^.]{0,40}"
                          r"\bby default\b|\bby default (?:now|instead of)\b", re.I)
_DEFAULT_WORD = re.compile(r"\bdefaults?\b", re.I)
_NOT_SUBJECT = {"defau", "longe", "chang", "value", "using", "instead", "explic", "set",
                "enabl", "disab", "optio", "param", "argum", "setti"}


def defaulted_names(text: str) -> set[str]:
    """The code named in `text`'s sentences about a default ("`send_bytes`"), lower case."""
    said = [s for s in re.split(r"(?<=[.!?])\s+", text) if _DEFAULT_WORD.search(s)]
    return set().union(*map(whole_names, said))


def default_words(text: str) -> set[str]:
    """What `text` says the default of is, by the longer words (code split into words) of
    its sentences about a default: "Schema output is no longer an `OrderedDict` by default"
    and, later, "Schemas are now ordered by default" share "schem" and "order"."""
    said = " ".join(s for s in re.split(r"(?<=[.!?])\s+", text) if _DEFAULT_WORD.search(s))
    said = re.sub(r"([a-z])([A-Z])", r"\1 \2", said.replace("`", " ").replace("_", " "))
    return {w[:5].lower() for w in re.findall(r"[A-Za-z]{5,}", said)} - _PLAIN_WORDS \
        - _NOT_SUBJECT


def _sentences(text: str) -> list[str]:
    """Sentences, the "; "-joined nested bullets of an entry and the clauses after "but",
    "although" (what they say stays), each on its own."""
    return [s for s in re.split(r"(?<=[.!?])\s+|;\s+|,?\s+(?:although|though|but|while"
                                r"|whereas)\s+", text) if s.strip()]


# A name doing the removing is no removed name: "`DownloaderAwarePriorityQueue` now removes
# the directory of a drained slot" leaves the queue in place.
_REMOVES = re.compile(r"\b(?:removes|drops|deletes)\b", re.I)


# What a name drops that is no code: "`HttpCompressionMiddleware` now logs a warning when it
# drops a response for exceeding `DOWNLOAD_MAXSIZE`" drops a response, not the setting.
_THING_DROPPED = re.compile(r"\s*(?:a|an|the|any|its|their|some)\s+(?!support\b|deprecated\b"
                            r"|old\b|previously\b|legacy\b|obsolete\b)[a-z]+\b(?![\s.]*`|\.\w)")


def removed_names(text: str) -> set[str]:
    """The code `text` says is gone: named in a sentence that removes (not one that only
    announces a removal), before any "use X instead" (X is what stays), and after the verb
    when something named removes it ("`X` now removes `Y`")."""
    return {n for s in _sentences(text) if _GONE.search(_PROMISED.sub("", s))
            and not (_REMOVES.search(s) and _THING_DROPPED.match(_REMOVES.split(s, 1)[-1]))
            for n in _named(_CONTAINER.sub("", _FAVOURED.sub("", _REMOVES.split(s, 1)[-1])))}


def live_names(text: str) -> set[str]:
    """The code `text` relies on being there: named outside its own removal sentences and
    outside "instead of Y" / "from Y to" / "replaces Y" (Y is the old name)."""
    out: set[str] = set()
    for s in _sentences(text):
        if _REMOVAL.search(_PROMISED.sub("", s)):
            continue
        s = re.sub(r"\b(?:instead of|rather than|replaces?)\b.*", "", s, flags=re.I)
        s = re.sub(r"\bfrom\s+`[^`]+`(?=\s+to\b)", "", s, flags=re.I)
        s = re.sub(r"\brename[sd]?\s+(?:the\s+)?`[^`]+`|`[^`]+`(?:\s+\w+)?\s+(?:is|are|was|were"
                   r"|has been|have been) (?:renamed|replaced)\b", "", s, flags=re.I)  # the old
        # name ("`fetch_missing_python: bool` is replaced by `fetch_python`")
        out |= whole_names(s)
    return out


def _last(name: str) -> str:
    return name.removesuffix("()").rsplit(".", 1)[-1].lower()


def overtaken(items: Sequence[tuple[Order, str, str | None]]) -> set[int]:
    """Indices of the items (order, plain text, rule) a newer item overtakes."""
    released = [o for o, _, _ in items if o != UNRELEASED]
    newest = max(released, default=None)
    subjects = [support_subject(text) for _, text, _ in items]
    named = [s for s in subjects if s]
    # A bare version ("Dropped support for 2.5") is about the runtime the file names most.
    usual = max(set(named), key=named.count) if named else ""
    facts = [(o, text, rule, usual if subjects[k] == "" else subjects[k], default_subject(text),
              bool(_BUILD.search(text)), chosen(text), replaced(text),
              _named(text)) for k, (o, text, rule) in enumerate(items)]
    removals = [removed_names(text) for _, text, _ in items]
    added = [{_last(n) for n in live_names(text)} if _ADDS.match(text) else set()
             for _, text, _ in items]
    defaults = [default_words(text) for _, text, _ in items]
    new_default = [bool(_NEW_DEFAULT.search(text)) for _, text, _ in items]
    default_names = [defaulted_names(text) for _, text, _ in items]
    spelled = [whole_names(text) for _, text, _ in items]
    behaviour = [_behaviour_stems(text) for _, text, _ in items]
    stems = [_stems(text) for _, text, _ in items]
    removing = [bool(_REMOVAL.search(_PROMISED.sub("", text))) for _, text, _ in items]
    removed_last = [{_last(n) for n in names} for names in removals]
    undoing = [bool(_UNDOES.search(text)) for _, text, _ in items]
    out: set[int] = set()
    plain_texts = [" ".join(re.findall(r"\w+", text.lower())) for _, text, _ in items]
    for i, (o, text, _rule, sup, dflt, build, pick, _, _) in enumerate(facts):
        undone = _REVERT.match(text)  # 'Revert "Add X"', and a later entry adds X again
        if undone and any(o2 > o and " ".join(re.findall(r"\w+", undone[1].lower())) in t2
                          for (o2, _, _), t2 in zip(items, plain_texts, strict=True)):
            out.add(i)
            continue
        notice = _ANNOUNCED.search(text)
        due = notice and (notice.group("v") or notice.group("u"))
        if due and newest is not None and order(due) <= newest and o < order(due):
            out.add(i)
            continue
        deprecated = deprecated_names(text)
        live = {_last(n) for n in live_names(text) | deprecated}
        gone = {n for n in removals[i] if "." not in n} if _rule == "removal" else set()
        for j, (o2, _text2, rule2, sup2, dflt2, build2, _pick2, gone2, names2) in \
                enumerate(facts):
            if o2 <= o:
                continue
            if rule2 is None:  # an entry no rule keeps only removes what was deprecated
                sup2, dflt2, build2, gone2 = None, None, False, set()
            if (sup is not None and sup == sup2) \
                    or (dflt and dflt == dflt2) or (build and build2) \
                    or (pick and pick in gone2) \
                    or ((deprecated & names2 or behaviour[i] is not None
                         and len(behaviour[i] & stems[j]) >= 2) and removing[j]) \
                    or live & removed_last[j] \
                    or gone & added[j] \
                    or (new_default[j] and (len(defaults[i] & defaults[j]) >= 2
                                            or default_names[i] & default_names[j])) \
                    or undoing[j] and spelled[i] & spelled[j]:
                out.add(i)
                break
    return out
