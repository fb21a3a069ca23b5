"""Secret scrubbing, run on every text before kenning writes it anywhere (YAML, index, logs).

Transcripts carry whatever passed through a terminal: tokens in `env` output, keys in config
files the agent read, passwords in connection strings. A fact file is committed to git and
shared with a team, so a leak there is permanent. The scrubber is therefore recall-leaning
for well-known key formats and conservative for the generic "random-looking string" rule:
facts cite commit SHAs, UUIDs, ULIDs and content hashes, and those must survive.

Pure and stdlib only. Patterns are compiled once and each is one linear scan that starts on
a literal; a 10 MB transcript is scrubbed in about a second.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Iterator


class _Lazy:
    """A pattern compiled on first use. A text reaches few of the patterns below (most are
    behind a literal test), and compiling them all cost every process that imports this
    module several milliseconds."""

    __slots__ = ("_body", "_pattern")

    def __init__(self, body: str) -> None:
        self._body = body
        self._pattern: re.Pattern[str] | None = None

    def __getattr__(self, name: str):  # finditer, match, search, groups ...
        if self._pattern is None:
            self._pattern = re.compile(self._body)
        return getattr(self._pattern, name)


_MARKER = re.compile(r"\[REDACTED:[a-z_]+\]")

# Known key formats. Each pattern starts with a literal, which lets `re` skip ahead quickly;
# a leading `\b`, `(?i)` or one alternation of all of them makes a 10 MB scan 30-300x
# slower, so the left word boundary is checked in Python instead. Listed order is priority
# when two matches start at the same position.
_KNOWN_FORMATS: list[tuple[str, str]] = [
    # The whole PEM block; a truncated block (no END line) is redacted to its last
    # base64-ish character, so half a key never survives.
    (
        "private_key",
        r"-----BEGIN[A-Z ]{0,30}PRIVATE KEY(?: BLOCK)?-----"
        r"(?:[\s\S]{0,20000}?-----END[A-Z ]{0,30}PRIVATE KEY(?: BLOCK)?-----"
        r"|[A-Za-z0-9+/=\s:,.\\-]*[A-Za-z0-9+/=])",
    ),
    ("anthropic_key", r"sk-ant-[A-Za-z0-9_-]{20,}"),
    ("openai_key", r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}"),
    ("openai_key", r"sk-[A-Za-z0-9]{32,}(?![A-Za-z0-9_])"),
    ("stripe_key", r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}(?![A-Za-z0-9_])"),
    ("github_token", r"gh[pousr]_[A-Za-z0-9]{30,255}(?![A-Za-z0-9_])"),
    ("github_token", r"github_pat_[A-Za-z0-9_]{22,255}(?![A-Za-z0-9_])"),
    (
        "slack_webhook",
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{8,}",
    ),
    ("slack_token", r"xox[abposr]-[A-Za-z0-9-]{10,}"),
    ("aws_access_key_id", r"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9_])"),
    ("google_api_key", r"AIza[0-9A-Za-z_-]{35}"),
    ("npm_token", r"npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])"),
    ("jwt", r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"),
    ("gitlab_token",
     r"gl(?:pat|ptt|dt|rt|cbt|soat|ft|imt|agent|oas)-[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])"),
    ("sendgrid_key", r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,64}(?![A-Za-z0-9_-])"),
    # Azure storage / service bus connection strings: the key after its name.
    ("azure_key", r"AccountKey=[A-Za-z0-9+/]{20,100}={0,2}"),
    ("azure_key", r"SharedAccessKey=[A-Za-z0-9+/]{20,100}={0,2}"),
]
_KNOWN = [(kind, _Lazy(body)) for kind, body in _KNOWN_FORMATS]
# For each known format, literals of which every match holds one: a text holding none of
# them is not scanned with that pattern (a substring test is far cheaper than a regex scan,
# above all for patterns that start with an alternation, like the Stripe keys).
_KNOWN_LITERALS: list[tuple[str, ...]] = [
    ("-----BEGIN",),
    ("sk-ant-",),
    ("sk-",),
    ("sk-",),
    ("k_live_", "k_test_"),
    ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    ("github_pat_",),
    ("https://hooks.slack.com/",),
    ("xox",),
    ("AKIA", "ASIA", "ABIA", "ACCA", "A3T"),
    ("AIza",),
    ("npm_",),
    ("eyJ",),
    ("gl",),
    ("SG.",),
    ("AccountKey=",),
    ("SharedAccessKey=",),
]

# scheme://user:password@host -> keep scheme and host, drop user and password.
_URL_CREDENTIALS = _Lazy(r"://([^\s/:@\[\]'\"<>]{1,256}:[^\s/@\[\]'\"<>]{1,256})@")

# Passwords on a command line: `mysql -pSECRET` (`-p` alone prompts; `-P` is the port),
# `redis-cli -a SECRET`, `sshpass -p SECRET`, `curl -u user:SECRET` / `--user user:SECRET`.
# One pattern per program, each starting on its literal name (see _KNOWN_FORMATS); the
# password is whichever group matched.
_VALUE = r"(?:\"([^\"\s]{1,200})\"|'([^'\s]{1,200})'|([^\s\"'`;|&<>]{1,200}))"
_CLI_PASSWORDS = [(literal, _Lazy(body)) for literal, body in (
    ("mysql", r"mysql(?:dump|admin|import|show|check)?\b[^\n|;&]{0,200}?\s-p" + _VALUE),
    ("mariadb", r"mariadb\b[^\n|;&]{0,200}?\s-p" + _VALUE),
    ("redis-cli", r"redis-cli\b[^\n|;&]{0,200}?\s-a[ \t]+" + _VALUE),
    ("sshpass", r"sshpass\b[^\n|;&]{0,200}?\s-p[ \t]+" + _VALUE),
    ("curl", r"curl\b[^\n|;&]{0,300}?\s(?:-u|--user)(?:[ \t]+|=)?[\"']?[^\s:\"'@]{0,100}:"
     r"([^\s\"'`;|&<>]{1,200})"),
)]
# "the password is hunter2", "the password for the admin account is `X`".
_PROSE_PASSWORD = _Lazy(
    r"pass(?:word|wd|phrase|code)(?:[ \t]+(?:for|of|to)[ \t]+(?:the[ \t]+)?"
    r"[\w.@-]{1,60}(?:[ \t]+\w{1,30})?)?[ \t]+(?:is|was)[ \t]*:?[ \t]+[\"'`]?"
    r"([^\s\"'`,;]{4,200}?)[\"'`]?(?=[.,;:!?)]*(?:\s|$))"
)

# These three run on the lower-cased text (same length, same offsets) for the same reason.
_AWS_SECRET = _Lazy(
    r"aws_?secret_?(?:access_?)?key[\"']?\s*[:=]\s*[\"']?([a-z0-9/+=]{40})(?![a-z0-9/+=])"
)
_AUTHORIZATION = _Lazy(r"(?:bearer|basic)[ \t]+([a-z0-9._~+/-]{16,}=*)")
_KEY_WORD = re.compile(
    r"password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|auth"
    r"|credentials?|private[_-]?key|pass|pwd"
)
_KEY_WORDS = _KEY_WORD.pattern
# Every match of _KEY_WORD starts with one of these (an alternation of words is a slow scan;
# finding each stem with str.find and matching there is the same result, far faster).
_KEY_WORD_STEMS = ("pass", "secret", "token", "api", "access", "auth", "credential",
                   "private", "pwd")

# `password=…`, `"api_key": "…"`, `DB_PASSWORD: …`, `--token …`: only the value is replaced,
# so the fact keeps saying *which* setting it was about. The regex starts at the key word
# (fast: one first-character test per position); the rest of the key name is checked in
# `_assignment_key`, which is where `author=` and `max_tokens=` are told apart from `auth=`.
_ASSIGNMENT_TAIL = re.compile(
    r"([A-Za-z0-9_-]{0,30})\\?[\"']?[ \t]*(?::=|=>|:|=)(?!=)[ \t]*"
    r"(?:\\?\"([^\"\s\\]{1,200})\\?\"|'([^'\s\\]{1,200})'|([^\s\"'`,;&)\]}<>\\]{1,200}))"
)
_FLAG = _Lazy(
    r"--(?:[a-z0-9]{1,20}-){0,3}(?:" + _KEY_WORDS + r")[ =]([^\s\"'`;|&<>]{4,200})"
)
# Short words that are keys only with a prefix (`DB_PASS`, `MYSQL_PWD`).
_BARE_NOT_KEYS = frozenset({"pass", "pwd"})
_KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
# Settings that name a secret without holding it: `token_file`, `api_key_env`, `secret_name`.
_META_SUFFIX = _Lazy(
    r"(?i)[_.-]?(?:file|path|dir|env|var|name|type|count|len|length|size|url|uri|endpoint"
    r"|expiry|expires|ttl|field|header|id|prefix|hint|policy|limit|rate|mode|helper|store"
    r"|source|provider|command|cmd)s?$"
)

# Values that an assignment-looking line holds in ordinary code, prose or docs.
_NOT_A_VALUE = _Lazy(
    r"(?i)^(?:none|null|nil|true|false|undefined|str|string|int|bytes|bool|optional.*|any"
    r"|required|optional|redacted|hidden|secret|password|token|env|os\.environ.*|\*+|x+"
    r"|\.\.\.+|<.*|\$.*|%\(.*|%[a-z]|%\{.*|%\w+%|\{.*|\[.*|\(.*|/.*|\./.*|~/.*|![A-Za-z]*"
    r"|self\..*|this\..*|\*[A-Za-z_][\w.]*"
    r"|process\.env.*|getenv.*|[0-9]+)$"
)
_PLAIN_WORD = _Lazy(r"^[a-z_]+$|^[a-z]*(?:[A-Z][a-z]+)+$|^[A-Z][A-Z0-9_]*$")
# `cfg.api_key`, `os.environ["X"]`, `Optional[str]`, `load_token()`: code, not a value.
_CODE_VALUE = _Lazy(r"^[A-Za-z_]\w*(?:(?:\.[A-Za-z_]\w*)+(?:[\[(].*)?|[\[(].*)$")

# Generic high-entropy tokens: long base64 / base64url / base36 strings.
_TOKEN = _Lazy(r"(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_-]{32,}={0,2}(?![A-Za-z0-9+/_=-])")
_HEX = _Lazy(r"^[0-9a-fA-F-]+$")
# _TOKEN's characters as b"a", every other byte as b" ": a token needs a run of 32 of them,
# which bytes.find locates much faster than the pattern itself scans.
_TOKEN_BYTES = bytes(
    ord("a") if chr(b).isascii() and (chr(b).isalnum() or chr(b) in "+/_-") else ord(" ")
    for b in range(256))
_TOKEN_RUN = b"a" * 32
# `objects/pack/pack-55cf36…`, `sha256_9f86d0…`: a hash, maybe named by a word, in a path.
_WORD_AND_HEX = _Lazy(
    r"^(?:[A-Za-z][A-Za-z0-9_.]{0,30}/)*(?:[A-Za-z]{1,20}[_-])?[0-9a-fA-F]{32,}$")
_DIGIT_RUN = _Lazy(r"[0-9]+")


def _kind_of_key(key: str) -> str:
    key = key.lower()
    if "pass" in key or "pwd" in key:
        return "password"
    if "api" in key and "key" in key:
        return "api_key"
    if "token" in key or "auth" in key:
        return "token"
    return "secret"


def _entropy(s: str) -> float:
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in Counter(s).values())


def _char_class(ch: str) -> int:
    return 0 if ch.isupper() else 1 if ch.islower() else 2 if ch.isdigit() else 3


# An ASCII character's class as _char_class says it, one letter each: "A", "a", "0" or ".".
_ASCII_CLASSES = str.maketrans({chr(c): "A" if chr(c).isupper() else "a" if chr(c).islower()
                                else "0" if chr(c).isdigit() else "." for c in range(128)})
_CLASS_RUN = _Lazy(r"(.)\1*")


def _class_switches(core: str) -> int:
    """How often the character class changes from one character to the next."""
    if core.isascii():
        return len(_CLASS_RUN.findall(core.translate(_ASCII_CLASSES))) - 1
    pairs = zip(core, core[1:], strict=False)
    return sum(_char_class(a) != _char_class(b) for a, b in pairs)


def looks_random(token: str) -> bool:
    """True for a long token that is very likely a key rather than a word, path or hash.

    Calibrated on 30,000 random base64/base64url/base36 strings (0.6 % missed) against long
    identifiers, paths and model names (none flagged). Pure hex is never flagged: commit
    SHAs, UUIDs and content hashes are what facts cite.
    """
    core = token.rstrip("=")
    if len(core) < 32 or _HEX.match(core) or _WORD_AND_HEX.match(core):
        return False
    separators = sum(core.count(c) for c in "/_-+")
    if separators * 8 > len(core):  # paths and snake/kebab identifiers are separator-dense
        return False
    if not any(c.islower() for c in core) or not any(c.isdigit() for c in core):
        return False
    if _entropy(core) < 3.9:
        return False
    digit_runs = len(_DIGIT_RUN.findall(core))
    if any(c.isupper() for c in core):
        return digit_runs >= 3 or _class_switches(core) / (len(core) - 1) >= 0.45
    return digit_runs >= 3 and _entropy(core) >= 4.0


def _assignment_key(text: str, word_start: int, word_end: int, suffix: str) -> str | None:
    """The full key name around a key word, or None when the word is part of another word.

    `auth=` and `authToken=` and `DB_PASSWORD=` are keys; `author=`, `max_tokens=` and
    `tokenizer=` are not. Camel case counts as a boundary only when the case changes.
    """
    word = text[word_start:word_end]
    if suffix:
        nxt = suffix[0]
        if not (nxt in "_-" or nxt.isdigit() or (nxt.isupper() and word[-1].islower())):
            return None
    start = word_start
    while start > 0 and text[start - 1] in _KEY_CHARS and word_start - start < 40:
        start -= 1
    if start < word_start:
        prev = text[word_start - 1]
        # `DB_PASS`, `authToken`, and an environment variable's upper-case prefix
        # (`PGPASSWORD`); never the middle of a word (`bypass`, `compass`).
        if not (prev in "_.-" or prev.isdigit() or (word[0].isupper() and prev.islower())
                or (word.isupper() and prev.isupper())):
            return None
    key = text[start:word_end] + suffix
    if suffix and _META_SUFFIX.search(suffix):
        return None
    if key.lower() in _BARE_NOT_KEYS:  # `--- PASS: TestX`, `"pwd": "/src"`: not settings
        return None
    return key


def _value_is_secret(value: str, key: str, quoted: bool) -> bool:
    if len(value) < 4 or _NOT_A_VALUE.match(value) or value.startswith("[REDACTED"):
        return False
    if value.lower() == key.lower() or value.lower() == key.lower().rsplit(".", 1)[-1]:
        return False
    if not quoted and (_PLAIN_WORD.match(value) or _CODE_VALUE.match(value)):
        return False  # `token=token`, `password: str`, `secret: Secret`, `key=cfg.api_key`
    return True


def _word_start(text: str, pos: int) -> bool:
    return pos == 0 or not (text[pos - 1].isalnum() or text[pos - 1] == "_")


def _lower_same_length(text: str) -> str:
    low = text.lower()
    if len(low) == len(text):
        return low
    # A few non-ASCII characters change length when lower-cased; keep offsets aligned.
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def _iter_matches(text: str) -> list[tuple[int, int, int, str]]:
    """All raw matches as (start, end, priority, type); overlaps are resolved by the caller."""
    found: list[tuple[int, int, int, str]] = []
    # Each pattern runs only on a text holding a literal all its matches hold (same result).
    for prio, (kind, pattern) in enumerate(_KNOWN):
        if not any(map(text.__contains__, _KNOWN_LITERALS[prio])):
            continue
        for m in pattern.finditer(text):
            if kind == "private_key" or _word_start(text, m.start()):
                found.append((m.start(), m.end(), prio, kind))
    prio = len(_KNOWN)
    if "://" in text:
        for m in _URL_CREDENTIALS.finditer(text):
            if m.start() > 0 and text[m.start() - 1].isalnum():
                found.append((m.start(1), m.end(1), prio, "url_credentials"))
    low = _lower_same_length(text)
    if "aws" in low:
        for m in _AWS_SECRET.finditer(low):
            found.append((m.start(1), m.end(1), prio, "aws_secret_access_key"))
    if "bearer" in low or "basic" in low:
        for m in _AUTHORIZATION.finditer(low):
            if _word_start(low, m.start()):
                found.append((m.start(1), m.end(1), prio, "authorization"))
    for literal, pattern in _CLI_PASSWORDS:
        if literal not in text:
            continue
        for m in pattern.finditer(text):
            group = next(g for g in range(1, pattern.groups + 1) if m.group(g) is not None)
            if _word_start(text, m.start()) and not _NOT_A_VALUE.match(m.group(group)):
                found.append((m.start(group), m.end(group), prio, "password"))
    if "pass" in low:
        for m in _PROSE_PASSWORD.finditer(low):
            value = text[m.start(1):m.end(1)]
            if _word_start(low, m.start()) and _value_is_secret(value, "password", False):
                found.append((m.start(1), m.end(1), prio, "password"))
    prio += 1
    for kw in _key_words(low):
        tail = _ASSIGNMENT_TAIL.match(text, kw.end())
        if tail is None:
            continue
        key = _assignment_key(text, kw.start(), kw.end(), tail.group(1))
        if key is None:
            continue
        for group, quoted in ((2, True), (3, True), (4, False)):
            value = tail.group(group)
            if value is not None:
                if _value_is_secret(value, key, quoted):
                    found.append((tail.start(group), tail.end(group), prio, _kind_of_key(key)))
                break
    for m in _FLAG.finditer(low) if "--" in low else ():
        flag = m.group(0)[2:].split(" ", 1)[0].split("=", 1)[0]
        value = text[m.start(1) : m.end(1)]
        if _value_is_secret(value, flag, False) or looks_random(value):
            found.append((m.start(1), m.end(1), prio, _kind_of_key(flag)))
    prio += 1
    for m in _tokens(text):
        if looks_random(m.group(0)):
            found.append((m.start(), m.end(), prio, "high_entropy"))
    return found


def _key_words(low: str) -> Iterator[re.Match[str]]:
    """`_KEY_WORD.finditer(low)`: the same matches, tried only where a stem starts."""
    starts: list[int] = []
    for stem in _KEY_WORD_STEMS:
        at = low.find(stem)
        while at >= 0:
            starts.append(at)
            at = low.find(stem, at + 1)
    starts.sort()
    end = 0
    for at in starts:
        if at >= end and (m := _KEY_WORD.match(low, at)):
            end = m.end()
            yield m


def _tokens(text: str) -> Iterator[re.Match[str]]:
    """`_TOKEN.finditer(text)`: the same matches, scanned only on lines holding a run of 32
    token characters (a match never crosses a line: a newline is not a token character)."""
    runs = text.encode("latin-1", "replace").translate(_TOKEN_BYTES)  # one byte a character
    at = runs.find(_TOKEN_RUN)
    while at >= 0:
        line_start = text.rfind("\n", 0, at) + 1
        line_end = text.find("\n", at)
        if line_end < 0:
            line_end = len(text)
        yield from _TOKEN.finditer(text, line_start, line_end)
        at = runs.find(_TOKEN_RUN, line_end)


def find_secrets(text: str) -> list[tuple[str, int, int]]:
    """Secrets in `text` as (type, start, end), sorted, non-overlapping.

    Spans inside an existing `[REDACTED:…]` marker are ignored, which is what makes
    `redact` idempotent.
    """
    if not text:
        return []
    protected = [(m.start(), m.end()) for m in _MARKER.finditer(text)]
    matches = _iter_matches(text)
    # Earliest start wins; at the same start the higher-priority (more specific) pattern,
    # then the longer match.
    matches.sort(key=lambda m: (m[0], m[2], -(m[1] - m[0])))
    out: list[tuple[str, int, int]] = []
    last_end = -1
    for start, end, _priority, kind in matches:
        if start < last_end or end <= start:
            continue
        if protected and _overlaps(start, end, protected):
            continue
        out.append((kind, start, end))
        last_end = end
    return out


def _overlaps(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    # `spans` is sorted; a bisect keeps this fast when a text is full of markers.
    i = bisect.bisect_right(spans, (start, math.inf)) - 1
    for j in (i, i + 1):
        if 0 <= j < len(spans) and spans[j][0] < end and start < spans[j][1]:
            return True
    return False


def redact(text: str) -> str:
    """`text` with every secret replaced by `[REDACTED:<type>]`; idempotent."""
    spans = find_secrets(text)
    for _ in range(3):
        if not spans:
            return text
        text, markers = _replace(text, spans)
        # A replacement could, in principle, complete a new match with its neighbours. Check
        # only around the markers, each stretch once (markers close together share one), and
        # fall back to a full pass if anything shows up.
        if not any(find_secrets(text[a:b]) for a, b in _around(markers, len(text))):
            return text
        spans = find_secrets(text)
    return text


_WINDOW = 300


def _around(markers: list[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    """The stretches within `_WINDOW` characters of the (sorted) markers, overlapping ones
    joined: a text dense with secrets is read once more, not once per marker."""
    stretches: list[tuple[int, int]] = []
    for a, b in markers:
        start, end = max(0, a - _WINDOW), min(size, b + _WINDOW)
        if stretches and start <= stretches[-1][1]:
            stretches[-1] = (stretches[-1][0], end)
        else:
            stretches.append((start, end))
    return stretches


def _replace(text: str, spans: list[tuple[str, int, int]]) -> tuple[str, list[tuple[int, int]]]:
    """Replace each span with its marker; also return where the markers landed."""
    parts: list[str] = []
    markers: list[tuple[int, int]] = []
    pos = 0
    out_len = 0
    for kind, start, end in spans:
        parts.append(text[pos:start])
        out_len += start - pos
        marker = f"[REDACTED:{kind}]"
        parts.append(marker)
        markers.append((out_len, out_len + len(marker)))
        out_len += len(marker)
        pos = end
    parts.append(text[pos:])
    return "".join(parts), markers
