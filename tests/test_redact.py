"""Secret scrubbing: every known format goes, ordinary code and the ids facts cite stay."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kenning.core.redact import find_secrets, looks_random, redact

GITHUB = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"

# (type, text containing one secret, the secret itself)
KNOWN = [
    ("aws_access_key_id", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
    (
        "aws_secret_access_key",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    ),
    ("github_token", f"export GITHUB_TOKEN={GITHUB}", GITHUB),
    ("github_token", "gho_" + "x1Y2z3" * 6, "gho_" + "x1Y2z3" * 6),
    ("github_token", "token ghs_" + "Ab1" * 12 + " expired", "ghs_" + "Ab1" * 12),
    (
        "github_token",
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ",
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ",
    ),
    ("slack_token", "SLACK=xoxb-123456789012-1234567890123-AbCdEfGhIj", "xoxb-123456789012"),
    ("slack_token", "use xoxp-2222-3333-abcdefabcdef please", "xoxp-2222-3333-abcdefabcdef"),
    (
        "slack_webhook",
        "curl -X POST https://hooks.slack.com/services/T0AAAA/B0BBBB/XyZ123xyZ456 -d @m.json",
        "T0AAAA/B0BBBB/XyZ123xyZ456",
    ),
    (
        "stripe_key",
        "stripe.api_key = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc'",
        "4eC39HqLyjWDarjtT1zdp7dc",
    ),
    ("stripe_key", "rk_live_51H8abcdefghijklmnop0123", "rk_live_51H8abcdefghijklmnop0123"),
    (
        "openai_key",
        "OPENAI_API_KEY=sk-proj-AbCdEf0123456789_ghIJkl-MNopQR",
        "AbCdEf0123456789_ghIJkl-MNopQR",
    ),
    (
        "openai_key",
        "key: sk-T3BlbkFJabcdefghijklmnopqrstuvwxyz012345",
        "T3BlbkFJabcdefghijklmnopqrstuvwxyz012345",
    ),
    (
        "anthropic_key",
        "ANTHROPIC_API_KEY=sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx-yz0123456789_AA",
        "AbCdEfGhIjKlMnOpQrStUvWx",
    ),
    ("google_api_key", "maps?key=AIzaSyA1234567890abcdefghijklmnopqrstuv", "AIzaSyA1234567890abc"),
    (
        "jwt",
        "Cookie: session=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
        "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    ),
    ("npm_token", "//registry.npmjs.org/:_authToken=npm_" + "a1B2c3" * 6, "a1B2c3a1B2c3"),
    (
        "authorization",
        "-H 'Authorization: Bearer abcDEF123456ghiJKL7890'",
        "abcDEF123456ghiJKL7890",
    ),
    ("password", "password=hunter22", "hunter22"),
    ("password", "DB_PASSWORD: correcthorse9", "correcthorse9"),
    ("password", '{"passwd": "s3cret!x"}', "s3cret!x"),
    ("password", "mysql --password=Zz9!abc -u root", "Zz9!abc"),
    ("password", "mytool --password hunter22", "hunter22"),
    ("secret", "CLIENT_SECRET='abc123def456'", "abc123def456"),
    ("token", "token=abc123def456", "abc123def456"),
    ("token", "const authToken = 'zz9-qq8-ww7'", "zz9-qq8-ww7"),
    ("api_key", 'api_key = "0123abcd4567efgh"', "0123abcd4567efgh"),
    ("api_key", "apiKey: 'Xyz12345'", "Xyz12345"),
    (
        "high_entropy",
        "value q8ZfR2mLk9VbX3nT7wPcY5hJd1sGa4Ue6 here",
        "q8ZfR2mLk9VbX3nT7wPcY5hJd1sGa4Ue6",
    ),
]


@pytest.mark.parametrize(("kind", "text", "secret"), KNOWN)
def test_each_known_secret_type_is_redacted_with_its_type(kind: str, text: str, secret: str):
    out = redact(text)
    assert f"[REDACTED:{kind}]" in out
    assert secret not in out


def test_assignment_keeps_the_key_and_replaces_only_the_value():
    assert redact("password=hunter22") == "password=[REDACTED:password]"
    assert redact('"api_key": "0123abcd4567efgh"') == '"api_key": "[REDACTED:api_key]"'


def test_url_credentials_keep_scheme_and_host():
    out = redact("DATABASE_URL=postgres://admin:s3cr3tP4ss@db.example.com:5432/app")
    assert out == "DATABASE_URL=postgres://[REDACTED:url_credentials]@db.example.com:5432/app"


def test_pem_private_key_block_is_redacted_whole():
    text = (
        "before\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAE\n"
        "bm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\nafter"
    )
    assert redact(text) == "before\n[REDACTED:private_key]\nafter"


def test_truncated_pem_block_is_still_redacted():
    text = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAxyz\nabcdef=="
    assert redact(text) == "[REDACTED:private_key]"


def test_find_secrets_reports_type_and_span():
    text = f"a {GITHUB} b"
    assert find_secrets(text) == [("github_token", 2, 2 + len(GITHUB))]


CLEAN = [
    "Retries live in http/retry.py so every transport shares one backoff.",
    "commit 3f2a9c1d4e5b6a7c8d9e0f1a2b3c4d5e6f7a8b9c (HEAD -> main)",
    "session 5560c1e2-8b1f-4d0e-9a51-0c7f3e2b9d44 evidence 7d48a0b3-1c2e-4f5a-8b6c-9d0e1f2a3b4c",
    "fact 01JF3Z8Q6T1V3N1C2X7D9K4M5P supersedes 01JF3Z8Q6T1V3N1C2X7D9K4M5Q",
    "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "/home/USER/projects/spotter-worktrees/spotter-dov/lib/spotter_web/live/session_live.ex",
    "model: sentence-transformers/all-MiniLM-L6-v2 (pca_dims=256)",
    "def test_reindex_skips_unchanged_facts_when_nothing_changed_at_all(tmp_path):",
    "class AbstractSingletonProxyFactoryBean2Handler(BaseHandler):",
    "token = self._next_token()",
    "def login(password: str, token: Optional[str] = None) -> Session:",
    "max_tokens=4096, input_tokens: 3, output_tokens: 13",
    "author='jdoe'",
    "tokenizer = Tokenizer.from_file(path)",
    "api_key_env = 'ANTHROPIC_API_KEY'",
    "password=password",
    "token: ${{ secrets.GITHUB_TOKEN }}",
    "api_key = os.environ['OPENAI_API_KEY']",
    "if token == expected_token: return True",
    "Password: must be at least 12 characters",
    "token_url = https://example.com/oauth/token",
    "PWD=/home/u/proj",
    "pip install kenning==0.1.0 && uv run pytest -q tests/test_redact.py",
    "import { Socket } from 'phoenix'; let liveSocket = new LiveSocket('/live', Socket)",
    "The quick brown fox jumps over the lazy dog, then runs `git rebase -i HEAD~3`.",
    'Traceback (most recent call last):\n  File "src/kenning/cli.py", line 12, in main',
    "params: { _csrf_token: csrfToken }",
    "ghp_ is the prefix of a GitHub personal access token",
    "sk-learn is not a package name; scikit-learn is",
    "Use Basic auth for the local proxy.",
    "[REDACTED:github_token] was already scrubbed",
]


@pytest.mark.parametrize("text", CLEAN)
def test_ordinary_code_prose_paths_and_ids_are_left_alone(text: str):
    assert redact(text) == text


def test_commit_shas_uuids_and_ulids_are_never_high_entropy():
    for token in (
        "3f2a9c1d4e5b6a7c8d9e0f1a2b3c4d5e6f7a8b9c",
        "5560c1e2-8b1f-4d0e-9a51-0c7f3e2b9d44",
        "01JF3Z8Q6T1V3N1C2X7D9K4M5P",
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    ):
        assert not looks_random(token)


def test_redact_handles_a_10_mb_string():
    """Correct at size; its speed is a row of bench/extraction.py, not a limit here."""
    chunk = (
        "The retry policy lives in src/http/retry.py; run `uv run pytest -q`. "
        f"password=hunter22 and {GITHUB} and commit 3f2a9c1d4e5b6a7c8d9e0f1a2b3c4d5e6f7a8b9c\n"
    )
    text = chunk * (10_000_000 // len(chunk))
    out = redact(text)
    assert GITHUB not in out and "hunter22" not in out
    assert out.count("[REDACTED") >= 2 * (10_000_000 // len(chunk))


# --- properties -------------------------------------------------------------------------

_ALNUM = string.ascii_letters + string.digits


def _body(n: int) -> st.SearchStrategy[str]:
    return st.text(alphabet=_ALNUM, min_size=n, max_size=n)


SECRETS = st.one_of(
    _body(36).map(lambda b: "ghp_" + b),
    _body(40).map(lambda b: "github_pat_" + b),
    _body(24).map(lambda b: "xoxb-" + b),
    _body(24).map(lambda b: "sk_live_" + b),
    _body(40).map(lambda b: "sk-proj-" + b),
    _body(40).map(lambda b: "sk-ant-api03-" + b),
    _body(48).map(lambda b: "sk-" + b),
    _body(35).map(lambda b: "AIza" + b),
    st.text(alphabet=string.ascii_uppercase + string.digits, min_size=16, max_size=16).map(
        lambda b: "AKIA" + b
    ),
    st.tuples(_body(12), _body(20), _body(24)).map(lambda t: f"eyJ{t[0]}.eyJ{t[1]}.{t[2]}"),
)

PROSE = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    max_size=80,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(PROSE, st.one_of(st.none(), SECRETS)), max_size=6))
def test_redact_is_idempotent(parts: list[tuple[str, str | None]]):
    text = "".join(p + (f" {s} " if s else "") for p, s in parts)
    once = redact(text)
    assert redact(once) == once


@settings(max_examples=300, deadline=None)
@given(PROSE, SECRETS, PROSE)
def test_output_never_contains_an_inserted_secret(before: str, secret: str, after: str):
    out = redact(f"{before} {secret} {after}")
    assert secret not in out


@settings(max_examples=200, deadline=None)
@given(PROSE)
def test_redact_never_raises_and_find_secrets_spans_are_ordered(text: str):
    spans = find_secrets(text)
    ends = [0]
    for _kind, start, end in spans:
        assert ends[-1] <= start < end <= len(text)
        ends.append(end)
    redact(text)


# ---- format-valid secrets in the places they really turn up ------------------------------
_BASE62 = string.digits + string.ascii_uppercase + string.ascii_lowercase


def _base62(value: int, width: int) -> str:
    out = ""
    while value:
        value, rem = divmod(value, 62)
        out = _BASE62[rem] + out
    return out.rjust(width, "0")


def github_token(body: str, prefix: str = "ghp_") -> str:
    """GitHub's format: prefix, 30 base62 characters, then their CRC32 in 6 base62 digits."""
    import zlib

    return f"{prefix}{body}{_base62(zlib.crc32(body.encode()), 6)}"


