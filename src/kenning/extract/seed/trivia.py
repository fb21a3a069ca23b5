"""Release trivia: changelog entries that are true but no fact a reader needs at HEAD.

Read on the blind verdicts (SPLITS.md, issue 19's sixteenth pass): a judge keeps what a
newcomer would act on and drops what only records that a release happened.
- A removal of names only ("Removed deprecated `Retry` options `method_whitelist`", "The
  deprecated `proxies` argument has now been removed", "Removed default value of `None` for
  the `request_context` parameter"), with no replacement said: HEAD's code simply lacks them.
  A removal that names a replacement ("in favor of", "use … instead", "now determined by"),
  or takes away behaviour or support ("Removed fallback on certificate `commonName`",
  "Removed support for …"), or a dependency, stays.
- A point release's fix: a x.y.z release (z > 0) is fixes by convention; what it removes or
  breaks is a bug fixed ("Removes "!" from the unreserved characters in IPv6 Zone ID
  parsing"), unless it is about support, a dependency, a deprecation, security or the
  distribution. So is fix wording in any release ("working around a bug", "Removed the empty
  line printed in jupyter", "should have no effect on users").
- A signature detail from past the window ("Enforced keyword args in Console / Text
  interfaces"): the signature at HEAD is the fact.
- A rename to a private name ("Renames `format_full_version` to `_format_full_version`").
- One change said twice: two entries naming the same two or more names ("Replaces
  `missing`/`default` … with `load_default`/`dump_default`" and "The use of `missing`/`default`
  … is deprecated … `load_default`/`dump_default` should be used instead").
"""

from __future__ import annotations

import re

from kenning.extract.seed.later import identifiers, order
from kenning.extract.seed.model import sentences

_CODE_SPAN = re.compile(r"`[^`]*`")
# A removal said verb first ("Removed …", "Drops …") or of its subject ("`x` has been removed").
_VERB_FIRST = re.compile(r"^\W*(?:remove[sd]?|drop(?:s|ped)?|delete[sd]?)\s+", re.I)
_PASSIVE = re.compile(r"\s+(?:has|have|is|are|was|were)\s+(?:now\s+)?(?:been\s+)?"
                      r"(?:removed|dropped|deleted)\b", re.I)
# Where the removed thing's own words end: "… from `HTTPConnectionPool`", "…, which was".
_OBJECT_END = re.compile(r"\s(?:from|in|on|since|because|as|which|that|so)\s|[,;:(]\s*(?:which"
                         r"|since|because|as|a|an|the)\b|[;:.(]|\s[-–—]\s", re.I)
# Words that only say what kind of name it is, or that it was deprecated. (An "import proxy"
# removed from a module is a move: where the name is imported from, which users must change.)
_NAME_WORDS = frozenset("""
    a an the and or its their some all of for to deprecated previously previous long
    long-deprecated temporary old legacy obsolete unused undocumented public
    parameter parameters argument arguments arg args kwarg kwargs keyword option options flag
    flags switch switches setting settings method methods function functions attribute
    attributes property properties class classes module modules submodule alias aliases
    constant constants field fields name names shim shims
    helper helpers hook hooks type types code api apis entry point points decorator
    decorators default value values variable variables command commands subcommand
    subcommands key keys member members enum exception exceptions object objects
""".split())
# What tells the reader what to do or what holds instead.
_REPLACEMENT = re.compile(r"\bin favou?r of\b|\binstead\b|\breplace[sd]?\b|\breplaced (?:by|with)"
                          r"\b|\buses?\b|\bnow\b|\b(?:can|may|should) (?:now |currently |still"
                          r" |also )?be\b|\balready\b|\balways\b|\bmigrat\w*|\bswitch\w* to\b"
                          r"|\bhandled by\b|\bdetermined (?:by|from)\b|\bsee\b|\bvia\b", re.I)
# What a removal of a name may take away besides code: a dependency, an extra, support.
_NOT_CODE = re.compile(r"\bdependenc|\brequirements?\b|\bextras?\b|\bsupport", re.I)
_SAYS_REMOVED = re.compile(r"\s*(?:has|have|is|are|was|were)\s+(?:now\s+)?(?:been\s+)?"
                           r"(?:removed|dropped|deleted)\b", re.I)


def names_only_removal(text: str) -> bool:
    """A removal whose object is names of the code and no more, with nothing said of what to
    use instead: "Removed deprecated `Retry` options `method_whitelist`,
    `DEFAULT_REDIRECT_HEADERS_BLACKLIST`.", "The deprecated `proxies` argument has now been
    removed." What HEAD lacks needs no fact; what replaces it does ("Removes `soft_unicode`
    … Use `soft_str` instead"), and so does behaviour or support taken away ("Removed
    fallback on certificate `commonName`", "Removed support for SSLv3.0")."""
    headline = sentences(text.strip())[0]
    headline = re.sub(r"^`[^`]+`:\s+", "", headline)  # "`MultiPartParser`: Remove `x`"
    if (m := _VERB_FIRST.match(headline)) is not None:
        removed = headline[m.end():]
    elif (m := _PASSIVE.search(headline)) is not None:
        removed = headline[:m.start()]
    else:
        return False
    removed = _CODE_SPAN.sub(" `` ", removed)  # a name's dots end no sentence
    removed = re.sub(r"^(?:\w+\s+){0,2}code:\s*", "", removed.strip())  # "deprecated code: `x`"
    removed = _OBJECT_END.split(removed, maxsplit=1)[0]
    if _NOT_CODE.search(headline):
        return False  # "Removed `typing_extensions` from runtime dependencies"
    if "``" not in removed:
        return False  # "the empty line printed in jupyter": no name, said otherwise
    words = re.findall(r"[\w'-]+", removed.replace("``", " ").lower())
    if any(w not in _NAME_WORDS for w in words):
        return False  # "support for …", "the list of default ciphers", "fallback on …"
    rest = _SAYS_REMOVED.sub("", text)
    return not _REPLACEMENT.search(rest)


