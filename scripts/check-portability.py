#!/usr/bin/env python3
"""Flags Glibc-only symbols used outside `#if canImport(Glibc)` / `#if os(Linux)` in Sources and
Tests, so that the package and its tests keep compiling on Apple platforms, which CI cannot build.

A line is guarded when an enclosing conditional branch that is taken only on Linux holds it: the
`#if`/`#elseif` branch whose condition names canImport(Glibc), canImport(Musl) or os(Linux) (and
not negated), never its `#else`.

It also keeps every lock ThreadSanitizer-visible: shared state is guarded by `Lock`
(SpotifyLinkSupport), never a raw `Mutex`, except in Lock.swift itself and in the stress child
that shows the difference.

    scripts/check-portability.py        # exit 1 with file:line of each unguarded use
"""
import glob, os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Names that exist in Glibc's Swift overlay but not in Darwin's (or differ in type there).
GLIBC_ONLY = [
    (re.compile(r"\bMSG_NOSIGNAL\b"), "MSG_NOSIGNAL (Darwin has SO_NOSIGPIPE)"),
    (re.compile(r"\bSOCK_(STREAM|DGRAM|RAW)\.rawValue\b"), "SOCK_*.rawValue (an Int32 on Darwin)"),
    (re.compile(r"^\s*import Glibc\b"), "import Glibc"),
    (re.compile(r"\bGlibc\."), "Glibc."),
    (re.compile(r"\b(epoll_\w+|inotify_\w+|eventfd|signalfd|prctl|sched_getaffinity|__errno_location)\s*\("),
     "a Linux-only system call"),
    (re.compile(r"\b(O_TMPFILE|O_PATH|SOCK_CLOEXEC|SOCK_NONBLOCK)\b"), "a Linux-only flag"),
    (re.compile(r"\b(stat64|lstat64|fstat64)\b"), "a Linux-only stat"),
]
LINUX_ONLY = re.compile(r"(?<!!)(canImport\((Glibc|Musl)\)|os\(Linux\))")


def problems(path):
    found = []
    stack = []  # per open #if: whether the branch taken now is Linux-only
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        stripped = line.strip()
        if stripped.startswith("#if "):
            stack.append(bool(LINUX_ONLY.search(stripped)) and "||" not in stripped)
            continue
        if stripped.startswith("#elseif "):
            stack[-1] = bool(LINUX_ONLY.search(stripped)) and "||" not in stripped
            continue
        if stripped.startswith("#else"):
            stack[-1] = False
            continue
        if stripped.startswith("#endif"):
            stack.pop()
            continue
        code = line.split("//", 1)[0]
        if any(stack):
            continue
        for pattern, what in GLIBC_ONLY:
            if pattern.search(code):
                found.append(f"{os.path.relpath(path, ROOT)}:{number}: {what} outside #if canImport(Glibc) / os(Linux)")
    return found


RAW_MUTEX = re.compile(r"\bMutex\s*[<(]")
MUTEX_ALLOWED = {"Sources/SpotifyLinkSupport/Lock.swift", "Tests/Helpers/LockStressChild/LockStressChild.swift"}


def raw_mutexes(path):
    relative = os.path.relpath(path, ROOT)
    if relative in MUTEX_ALLOWED:
        return []
    return [f"{relative}:{number}: a raw Mutex; use Lock (SpotifyLinkSupport), which ThreadSanitizer can follow"
            for number, line in enumerate(open(path, encoding="utf-8"), 1)
            if RAW_MUTEX.search(line.split("//", 1)[0])]


files = [f for part in ("Sources", "Tests") for f in glob.glob(os.path.join(ROOT, part, "**", "*.swift"), recursive=True)]
issues = [issue for path in sorted(files) for issue in problems(path) + raw_mutexes(path)]
if issues:
    print("\n".join(issues), file=sys.stderr)
    sys.exit(1)
print(f"portability: {len(files)} Swift files use no Glibc-only symbol outside a Linux guard")
