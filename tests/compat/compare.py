# SPDX-License-Identifier: MIT
"""What the compat suite reads in a program's output (docs/compat.md, "Result lines").

Two checks, both on stdout and stderr together as one text:

- verdict(): a line in which the program says that it failed ("Test failed!", "... FAILED",
  "mismatches", "do not match", "Invalid item", ...): FAILURE_VERDICTS, with NOT_VERDICTS for
  the lines that look like one and are not ("0 mismatches", "Test Results: 0 Failures", "failed as
  expected"). A line the reference GPU printed too is no verdict (simpleAssert's expected asserts).
- compare(): the program's result lines against a GPU's (gpu-truth/samples/NAME.h100.txt). Lines
  that are not result lines are left out by a documented list of patterns (NOT_RESULT_LINES:
  layout, timings, device model, host machine) after two masks (MASKS: the program's own path and
  the device's name). The lines a kernel prints (found by the printf formats in the program's
  __global__/__device__ functions, and device assertion messages) come in no defined order and are
  compared as a multiset; every other line in order. Each difference is explained when a pattern of
  the program's in tests/compat/differences.txt matches it, which gives the reason.
"""
import collections
import dataclasses
import difflib
import pathlib
import re

# Masks, applied to both sides before anything else: (pattern, replacement, why).
MASKS = (
    # The simulator names its device "cusim simulated NVIDIA H100 80GB HBM3 (sm_90)".
    (re.compile(r"cusim simulated [^\"\]\[<>]*? \(sm_\d+\)"), "<device>", "device name"),
    (re.compile(r"\b(?:NVIDIA|Tesla|Quadro|GeForce)(?: [A-Z0-9][\w-]*)+"), "<device>", "device name"),
)

# Lines that are not result lines: (name, pattern, why). Searched in each masked line.
NOT_RESULT_LINES = (
    ("layout", re.compile(r"^\s*$"), "blank lines (and trailing blanks, stripped from every line)"),
    ("timing", re.compile(
        r"(?i)\b(?:time[ds]?|timings?|timer|elapsed|throughput|bandwidth|performance|per second|clocks?|speedup)\b"
        r"|\b(?:msecs?|ms|secs?|seconds|usecs?)\b|\(us\)|\d\s*(?:ms|us|s)\b|\w/s(?:ec)?\b"),
     "timings and rates: any line with a time, clock or rate word or unit"),
    ("device model", re.compile(
        r"(?i)multi-?processors?|\bMP\(s\)|\bcores\b|compute capabilit|\bcapability\b|\bSM \d+\.\d+|\bsm_\d+"
        r"|clock rate|driver version|runtime version|<device>|\bHopper\b|\bAmpere\b"),
     "device model: name, SM count and cores, compute capability, clocks, driver and runtime versions"),
    ("host machine", re.compile(r"(?i)OS_System_Type|OS Info|host CPUs"),
     "host machine: operating system, CPU count"),
)

# Failure verdicts a sample prints (collected from the samples' own printf strings).
FAILURE_VERDICTS = re.compile(
    r"\bFAIL(?:ED|URE)?\b"                      # "Result = FAIL", "... FAILED", "TEST FAILURE"
    r"|\b[Ff]ailed\b|\b[Ff]ailure\b"            # "Test failed!", "atomicAdd failed", "Failure"
    r"|\b[1-9]\d* [Ff]ailures\b"                # "Test Results: 1 Failures"
    r"|[Mm]ismatch|MISMATCH"                    # "... mismatches GPU max", "Compare MISMATCH"
    r"|\bdo(?:es)? not match\b|DON'T [Mm]atch"  # histogram, scan
    r"|\bInvalid item\b|\bERROR!|\bError!|^\s*Error\b|\bCUDA error\b|\bCuda error\b"
    r"|\bgrid size computation incorrect\b")
NOT_VERDICTS = re.compile(
    r"(?i)\b(?:0|no|zero) (?:mismatch|failure|error|failed)"  # "0 mismatches", "0 Failures"
    r"|failed as expected")                                  # simpleAssert


def verdict(lines, reference=()):
    """The first line that says the program failed, or None. `reference`: the GPU's lines
    (masked), whose own verdict-looking lines are not failures."""
    known = {mask(line) for line in reference}
    # A kernel's failed assert is expected where the GPU's run had one too (simpleAssert); the
    # simulator words it its own way (docs/fidelity.md), so the kind of line is compared, not the text.
    asserts_expected = any(DEVICE_ASSERTION.search(line) for line in reference)
    for line in lines:
        if not FAILURE_VERDICTS.search(line) or NOT_VERDICTS.search(line) or mask(line) in known:
            continue
        if asserts_expected and DEVICE_ASSERTION.search(line):
            continue
        return line.strip()
    return None


def mask(line, program_path=None):
    line = line.rstrip()
    if program_path:
        line = line.replace(str(program_path), "build/" + pathlib.PurePath(program_path).name)
    for pattern, replacement, _ in MASKS:
        line = pattern.sub(replacement, line)
    return line


def not_result_line(line):
    """The name of the NOT_RESULT_LINES entry a masked line falls under, or None."""
    for name, pattern, _ in NOT_RESULT_LINES:
        if pattern.search(line):
            return name
    return None


def result_lines(text, program_path=None):
    """The masked result lines of one output, the `rc=N` line included."""
    out = []
    for line in text.splitlines():
        line = mask(line, program_path)
        if not_result_line(line) is None:
            out.append(line)
    return out


# ---- the lines a kernel prints -------------------------------------------------------------------

