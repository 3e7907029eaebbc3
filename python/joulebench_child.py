"""joulebench_child: a JouleBench protocol child and its phases, in one dependency-free module.

Shipped with JouleBench (Python 3.6 or later, the standard library only). Copy it next to your
script, or use the installed one (<prefix>/share/joulebench/python/joulebench_child.py).

    from joulebench_child import serve, phase

    model = load()                      # before `ready`: not measured

    def work(k):                        # `go k`: k passes over the jobs
        for _ in range(k):
            for x in inputs:
                with phase("forward"):
                    y = model(x)
                with phase("backward"):
                    y.backward()
        return k * len(inputs)          # decodes (or (decodes, "note"), or None: jobs * k)

    serve(work, jobs=len(inputs))

The protocol: the child prints ``ready <jobs>``, answers each ``go <k>`` with
``done <decodes> <wall-ns> [note]`` and ends on ``exit`` or end of input. While it serves,
``print()`` goes to stderr, so the work cannot corrupt the protocol.

Phases: ``with phase(name):`` names what runs inside it; a phase inside another is nested
("train/forward"). Markers (``mark NAME``) are written only when asked for: inside ``serve``, on
stdout, when JOULEBENCH_MARKS=1 (JouleBench sets it; the reference harness does not, so a child
run by it sends none and behaves exactly as without phases); elsewhere (a plain script run by
``measure --exec``), to the file JOULEBENCH_MARK_FILE names, one line per write; otherwise
nowhere. Names: 1 to 64 of A-Z a-z 0-9 _ . : / + - (other characters become '_').
"""

import os
import re
import sys
import threading
import time

__all__ = ["serve", "phase", "mark"]

_lock = threading.Lock()
_protocol = None  # serve()'s stdout while it serves
_open = []  # the phases open, outermost first (full names)
_file_fd = None
_file_failed = False
_bad = re.compile(r"[^A-Za-z0-9_.:/+-]")


def _clean(name):
    n = _bad.sub("_", str(name))[:64] or "_"
    return "_" if n == "-" else n


def _emit(name):
    """One marker line where it should go (the caller holds the lock)."""
    global _file_fd, _file_failed
    line = "mark " + name + "\n"
    if _protocol is not None:
        if os.environ.get("JOULEBENCH_MARKS") == "1":
            _protocol.write(line)
            _protocol.flush()
        return
    path = os.environ.get("JOULEBENCH_MARK_FILE")
    if not path or _file_failed:
        return
    if _file_fd is None:
        try:
            _file_fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as e:
            _file_failed = True
            sys.stderr.write("joulebench: cannot open JOULEBENCH_MARK_FILE %s: %s\n" % (path, e))
            return
    os.write(_file_fd, line.encode("ascii"))  # one line, one write


def mark(name):
    """Ends the phase that is open and opens `name` (at the outermost level); '-' opens none."""
    with _lock:
        _emit("-" if name == "-" else _clean(name))


class phase(object):
    """``with phase("forward"):`` -- `mark NAME` on entry; on exit the phase around it again
    (or ``mark -`` at the outermost level). Usable as a decorator too."""

    def __init__(self, name):
        self.name = _clean(name)

    def __enter__(self):
        with _lock:
            full = self.name if not _open else (_open[-1] + "/" + self.name)[:64]
            _open.append(full)
            _emit(full)
        return self

    def __exit__(self, *exc):
        with _lock:
            if _open:
                _open.pop()
            _emit(_open[-1] if _open else "-")
        return False

    def __call__(self, fn):
        def wrapped(*args, **kwargs):
            with phase(self.name):
                return fn(*args, **kwargs)

        return wrapped


_GO = re.compile(r"^go ([0-9]+)$")


def serve(work, jobs=1, stdin=None, stdout=None):
    """The serving loop: ``ready <jobs>``, then each ``go k`` runs ``work(k)`` and answers
    ``done``. work returns the decodes, (decodes, note), or None (jobs * k). Returns the exit
    status (0 after ``exit`` or end of input; 4 for a bad line; 5 when work raises), so
    ``sys.exit(serve(...))`` ends the child as the protocol expects."""
    global _protocol
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    saved = sys.stdout
    with _lock:
        _protocol = out
    if out is saved:
        sys.stdout = sys.stderr  # the work's print() must not reach the protocol
    try:
        out.write("ready %d\n" % int(jobs))
        out.flush()
        while True:
            line = inp.readline()
            if not line:
                return 0
            line = line.strip()
            if line == "exit":
                return 0
            m = _GO.match(line)
            if not m:
                sys.stderr.write("joulebench child: expected 'go <k>' (k a non-negative integer) or 'exit', got %r\n" % line)
                sys.stderr.flush()
                return 4
            k = int(m.group(1))
            t0 = time.monotonic()
            try:
                result = work(k)
            except Exception as e:  # the run ends as a failing child's does
                sys.stderr.write("joulebench child: the work failed: %r\n" % (e,))
                sys.stderr.flush()
                return 5
            wall_ns = int((time.monotonic() - t0) * 1e9)
            note = ""
            if result is None:
                decodes = int(jobs) * k
            elif isinstance(result, tuple):
                decodes, note = int(result[0]), str(result[1])
            else:
                decodes = int(result)
            out.write("done %d %d%s\n" % (decodes, wall_ns, (" " + note) if note else ""))
            out.flush()
    finally:
        sys.stdout = saved
        with _lock:
            _protocol = None


if __name__ == "__main__":
    # A small example child: `python3 joulebench_child.py` serves 2 jobs of busy work per pass,
    # each in two phases.
    def _demo(k):
        for _ in range(k * 2):
            with phase("sum"):
                sum(range(20000))
            with phase("sort"):
                sorted(range(20000, 0, -1))
        return k * 2

    sys.exit(serve(_demo, jobs=2))
