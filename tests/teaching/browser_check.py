#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""report.html in a real headless browser (Debian's chromium): the page's script must run with no
console message and no uncaught error, draw a section for every kernel of its inlined report, and
draw its pictures; a full-page screenshot (PNG) is kept.

    browser_check.py PAGE.html SCREENSHOT.png [--render TOOL REPORT.json] [--run PROGRAM]
                     [--kernel NAME]... [--expect-failure]

--render TOOL REPORT.json  first make PAGE.html from REPORT.json with TOOL (render_report_page)
--run PROGRAM     first run PROGRAM with CUSIM_REPORT=<PAGE.html's folder> (it must exit 0 and
                  write PAGE.html there, so PAGE.html must be named report.html)
--kernel NAME     also screenshot the page showing only kernel NAME (report.html#kernel=NAME)
--expect-failure WORDS  the checker's own test: exit 0 only when the page FAILS the check with a
                  reason that contains WORDS
Exit 0: passed. Exit 1: failed (the reasons are printed). Exit 77: chromium is not installed (skip).
"""
import html.parser
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77


class Dom(html.parser.HTMLParser):
    """What the test needs from the DOM chromium dumped after the page's script ran."""

    def __init__(self):
        super().__init__()
        self.root_attrs = {}
        self.kernel_sections = []
        self.svgs = 0
        self.report_json = ""
        self._in_report = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.root_attrs = attrs
        elif tag == "section" and "kernel" in (attrs.get("class") or "").split():
            self.kernel_sections.append(attrs.get("data-kernel"))
        elif tag == "svg":
            self.svgs += 1
        elif tag == "script" and attrs.get("id") == "cusim-report":
            self._in_report = True

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_report = False

    def handle_data(self, data):
        if self._in_report:
            self.report_json += data


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def run_browser(browser, profile, *args):
    # --no-sandbox: CI containers run as root, where chromium's sandbox refuses to start.
    command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
               f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def make_page(page, render, run):
    """Writes PAGE.html as the test asks: from a JSON file, or by a program's real run."""
    if not render and not run:
        return []
    os.makedirs(os.path.dirname(os.path.abspath(page)), exist_ok=True)
    if os.path.exists(page):
        os.remove(page)
    if render:
        done = subprocess.run([render[0], render[1], page], capture_output=True, text=True, timeout=60)
        print(done.stdout + done.stderr, end="")
        return [] if done.returncode == 0 else [f"{render[0]} exited with {done.returncode}"]
    if run:
        if os.path.basename(page) != "report.html":
            return ["--run needs PAGE to be DIR/report.html"]
        environment = dict(os.environ, CUSIM_REPORT=os.path.dirname(os.path.abspath(page)))
        done = subprocess.run([run], capture_output=True, text=True, timeout=600, env=environment)
        print(done.stdout + done.stderr, end="")
        return [] if done.returncode == 0 else [f"{run} exited with {done.returncode}"]
    return []


def check(page, screenshot, kernels):
    problems = []
    browser = chromium()
    if browser is None:
        print("browser_check: SKIP: chromium is not installed (Debian: apt-get install chromium)")
        sys.exit(SKIP)
    if not os.path.exists(page):
        return [f"no page at {page}"]
    url = pathlib.Path(page).resolve().as_uri()
    with tempfile.TemporaryDirectory(prefix="cusim-chromium-") as profile:
        dumped = run_browser(browser, profile, "--dump-dom", url)
        # Every console message the page causes (console.*, uncaught exceptions) is logged as CONSOLE.
        console = [line for line in dumped.stderr.splitlines() if ":CONSOLE" in line]
        for line in console:
            problems.append("console: " + line.split("] ", 1)[-1])
        if dumped.returncode != 0:
            problems.append(f"chromium --dump-dom exited with {dumped.returncode}")
        dom = Dom()
        dom.feed(dumped.stdout)
        if dom.root_attrs.get("data-cusim-status") != "ok":
            problems.append("the page's script did not finish (no data-cusim-status=\"ok\" on <html>)")
        try:
            report = json.loads(dom.report_json)
            expected = [k["name"] for k in report.get("kernels", [])]
        except ValueError as error:
            problems.append(f"the inlined report is not JSON: {error}")
            expected = []
        missing = [name for name in expected if name not in dom.kernel_sections]
        if missing:
            problems.append("kernels not shown: " + ", ".join(missing))
        if not expected:
            problems.append("the report has no kernel")
        # every kernel draws at least its grid/block and its occupancy pictures
        if dom.svgs < 2 * len(expected):
            problems.append(f"{dom.svgs} SVG pictures for {len(expected)} kernels (at least 2 each expected)")
        # The screenshot: the page's height is not known to the command line; 1400 wide and tall
        # enough for a few kernels.
        height = min(10000, 1200 + 2600 * max(1, len(expected)))
        shots = [(screenshot, url, height)]
        stem, suffix = os.path.splitext(screenshot)
        for kernel in kernels:
            if kernel not in expected:
                problems.append(f"no kernel {kernel} to screenshot")
            shots.append((f"{stem}-{kernel}{suffix}", url + "#kernel=" + kernel, 3000))
        for path, target, h in shots:
            shot = run_browser(browser, profile, f"--window-size=1400,{h}", f"--screenshot={os.path.abspath(path)}", target)
            data = pathlib.Path(path).read_bytes() if os.path.exists(path) else b""
            if shot.returncode != 0 or not data.startswith(b"\x89PNG\r\n\x1a\n") or len(data) < 10000:
                problems.append(f"no screenshot at {path} (chromium exited with {shot.returncode})")
            else:
                print(f"browser_check: screenshot {os.path.abspath(path)}")
    print(f"browser_check: {page}: {len(dom.kernel_sections)} kernel section(s) of {len(expected)}, "
          f"{dom.svgs} SVG pictures, {len(console)} console message(s)")
    return problems


def main():
    args = sys.argv[1:]
    expect_failure = None
    if "--expect-failure" in args:
        i = args.index("--expect-failure")
        expect_failure = args[i + 1] if i + 1 < len(args) else ""
        del args[i:i + 2]
    kernels, render, run = [], None, None
    try:
        while "--kernel" in args:
            i = args.index("--kernel")
            kernels.append(args[i + 1])
            del args[i:i + 2]
        if "--render" in args:
            i = args.index("--render")
            render = args[i + 1:i + 3]
            del args[i:i + 3]
        if "--run" in args:
            i = args.index("--run")
            run = args[i + 1]
            del args[i:i + 2]
    except IndexError:
        args = []
    if len(args) != 2 or (render is not None and len(render) != 2):
        print(__doc__, file=sys.stderr)
        return 2
    if chromium() is None:
        print("browser_check: SKIP: chromium is not installed (Debian: apt-get install chromium)")
        return SKIP
    problems = make_page(args[0], render, run)
    if not problems:
        problems = check(args[0], args[1], kernels)
    for p in problems:
        print("browser_check: FAIL: " + p)
    if expect_failure is not None:
        if any(expect_failure in p for p in problems):
            print(f"browser_check: the broken page failed the check ({expect_failure}), as it must")
            return 0
        print(f"browser_check: FAIL: a broken page did not fail the check with \"{expect_failure}\"")
        return 1
    if not problems:
        print("browser_check: OK")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
