"""Issue 15, item 9: the database and command-line credential idioms and the key formats the
scrubber missed, and its false-positive rate on the repository's real transcripts.

The transcripts in bench/data/transcripts are public Claude Code sessions; they hold no live
secret, so every line the scrubber changes there is counted as a false positive (an upper
bound: a few are example tokens that are fine to hide).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kenning.core.redact import find_secrets, redact

TRANSCRIPTS = Path(__file__).resolve().parents[1] / "bench" / "data" / "transcripts"
FALSE_POSITIVE_LIMIT = 0.01

CAUGHT = [
    ("export PGPASSWORD=s3cr3tPgPass && psql -h db", "s3cr3tPgPass", "password"),
    ("MYSQL_PWD=hunter2x9 mysql -u root app", "hunter2x9", "password"),
    ("DB_PASS=Xk9pLm2qRt", "Xk9pLm2qRt", "password"),
    ("REDIS_PASS: 'Rr3dis0nly'", "Rr3dis0nly", "password"),
    ("mysql -u root -pS3cretPw mydb", "S3cretPw", "password"),
    ('mysqldump -uroot -p"Dump3rPass" shop > shop.sql', "Dump3rPass", "password"),
    ("mariadb -h db -u app -pM4riaPass", "M4riaPass", "password"),
    ("curl -u admin:Sup3rS3cret https://api.example.com", "Sup3rS3cret", "password"),
    ("curl -s --user bob:pa55word https://api.example.com", "pa55word", "password"),
    ("redis-cli -h cache -a R3disPass! ping", "R3disPass!", "password"),
    ("sshpass -p Sh3llPass ssh deploy@host", "Sh3llPass", "password"),
    ("wget --http-password=W3tPass https://x", "W3tPass", "password"),
    ("the password is hunter2", "hunter2", "password"),
    ("The password for the admin account is `Tr0ub4dor`.", "Tr0ub4dor", "password"),
    ("the staging db password was Q7v!xk2p, rotate it", "Q7v!xk2p", "password"),
    ('password = "!Xk9#secretive"', "!Xk9#secretive", "password"),
    ("DB_PASSWORD=!Xk9secretive", "!Xk9secretive", "password"),
    ("password: %Tk9secretive", "%Tk9secretive", "password"),
    ("GITLAB_TOKEN=glpat-xY3kLm9pQr2sTu5vWz8a", "glpat-xY3kLm9pQr2sTu5vWz8a", None),
    ("use glpat-xY3kLm9pQr2sTu5vWz8a for the API", "glpat-xY3kLm9pQr2sTu5vWz8a",
     "gitlab_token"),
    ("SENDGRID=SG.aBcDeFgHiJkLmNoPqRsTuV.aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789AbCdEfG",
     "SG.aBcDeFgHiJkLmNoPqRsTuV.aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789AbCdEfG", None),
    ("key SG.aBcDeFgHiJkLmNoPqRsTuV.aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789AbCdEfG here",
     "SG.aBcDeFgHiJkLmNoPqRsTuV.aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789AbCdEfG", "sendgrid_key"),
    ("DefaultEndpointsProtocol=https;AccountName=acct;AccountKey="
     "Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYg==;"
     "EndpointSuffix=core.windows.net",
     "Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYg==",
     "azure_key"),
    ("Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;"
     "SharedAccessKey=dGhpc2lzYXNlY3JldGtleWZvcnRoZWJ1cw0123456789=",
     "dGhpc2lzYXNlY3JldGtleWZvcnRoZWJ1cw0123456789=", "azure_key"),
]


@pytest.mark.parametrize("text, secret, kind", CAUGHT, ids=[c[0][:40] for c in CAUGHT])
def test_database_and_cli_credential_idioms_are_redacted(text, secret, kind):
    out = redact(text)
    assert secret not in out, out
    if kind:
        assert f"[REDACTED:{kind}]" in out, out


LEFT_ALONE = [
    "mysql -u root -p mydb",  # -p alone prompts for the password
    "mysql -h db -P 3306 -u app",  # -P is the port
    "curl -u $USER:$TOKEN https://x",
    "the password is incorrect",
    "the password is stored in the vault",
    "the password is required",
    "bypass=1 compass: north",
    "def f(): pass",
    "--- PASS: TestEntireSessionID (0.00s)",
    '"pwd": "osc99"',
    "PWD=/home/dev/project",
    "password: %(db_password)s",
    "flags.PWD = *envFlags.PWD",
    "ls .git/objects/pack/pack-55cf3623300ca72249456929f0e828ceb0662147.pack",
]


@pytest.mark.parametrize("text", LEFT_ALONE)
def test_look_alikes_of_the_new_idioms_are_left_alone(text):
    assert redact(text) == text


def _transcript_lines() -> list[str]:
    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for item in value.values():
                yield from strings(item)
        elif isinstance(value, list):
            for item in value:
                yield from strings(item)

    lines = []
    for path in sorted(TRANSCRIPTS.rglob("*.jsonl")):
        for raw in path.read_text("utf-8", "replace").splitlines():
            try:
                record = json.loads(raw)
            except ValueError:
                continue
            message = record.get("message") if isinstance(record, dict) else None
            if isinstance(message, dict):
                lines += [ln for text in strings(message.get("content"))
                          for ln in text.splitlines() if ln.strip()]
    return lines


def test_the_false_positive_rate_on_the_real_transcripts_stays_at_most_one_percent():
    lines = _transcript_lines()
    assert len(lines) > 100_000  # the whole corpus, not an empty folder
    changed = sum(1 for line in lines if find_secrets(line))
    assert changed / len(lines) <= FALSE_POSITIVE_LIMIT, f"{changed} of {len(lines)} lines"