_TOKEN = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|[A-Za-z_]\w*|\S', re.S)
_CONVERSION = re.compile(r"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?(hh|h|ll|l|L|z|j|t)?([diouxXeEfFgGaAcsp%])")
_CONVERSION_PATTERN = {
    "d": r"[-+]?\d+", "i": r"[-+]?\d+", "u": r"\d+", "o": r"\d+", "x": r"[0-9a-f]+", "X": r"[0-9A-F]+",
    "c": r".", "s": r".*?", "p": r"\S+", "%": "%",
}
_FLOAT = r"[-+]?(?:[\d.]+(?:[eE][-+]?\d+)?|inf|nan|-?nan|INF|NAN)"
DEVICE_ASSERTION = re.compile(r"Assertion `.*` failed\.|device-side assertion")


def _unescape(literal):
    body = literal[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'"}.get(m.group(1), ""), body)


def device_formats(source_text):
    """The format strings of the printf calls in the __global__ and __device__ functions of one
    source text (adjacent string literals joined)."""
    formats = []
    depth = 0
    device_until = None  # the depth whose closing brace ends the device function we are in
    pending = False      # saw __global__/__device__, waiting for its body
    parens = 0
    tokens = [t for t in _TOKEN.findall(source_text) if not t.startswith(("//", "/*"))]
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t in ("__global__", "__device__") and device_until is None:
            pending = True
        elif t == "(":
            parens += 1
        elif t == ")":
            parens = max(0, parens - 1)
        elif t == ";" and parens == 0:
            pending = False
        elif t == "{":
            depth += 1
            if pending and device_until is None:
                device_until, pending = depth, False
        elif t == "}":
            if device_until == depth:
                device_until = None
            depth = max(0, depth - 1)
        elif t == "printf" and device_until is not None and i + 1 < len(tokens) and tokens[i + 1] == "(":
            j, text = i + 2, []
            while j < len(tokens) and tokens[j].startswith('"'):
                text.append(_unescape(tokens[j]))
                j += 1
            if text:
                formats.append("".join(text))
        i += 1
    return formats


def format_patterns(fmt):
    """One regular expression per line of a printf format that has at least 3 visible characters
    of its own (a line of a kernel's output is one of these, or starts or ends with one)."""
    patterns = []
    for piece in fmt.split("\n"):
        literal = _CONVERSION.sub("", piece)
        if len(literal.replace(" ", "").replace("\t", "")) < 3:
            continue
        regex, at = [], 0
        for m in _CONVERSION.finditer(piece):
            regex.append(re.escape(piece[at:m.start()]))
            conv = m.group(5)
            regex.append(r"\s*" + (_FLOAT if conv in "eEfFgGaA" else _CONVERSION_PATTERN[conv]) + r"\s*")
            at = m.end()
        regex.append(re.escape(piece[at:]))
        patterns.append(re.compile("".join(regex).strip()))
    return patterns


def device_line_patterns(source_dir):
    """The patterns of the lines a program's kernels print, from every source file under it."""
    patterns = [DEVICE_ASSERTION]
    for path in sorted(pathlib.Path(source_dir).rglob("*")):
        if path.suffix in (".cu", ".cuh", ".h", ".hpp", ".cpp") and path.is_file():
            for fmt in device_formats(path.read_text(errors="replace")):
                patterns.extend(format_patterns(fmt))
    return patterns


# ---- the comparison ------------------------------------------------------------------------------

@dataclasses.dataclass
class Difference:
    side: str     # "-": the GPU printed it and the program did not; "+": the other way round
    line: str
    reason: str   # why the difference is known (differences.txt), "" when it is not

    def __str__(self):
        return f"{self.side} {self.line}" + (f"  ({self.reason})" if self.reason else "")


def read_differences(path):
    """name -> [(pattern, reason)] from differences.txt: `NAME: REGEX  # reason`."""
    known = collections.defaultdict(list)
    if not path or not pathlib.Path(path).is_file():
        return known
    for number, line in enumerate(pathlib.Path(path).read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        entry, sep, reason = line.rpartition("  # ")
        name, colon, regex = entry.partition(": ")
        if not sep or not colon or not reason.strip():
            raise ValueError(f"{path}:{number}: expected `NAME: REGEX  # reason`")
        known[name.strip()].append((re.compile(regex.strip()), reason.strip()))
    return known


def compare(reference_text, output_text, device_patterns=(), known=(), program_path=None):
    """Every Difference between the reference's result lines and the output's."""
    def split(lines):
        device, host = [], []
        for line in lines:
            (device if any(p.search(line) for p in device_patterns) else host).append(line)
        return device, host

    ref_device, ref_host = split(result_lines(reference_text))
    out_device, out_host = split(result_lines(output_text, program_path))
    differences = []
    matcher = difflib.SequenceMatcher(None, ref_host, out_host, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            differences += [("-", line) for line in ref_host[i1:i2]] + [("+", line) for line in out_host[j1:j2]]
    ref_count, out_count = collections.Counter(ref_device), collections.Counter(out_device)
    differences += [("-", line) for line in (ref_count - out_count).elements()]
    differences += [("+", line) for line in (out_count - ref_count).elements()]

    def reason(line):
        return next((why for pattern, why in known if pattern.search(line)), "")
    return [Difference(side, line, reason(line)) for side, line in differences]


def summary(differences):
    """The table's "result lines as on the H100" cell."""
    unexplained = [d for d in differences if not d.reason]
    if unexplained:
        return f"no: {unexplained[0].side} {unexplained[0].line.strip()[:80]}" + (
            f" (+{len(unexplained) - 1} more)" if len(unexplained) > 1 else "")
    if differences:
        return f"yes, {len(differences)} explained"
    return "yes"
