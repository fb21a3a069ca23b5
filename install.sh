#!/usr/bin/env bash
# Set up kenning in ./.venv. Idempotent: re-running only reinstalls when pyproject.toml changed.
#   ./install.sh         the tool
#   ./install.sh --dev   the tool plus the test tools (pytest, hypothesis, ruff)
set -euo pipefail
cd "$(dirname "$0")"

extras=""
for arg in "$@"; do
  case "$arg" in
    --dev) extras="[dev]" ;;
    -h|--help) sed -n '2,4p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $arg (use --dev)" >&2; exit 1 ;;
  esac
done

find_python() {
  for candidate in "${PYTHON:-}" python3.13 python3.12 python3.11 python3; do
    [ -n "$candidate" ] || continue
    command -v "$candidate" >/dev/null 2>&1 || continue
    if "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
      echo "$candidate"; return 0
    fi
  done
  return 1
}

if [ -x .venv/bin/python ] && ! .venv/bin/python -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
  echo "install.sh: .venv uses a Python older than 3.11; recreating it" >&2
  rm -rf .venv
fi
if [ ! -x .venv/bin/python ]; then
  if ! py=$(find_python); then
    echo "install.sh: kenning needs Python 3.11 or newer; install it (or set PYTHON=/path/to/python3.11) and re-run" >&2
    exit 1
  fi
  "$py" -m venv .venv
fi

stamp=".venv/.kenning-install-stamp"
want="$(cat pyproject.toml | .venv/bin/python -c 'import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')$extras"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip >/dev/null 2>&1 || true
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${extras}"
  echo "$want" > "$stamp"
fi

# Compile kenning's modules once: where PYTHONDONTWRITEBYTECODE is set, Python never writes
# them itself, and every `kenning` command would compile its imports again (100-250 ms).
.venv/bin/python -m compileall -q src >/dev/null

.venv/bin/kenning doctor

cat <<MSG

kenning is installed in $(pwd)/.venv.
Next:
  .venv/bin/kenning add "Tests run with ./install.sh --dev && .venv/bin/python -m pytest"
  .venv/bin/kenning search "how do I run the tests"
Use it from Claude Code (this folder is the plugin):
  claude plugin marketplace add $(pwd)
  claude plugin install kenning@kenning
MSG