# Fix wording in a release of any kind: a work-around, unwanted output taken away, a change
# "users should not notice".
FIX_WORDING = re.compile(
    r"\bwork(?:s|ing|ed)? around (?:a |the |an )?(?:\w+ )?(?:bug|issue|problem)\b"
    r"|^\W*remov\w* (?:the |an? )?(?:extra|empty|blank|spurious|duplicated?|unwanted"
    r"|trailing|double)\b"
    # the project's own stopgap taken out: "Removes workaround for OpenSSL 1.1.1 DTLS bug"
    r"|^\W*remov\w* (?:the |an? |our )?(?:[\w.-]+ ){0,2}work-?arounds?\b"
    r"|\b(?:should|will|does|would) (?:have )?no (?:effect|impact) on (?:users|anyone)\b"
    r"|\bno user[- ]visible\b|\b(?:several|various|minor|some|related) fix(?:es)?\b"
    r"|-related fix(?:es)?\b", re.I)
# What a point release may still say that outlives it: support dropped, a dependency, what it
# now refuses for security, what distributors must know.
_LASTING = re.compile(r"\b(?:drop|remov|end)\w* support (?:for|of)\b|\bsupport (?:for|of) (?:Python"
                      r"|PyPy)\b|\bno longer supported\b|\bdepend\w*|\brequire\w*|\bsecur\w*"
                      r"|\bvulnerab\w*|\bCVE\b|\bsmuggl\w*|\bdesync\w*|\battack\w*|\binjection"
                      r"|\bdistribut\w*|\bpackag\w*|\bbuild\b|\bdefaults?\b", re.I)


def point_release(version: str | None) -> bool:
    """x.y.z with z > 0 (not a pre-release): a release of fixes by convention."""
    parts = order(version)
    return version is not None and len(parts) >= 3 and parts[2] > 0 \
        and re.fullmatch(r"v?\d+\.\d+\.\d+", version) is not None


def point_fix(version: str | None, text: str) -> bool:
    """A point release's removal or breaking change that is a bug fixed, not a lasting
    change: "urllib3 1.26.15: Removes "!" character from the unreserved characters in IPv6
    Zone ID parsing"."""
    return point_release(version) and not _LASTING.search(text)


# A signature detail: what arguments are keyword-only or positional, their order.
_SIGNATURE = re.compile(r"\bkeyword[- ](?:only )?arg(?:ument)?s?\b|\bpositional(?:[- ]only)?"
                        r"\b|\bsignatures?\b|\bargument order\b|\border of (?:the )?arguments\b",
                        re.I)


def signature_detail(headline: str) -> bool:
    """"Enforced keyword args in Console / Text interfaces": how the code is called, which
    HEAD's signatures say; news in its release, not a fact years later."""
    return bool(_SIGNATURE.search(headline))


def private_rename(text: str) -> bool:
    """A rename to a private name ("Renames `format_full_version` to `_format_full_version`
    to make it visibly private"): the project's insides."""
    m = re.search(r"\b(?:to|as)\s+`(?P<new>[^`]+)`", text)
    new = m["new"].removesuffix("()").rsplit(".", 1)[-1] if m else ""
    return (new.startswith("_") and not new.startswith("__")) \
        or bool(re.search(r"\bmake (?:it|them) (?:\w+ )?private\b", text, re.I))


MAX_BORROWED = 330
BORROWED = "Deprecated in"  # "… (Deprecated in 0.19.1: …)": not the entry's own words
_DEPRECATION_WORD = re.compile(r"\bdeprecat", re.I)
_USE_INSTEAD = re.compile(r"\bin favou?r of\b|\binstead\b|\breplaced (?:by|with)\b|\buse\b", re.I)


def _last_parts(text: str) -> set[str]:
    return {i.removesuffix("()").rsplit(".", 1)[-1].lower() for i in identifiers(text)}


def replacement_said_before(removal: str, older: list[tuple[str, str]]) -> str | None:
    """What an earlier deprecation of the same code said to use instead, as "Deprecated in
    0.19.1: Deprecate
    `WS_1004_NO_STATUS_RCVD` … in favor of `WS_1005_NO_STATUS_RCVD` …": a removal of names
    said with it tells the reader what to do. `older` is (version, entry text), newest first;
    the sentence must deprecate, name what to use and share a removed name."""
    gone = _last_parts(sentences(removal)[0])
    for version, text in older:
        # the entry whole when short ("`app=...` has been deprecated. Use … instead."), else
        # the sentence that says both
        said = [text] if len(text) <= MAX_BORROWED else \
            sentences(text)
        for sentence in said:
            if _DEPRECATION_WORD.search(sentence) and _USE_INSTEAD.search(sentence) \
                    and gone & _last_parts(sentence) and len(sentence) <= MAX_BORROWED:
                return f"{BORROWED} {version}: {sentence.strip()}"
    return None


def names_key(text: str) -> frozenset[str]:
    """The names an entry's own words name (by last part), when two or more: two entries
    naming the same ones say one change twice. What a removal borrowed is not its own."""
    names = _last_parts(text.split(f" ({BORROWED} ")[0])
    return frozenset(names) if len(names) >= 2 else frozenset()
