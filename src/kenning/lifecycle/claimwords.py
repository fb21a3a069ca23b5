"""The words the contradiction rules read (`lifecycle.contradictions`): negation cues and
phrases, antonyms, number words, units and the kinds of value, qualifiers that tell two things
apart, and the crude stemmer they share. Pure data and pure functions, no I/O.
"""

from __future__ import annotations

import re

from kenning.core.textutil import STOPWORDS, strip_suffix

NEG = "\x00neg"  # a strong negation cue
CONTRAST = "\x00contrast"  # "A, not B", "A instead of B": only B is negated
PHRASES = [
    (r"\bno longer\b", NEG), (r"\bnot anymore\b", NEG), (r"\bany ?more\b", ""),
    (r"\binstead of\b", CONTRAST), (r"\brather than\b", CONTRAST),
    (r"\bin place of\b", CONTRAST), (r",\s*not\b", f", {CONTRAST}"),
    (r"\b(prefer\w*\b[^.;:!?,]*?)\bover\b", rf"\1 {CONTRAST}"),
    (r"\bdo not\b", NEG), (r"\bdoes not\b", NEG), (r"\bdid not\b", NEG),
    (r"\bmust not\b", NEG), (r"\bshould not\b", NEG), (r"\bcan not\b", NEG),
    (r"\bturn(?:ed|s|ing)? off\b", "disable"), (r"\bswitch(?:ed|es|ing)? off\b", "disable"),
    (r"\bturn(?:ed|s|ing)? on\b", "enable"), (r"\bswitch(?:ed|es|ing)? on\b", "enable"),
    (r"\b(?:is|are|stays?) off\b", "disabled"), (r"\b(?:is|are|stays?) on\b(?= by default)",
                                                  "enabled"),
    (r"\btime[sd]? out\b", "timeout"), (r"\bg(?:ive|ives|ave|iving) up\b", "timeout"),
    (r"\bahead of\b", "before"), (r"\bprior to\b", "before"),
    (r"\bafterwards?\b", "after"),
    # An HTTP reason phrase is no negation: "404 Not Found", "405 Method Not Allowed".
    (r"(?<=\d )(?:method )?not (?=found\b|modified\b|acceptable\b|allowed\b|implemented\b)",
     ""),
    # "host:9090" names a port; a short number after a colon is a tag ("postgres:13").
    (r"\b(?<=[a-z0-9.-]):(?=\d{4,5}\b)", " port "),
    # One name for one thing: "prod" and "production", "PRs" and "pull requests".
    (r"\bprod\b", "production"), (r"\bprs?\b", "pull request"),
    (r"\bnon-?existent\b", "not existing"), (r"\bgets? back\b", "returns"),
    (r"'s\b", ""),
]
PHRASE_RE = [(re.compile(p), r) for p, r in PHRASES]
NEGATORS = frozenset(
    """not no never nor neither without avoid avoids avoided avoiding stop stops stopped
    stopping skip skips skipped skipping omit omits omitted dont don't doesnt doesn't didnt
    didn't isnt isn't arent aren't wasnt wasn't wont won't cannot cant can't shouldnt
    shouldn't mustnt mustn't drop dropped dropping removed deprecated banned forbid forbids
    forbidden disallow disallowed prohibit prohibited abandon abandoned ditch ditched""".split()
) | {NEG}
# The cues that only negate (not "drop", "skip", "removed": verbs with a meaning of their own,
# "migrations that drop a column"): a clause with one denies what it says (`denied_clause`).
PURE_NEGATORS = frozenset(
    """not no never nor neither without dont don't doesnt doesn't didnt didn't isnt isn't arent
    aren't wasnt wasn't wont won't cannot cant can't shouldnt shouldn't mustnt mustn't""".split()
) | {NEG}
# negative form -> (positive term, relational?)
ANTONYMS: dict[str, tuple[str, bool]] = {
    "disable": ("enable", False), "disabled": ("enable", False), "disables": ("enable", False),
    "disabling": ("enable", False),
    "exclude": ("include", False), "excluded": ("include", False),
    "excludes": ("include", False), "excluding": ("include", False),
    "deny": ("allow", False), "denied": ("allow", False), "denies": ("allow", False),
    "optional": ("required", False), "private": ("public", False),
    "immutable": ("mutable", False), "false": ("true", False),
    "asynchronous": ("synchronous", False), "async": ("synchronous", False),
    "after": ("before", True),
}
POSITIVE_FORMS = {"enabled": "enable", "enables": "enable", "enabling": "enable",
                   "included": "include", "includes": "include", "including": "include",
                   "allowed": "allow", "allows": "allow", "require": "required",
                   "requires": "required", "mandatory": "required", "obligatory": "required",
                   "sync": "synchronous"}
# Words that say one thing: a swapped word is otherwise read as another subject.
SYNONYMS = {"wrong": "invalid", "bad": "invalid", "incorrect": "invalid",
            "absent": "missing", "hit": "call", "hits": "call", "hitting": "call",
            "keep": "store", "keeps": "store", "kept": "store", "keeping": "store"}
