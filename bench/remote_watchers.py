#!/usr/bin/env python3
"""The cost of watchers to a served run (docs/BENCHMARKS.md, issue 35).

Runs `joulebench-cli measure --serve 127.0.0.1:0` (the sim counter at 10 ms, the fake decoder
child) with 0, 1 and 10 watchers that connect at start and read everything, and prints the
sampler's lateness (from the record), the CLI's own CPU time (its /proc stat, read when it has
exited and before it is reaped: its threads only, not its child's) and the CLI's and child's
together (wait4's rusage) per run.
Usage: bench/remote_watchers.py BUILD_DIR [ROUNDS]
"""
import json, os, re, socket, subprocess, sys, tempfile, threading, time

build = sys.argv[1] if len(sys.argv) > 1 else "build"
rounds = sys.argv[2] if len(sys.argv) > 2 else "6"
cli = os.path.join(build, "bin", "joulebench-cli")
child = os.path.join(build, "tests", "fakechild")


def watch(port, token, got):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall((json.dumps({"format": "joulebench-remote", "version": 1, "token": token}) + "\n").encode())
    n = 0
    while True:
        b = s.recv(65536)
        if not b:
            break
        n += len(b)
        if b'"type":"end"' in b:
            break
    got.append(n)


def run(watchers):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        args = [cli, "measure", "--label", "bench", "--rounds", rounds, "--k", "1", "--idle-s", "0.5",
                "--sample-ms", "10", "--counter", "sim", "--samples", "--out", out, "--journal", "",
                "--no-library", "--serve", "127.0.0.1:0", "--", child, "serve", "--jobs", "2", "--job-ms", "250"]
        p = subprocess.Popen(args, stderr=subprocess.PIPE, text=True)
        line = p.stderr.readline()
        m = re.search(r"serving on 127\.0\.0\.1:(\d+) token ([0-9a-f]+)", line)
        if not m:
            sys.exit("no serving line: " + line)
        got, threads = [], []
        for _ in range(watchers):
            t = threading.Thread(target=watch, args=(int(m.group(1)), m.group(2), got))
            t.start()
            threads.append(t)
        rest = p.stderr.read()
        # Exited, not yet reaped: its stat still holds its own CPU time (fields 14 and 15,
        # utime and stime in clock ticks; its child's is in 16 and 17).
        os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)
        with open(f"/proc/{p.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        _, status, ru = os.wait4(p.pid, 0)
        for t in threads:
            t.join()
        if status != 0:
            sys.exit("the run failed: " + rest)
        rec = json.load(open(out))
        s = next(iter(rec["sampler"].values())) if isinstance(rec["sampler"], dict) else rec["sampler"][0]
        return s, own, ru.ru_utime + ru.ru_stime, got


print("| watchers | intervals | p50 late | p99 late | max late | missed | CLI's own CPU | CPU (CLI + child) | bytes per watcher |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for n in (0, 1, 10):
    s, own, cpu, got = run(n)
    print(f"| {n} | {s['intervals']} | {s['lateness_p50_ns']/1000:.0f} µs | {s['lateness_p99_ns']/1000:.0f} µs | "
          f"{s['lateness_max_ns']/1000:.0f} µs | {s['missed_deadlines']} | {own:.2f} s | {cpu:.2f} s | "
          f"{(sum(got)//len(got)) if got else 0} |")
