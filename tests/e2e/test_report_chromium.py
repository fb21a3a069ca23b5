"""The HTML report in a real browser: Debian's headless chromium, driven over DevTools.

Chromium talks the DevTools protocol on a pipe (`--remote-debugging-pipe`: commands on fd 3,
replies on fd 4, NUL-separated JSON), so no port, no websocket library and no network. The
test loads the report from a file URL with the Network, Runtime and Log domains enabled,
then checks: a screenshot is taken, the page text holds every section, nothing was logged as
an error, and every request the page made stayed inside the file (file: or data: URLs). A
control page with an external image proves the request check can fail. Skips with the reason
when chromium is not installed (`.ci/run` installs it).
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import subprocess
import time
from pathlib import Path

import pytest

from .clients import find_chromium

pytestmark = pytest.mark.e2e

CHROMIUM = find_chromium()

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--mute-audio", "--hide-scrollbars"]
TIMEOUT = 60.0


class DevTools:
    """A minimal DevTools-protocol client over chromium's debugging pipe."""

    def __init__(self, profile: Path):
        cmd_read, self._cmd_write = os.pipe()
        self._reply_read, reply_write = os.pipe()
        # Move the child's ends above 10 so dup2 onto 3 and 4 cannot clobber one of them.
        high_read = fcntl.fcntl(cmd_read, fcntl.F_DUPFD_CLOEXEC, 10)
        high_write = fcntl.fcntl(reply_write, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(cmd_read)
        os.close(reply_write)

        def wire_pipes() -> None:  # in the child: the protocol wants fds 3 and 4
            os.dup2(high_read, 3)  # dup2 leaves the copies inheritable; the originals
            os.dup2(high_write, 4)  # are close-on-exec

        self.proc = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-pipe",
             "--window-size=1200,900", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            close_fds=False, preexec_fn=wire_pipes,
        )
        os.close(high_read)
        os.close(high_write)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict] = []

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self._next_id += 1
        message: dict = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._cmd_write, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise AssertionError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str, timeout: float = TIMEOUT) -> dict:
        for event in self.events:
            if event.get("method") == method:
                return event
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            event = self._read(deadline - time.monotonic())
            self.events.append(event)
            if event.get("method") == method:
                return event
        raise AssertionError(f"chromium never sent {method}")

    def _read(self, timeout: float = TIMEOUT) -> dict:
        deadline = time.monotonic() + timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._reply_read], [], [], max(left, 0))
            if not ready:
                raise AssertionError("chromium stopped answering on the DevTools pipe")
            chunk = os.read(self._reply_read, 1 << 20)
            if not chunk:
                raise AssertionError("chromium closed the DevTools pipe")
            self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(raw)

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except (AssertionError, OSError):
            pass
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._cmd_write, self._reply_read):
            try:
                os.close(fd)
            except OSError:
                pass


def load(page: Path, profile: Path) -> dict:
    """Open `page` and return its text, a screenshot, console errors and requests."""
    tools = DevTools(profile)
    try:
        target = tools.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = tools.send("Target.attachToTarget", {"targetId": target,
                                                       "flatten": True})["sessionId"]
        for domain in ("Page", "Network", "Runtime", "Log"):
            tools.send(f"{domain}.enable", session=session)
        tools.send("Page.navigate", {"url": page.as_uri()}, session=session)
        tools.wait_for("Page.loadEventFired")
        text = tools.send("Runtime.evaluate", {"expression": "document.body.innerText",
                                               "returnByValue": True},
                          session=session)["result"]["value"]
        shot = tools.send("Page.captureScreenshot", {"format": "png",
                                                     "captureBeyondViewport": True},
                          session=session)
        time.sleep(0.2)  # let late console or log events arrive
        tools.send("Runtime.evaluate", {"expression": "1"}, session=session)
        events = [e for e in tools.events if e.get("sessionId") == session]
    finally:
        tools.close()
    errors = []
    for event in events:
        params = event.get("params", {})
        if event["method"] == "Runtime.exceptionThrown":
            errors.append(params["exceptionDetails"].get("text"))
        elif event["method"] == "Runtime.consoleAPICalled" and params.get("type") in (
                "error", "assert", "warning"):
            errors.append(str(params.get("args")))
        elif event["method"] == "Log.entryAdded" and params["entry"]["level"] in (
                "error", "warning"):
            errors.append(params["entry"].get("text"))
    requests = [e["params"]["request"]["url"] for e in events
                if e["method"] == "Network.requestWillBeSent"]
    return {"text": text, "png": base64.b64decode(shot["data"]), "errors": errors,
            "requests": requests}


def leaving(requests: list[str]) -> list[str]:
    return [url for url in requests if not url.startswith(("file:", "data:", "about:"))]


def test_the_report_renders_offline_in_chromium(kenning, repo, tmp_path):
    from kenning.insight.report import SECTIONS
    from test_report import seed

    seed(kenning, repo)
    page = tmp_path / "report.html"
    assert kenning("report", "-o", str(page)).code == 0
    seen = load(page, tmp_path / "profile")
    shot = tmp_path / "report.png"
    shot.write_bytes(seen["png"])
    assert seen["png"].startswith(b"\x89PNG\r\n\x1a\n") and len(seen["png"]) > 10_000
    for _, title in SECTIONS:
        assert title in seen["text"], title
    assert "Always squash commits before merging" in seen["text"]
    assert seen["errors"] == []
    assert seen["requests"] and leaving(seen["requests"]) == []


def test_the_checks_catch_a_page_that_reaches_out_or_logs_errors(tmp_path):
    page = tmp_path / "leaky.html"
    page.write_text('<!doctype html><html><body><p>hi</p>'
                    '<img src="http://kenning-test.invalid/pixel.png">'
                    '<script>console.error("boom")</script></body></html>',
                    encoding="utf-8")
    seen = load(page, tmp_path / "profile")
    assert leaving(seen["requests"]) == ["http://kenning-test.invalid/pixel.png"]
    assert any("boom" in str(e) for e in seen["errors"])