# Irregular verb forms the suffix stemmer cannot reach ("images are built" / "builds images").
IRREGULAR = {"built": "build", "kept": "keep", "ran": "run", "sent": "send", "made": "make",
             "written": "write", "wrote": "write", "held": "hold", "got": "get",
             "gotten": "get", "taken": "take", "took": "take", "given": "give", "gave": "give",
             "left": "leave", "brought": "bring", "bound": "bind", "thrown": "throw",
             "threw": "throw", "shown": "show", "chosen": "choose", "chose": "choose",
             "spent": "spend", "found": "find", "stood": "stand"}
KEEP = frozenset(term for term, _ in ANTONYMS.values())  # never dropped as stopwords
RELATIONAL = frozenset(term for term, relational in ANTONYMS.values() if relational)
# Words that carry polarity or emphasis but no subject.
NEUTRAL = frozenset("always must should please every all ever still just".split())
# A number after one of these names *when or where* a claim holds (a release, a version, a
# period), not the claim's value: "release 2.0 dropped X" and "release 3.0 dropped Y" are both
# true. Claims whose scope numbers differ never contradict.
# A dotted number ("0.25", "3.2") or a year is read as a version or period too.
# "since" / "before" ... mark a period before a version or a year ("since 2.0", "until 2023"),
# not before a duration ("after 30 minutes").
SCOPE_CUES = frozenset("since until till before after starting from".split())
VERSION_WORDS = frozenset("release releases released version versions v python node".split())
# Number words, read as digits so "five minutes" meets "10 minutes" ("one" is left alone: it is
# a pronoun as often as a number).
NUMBER_WORDS = {w: str(n) for n, w in enumerate(
    "zero _ two three four five six seven eight nine ten eleven twelve".split()) if w != "_"}
NUMBER_WORDS.update({"fifteen": "15", "twenty": "20", "thirty": "30", "forty": "40",
                      "fifty": "50", "sixty": "60", "ninety": "90", "hundred": "100"})
NUMBER_WORD_RE = re.compile(r"\b(" + "|".join(NUMBER_WORDS) + r")\b")
# "an hour", "a week", "a one-hour lifetime": one of the unit ("one" only before a unit; not
# in a rate: "120 times a second").
ONE_UNIT_RE = re.compile(r"(?<!times )\b(?:a|an|one)[ -](?=(?:millisecond|second|minute|hour"
                         r"|day|week|month|year|byte|kilobyte|megabyte|gigabyte)s?\b)")
# A value's kind, from the word after it, scaled to one unit per kind: "15 minutes" and "900 s"
# are one value, "15 minutes" and "15 days" two.
UNITS: dict[str, tuple[str, float]] = {}
for _kind, _table in (
    ("duration", {"ms": 0.001, "millisecond": 0.001, "milliseconds": 0.001, "s": 1, "sec": 1,
                  "secs": 1, "second": 1, "seconds": 1, "min": 60, "mins": 60, "minute": 60,
                  "minutes": 60, "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600,
                  "hours": 3600, "day": 86400, "days": 86400, "week": 604800,
                  "weeks": 604800, "month": 2592000, "months": 2592000,
                  "year": 31536000, "years": 31536000}),
    ("size", {"b": 1, "byte": 1, "bytes": 1, "kb": 1e3, "kib": 1024, "mb": 1e6,
              "mib": 1024 ** 2, "gb": 1e9, "gib": 1024 ** 3}),
):
    UNITS.update({word: (_kind, factor) for word, factor in _table.items()})
# Words that make a number from 100 to 599 an HTTP status.
STATUS_CUES = frozenset("http status code codes return returns returned respond responds "
                         "responded response answer answers answered error reply replies "
                         "replied".split())
# A number right after one of these is a port ("binds 8080").
LISTEN_WORDS = frozenset("bind binds bound listen listens".split())
# Units of a rate, so many a second.
RATE_UNITS = frozenset("hz hertz".split())
# "so many things per second", also "a second" ("1 second" once read) and "each second".
RATE_CUES = frozenset("per a an 1 each every".split())
# Qualifiers that name *which* thing a claim is about; two claims that disagree on one of
# these are about two things ("staging" / "production", "GET" / "POST", "default" / "maximum",
# "access" / "refresh" tokens), however alike the rest.
WHERE = ("staging production prod development dev local test ci qa sandbox",
          "linux macos windows ios android web mobile desktop")
QUALIFIER_CLASSES = tuple(frozenset(c.split()) for c in (
    *WHERE,
    "post put patch delete",  # not "get": a verb far more often than a method
    "default maximum max minimum min",
    "access refresh",
    "read write connect",
    "client server frontend backend",
    "admin public internal",
))