VALID_SECRETS = st.one_of(
    st.text(alphabet=_BASE62, min_size=30, max_size=30).flatmap(
        lambda b: st.sampled_from(["ghp_", "gho_", "ghs_"]).map(lambda p: github_token(b, p))),
    st.text(alphabet=string.ascii_uppercase + "234567", min_size=16, max_size=16).map(
        lambda b: "AKIA" + b),
    st.text(alphabet=_BASE62, min_size=24, max_size=24).map(lambda b: "sk_live_" + b),
    st.text(alphabet=_BASE62 + "-_", min_size=93, max_size=93).map(
        lambda b: "sk-ant-api03-" + b + "AA"),
    st.text(alphabet=_BASE62 + "-_", min_size=35, max_size=35).map(lambda b: "AIza" + b),
    st.tuples(st.integers(10**9, 10**10), st.integers(10**9, 10**10),
              st.text(alphabet=_BASE62, min_size=24, max_size=24)).map(
        lambda t: f"xoxb-{t[0]}-{t[1]}-{t[2]}"),
)
PLACES = [
    "We set the token to {s} yesterday.",
    '{{"api_key": "{s}", "retries": 3}}',
    "export SERVICE_TOKEN={s}\n",
    "curl -H 'Authorization: Bearer {s}' https://api.example.com/v1/items",
    "https://user:{s}@git.example.com/org/repo.git",
]


