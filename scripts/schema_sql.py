"""Regenerate src/kenning/index/schema.sql from the named migrations (after adding one).

Usage: .venv/bin/python scripts/schema_sql.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from kenning.index.db import SCHEMA_VERSION, connect, migrate_with_sqlite_utils
from kenning.index.schema import SCRIPT_PATH, dump

if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        db = connect(Path(tmp) / "index.db")
        migrate_with_sqlite_utils(db)
        SCRIPT_PATH.write_text(dump(db, SCHEMA_VERSION), encoding="utf-8")
        db.close()
    print(f"wrote {SCRIPT_PATH}")