# What a duration measures, by the words of its clause: how long something lives (cached,
# valid, kept), how long until one gives up (a timeout) or how long one pauses (a sleep, a
# delay). Two durations of different slots are two
# claims ("results are cached for 5 minutes" / "queries time out after 2 seconds").
DURATION_SLOTS = {word: "timeout" for word in "timeout timeouts deadline".split()} | {
    word: "lifetime" for word in """cache cached caches caching expire expires expired valid
    lifetime ttl lasts last lives kept keep keeps retain retained retention retains
    stays""".split()} | {
    word: "wait" for word in "sleep sleeps wait waits delay delays backoff pause".split()}


def _slot(clause: str) -> str:
    slots = {DURATION_SLOTS[w] for w in clause.split() if w in DURATION_SLOTS}
    return f":{slots.pop()}" if len(slots) == 1 else ""


def stemmed(words: frozenset[str]) -> frozenset[str]:
    return frozenset(stem(w) for w in words)


def value_of(token: str, previous: str, following: str, clause: str) -> tuple[float, str | None]:
    """(value, kind) of an unscoped number: a duration or size in one unit, an HTTP status, a
    port, or a count of the thing named after it; kind None when nothing says."""
    hours, colon, minutes = token.partition(":")
    try:
        number = float(hours) * 60 + float(minutes) if colon else float(token)
    except ValueError:
        return 0.0, None
    following, _, rest = following.partition(" ")
    if following in RATE_UNITS:  # "60 Hz"
        return number, "rate"
    after = rest.split()[:3]
    for at in range(len(after) - 1):  # "120 times a second", "20 search requests per second"
        if (after[at] in RATE_CUES and UNITS.get(after[at + 1], ("",))[0] == "duration"
                and following.isalpha() and all(w.isalpha() for w in after[:at])):
            return number / UNITS[after[at + 1]][1], "rate"
    if rest.startswith("per "):  # "4 processes per CPU" is not "8 processes"
        per = rest[4:].partition(" ")[0]
        if UNITS.get(per, ("",))[0] == "duration":  # "30 times per second", "100 requests
            return number / UNITS[per][1], "rate"  # per minute": so many a second
        following = f"{following}/{per}"
    if following in UNITS:
        kind, factor = UNITS[following]
        # "every 10 seconds" is an interval, "after 2 seconds" a deadline: two claims
        if previous in ("every", "each"):
            return number * factor, kind + ":every"
        if kind == "duration":  # what lasts that long: a timeout is no lifetime
            return number * factor, kind + _slot(clause)
        return number * factor, kind
    if previous == "port" or (previous in LISTEN_WORDS and 2 <= len(token) <= 5
                               and token.isdigit()):
        return number, "port"  # "port 8080", "binds 8080"
    if ":" in token:
        return number, "clock"
    if token.isdigit() and 100 <= number < 600 and STATUS_CUES & set(clause.split()):
        return number, "status"
    thing, _, per = following.partition("/")
    if thing.isalpha() and len(thing) > 2 and thing not in STOPWORDS:
        return number, "count:" + stem(thing) + (f"/{per}" if per else "")
    return number, None


# Words that frame a value claim rather than name its subject: two texts sharing only these
# ("the /health endpoint returns 200" / "the login endpoint returns 401") share no subject.
FRAME_WORDS = frozenset("return respond answer get endpoint response status code http "
                         "error default use run set call value limit number new".split()) | (
    # ... how a lifetime, a cap or an address is said: "expire after" / "valid for" / "lives
    # for", "capped at" / "rejects files bigger than", "listens on" / "binds", and the reason
    # phrase of a status ("410 Gone")
    frozenset("""expire expires expired valid lasts last lives live lifetime ttl stays stay
    kept keep keeps store stored retain retained retention limited capped cap caps reject
    rejects rejected larger bigger exceed exceeds size listen listens bind binds localhost ok
    created gone conflict forbidden unauthorized""".split()) | frozenset(
    # ... and how a rate or a time of day is said: "30 times per second", "at 02:00 UTC
    # nightly"
    "rate per time times utc gmt id timeout cache cached".split()))


def stem(word: str) -> str:
    """Crude English stemming, enough to make "deploying" meet "deploy"."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "i"
    word = strip_suffix(word, ("ments", "ment", "fully", "ful", "ing", "ed", "es", "s", "ly"))
    # "retry" / "retries" / "retried", "cookie" / "cookies": one stem
    return word[:-1] + "i" if word.endswith("y") and len(word) > 3 else word


STEMMED_QUALIFIERS = tuple(stemmed(c) for c in QUALIFIER_CLASSES)
UNIT_TERMS = stemmed(frozenset(UNITS))
# Where a claim holds is not what it is about: not counted as a shared subject either.
# Before / after (as relational terms, unstemmed) frame a value too: "expire after 1 hour".
STEMMED_FRAME = (stemmed(FRAME_WORDS) | stemmed(frozenset(" ".join(WHERE).split()))
                 | RELATIONAL)