@settings(max_examples=300, deadline=None)
@given(VALID_SECRETS, st.sampled_from(PLACES))
def test_format_valid_secrets_are_caught_wherever_they_stand(secret: str, place: str):
    out = redact(place.format(s=secret))
    assert secret not in out and "[REDACTED:" in out


def test_a_checksummed_github_token_is_caught():
    token = github_token("a" * 30)
    assert len(token) == 40
    out = redact(f"token {token}")
    assert token not in out and out.startswith("token [REDACTED:")


# The scan's shortcuts (a literal test before a pattern, stems before the key-word
# alternation, runs of token characters before the token pattern) must find exactly what the
# full scans find. Texts built from the pieces the patterns start on, secrets and noise.
_PIECES = st.sampled_from([
    "password=", "PASSWORD: ", "Bearer ", "basic ", "mysql -p", "curl -u a:", "://u:p@h",
    "--token ", "AccountKey=", "aws_secret_access_key=", "xoxb-", "glpat-", "SG.", "npm_",
    "eyJ", "_live_", "the password is ", "api_key", "authToken", "secret", "pwd", "\n", " ",
    "=", '"', "'", "İ", "ß", "é", "-----BEGIN RSA PRIVATE KEY-----\n", "A" * 20, "b7" * 9,
])
_MIXED = st.lists(st.one_of(_PIECES, SECRETS, PROSE), max_size=12).map("".join)


@settings(max_examples=300, deadline=None)
@given(_MIXED)
def test_the_scan_shortcuts_find_what_the_full_scans_find(text: str):
    from kenning.core import redact as scan

    low = scan._lower_same_length(text)
    assert [m.span() for m in scan._key_words(low)] == \
        [m.span() for m in scan._KEY_WORD.finditer(low)]
    assert [m.span() for m in scan._tokens(text)] == [m.span() for m in scan._TOKEN.finditer(text)]
    for (_kind, pattern), literals in zip(scan._KNOWN, scan._KNOWN_LITERALS, strict=True):
        if pattern.search(text):
            assert any(literal in text for literal in literals)
    guarded = [(scan._URL_CREDENTIALS, text, ("://",)), (scan._AWS_SECRET, low, ("aws",)),
               (scan._AUTHORIZATION, low, ("bearer", "basic")),
               (scan._PROSE_PASSWORD, low, ("pass",)), (scan._FLAG, low, ("--",))]
    guarded += [(pattern, text, (literal,)) for literal, pattern in scan._CLI_PASSWORDS]
    for pattern, subject, literals in guarded:
        if pattern.search(subject):
            assert any(literal in subject for literal in literals)
