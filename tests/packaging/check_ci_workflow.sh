#!/usr/bin/env bash
# check_ci_workflow.sh WORKFLOW: the CI workflow is valid YAML that yamllint accepts, and has
# the shape GitHub Actions needs: on/jobs, each job with runs-on and steps, each step with
# exactly one of uses/run; a Linux and a macOS `./dev test` job, and a macOS job that runs
# macdeployqt and uploads the bundle. (actionlint is not a Debian package.)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
wf=$1
[ -f "$wf" ] || fail "$wf is missing"
need yamllint yamllint
yamllint -d '{extends: default, rules: {line-length: {max: 120}, document-start: disable, truthy: {check-keys: false}}}' "$wf" ||
    fail "$wf: yamllint found problems (above)"
# Debian's python3 with python3-yaml (yamllint depends on both), not whatever python3 is first
# on PATH (a pyenv or venv one may lack yaml).
[ -x /usr/bin/python3 ] || fail "/usr/bin/python3 is missing (Debian package python3, which yamllint depends on)"
/usr/bin/python3 - "$wf" <<'PY' || exit 1
import sys, yaml
path = sys.argv[1]
def fail(msg):
    print(f"FAIL: {path}: {msg}", file=sys.stderr)
    sys.exit(1)
doc = yaml.safe_load(open(path))
if not isinstance(doc, dict):
    fail("not a mapping")
if "on" not in doc and True not in doc:  # YAML 1.1 reads a bare `on` as true
    fail("no 'on' triggers")
jobs = doc.get("jobs")
if not isinstance(jobs, dict) or not jobs:
    fail("no jobs")
for name, job in jobs.items():
    if not isinstance(job, dict) or "runs-on" not in job:
        fail(f"job '{name}' has no runs-on")
    steps = job.get("steps")
    if not isinstance(steps, list) or not steps:
        fail(f"job '{name}' has no steps")
    for i, st in enumerate(steps):
        if not isinstance(st, dict) or (("uses" in st) == ("run" in st)):
            fail(f"job '{name}' step {i + 1} needs exactly one of 'uses' and 'run'")
def runs(job):
    return "\n".join(str(s.get("run", "")) for s in job["steps"])
def uses(job):
    return [str(s.get("uses", "")) for s in job["steps"]]
linux = [n for n, j in jobs.items() if "ubuntu" in str(j["runs-on"]) and "./dev test" in runs(j)]
mac = [n for n, j in jobs.items() if "macos" in str(j["runs-on"]) and "./dev test" in runs(j)]
app = [n for n, j in jobs.items() if "macos" in str(j["runs-on"]) and "macdeployqt" in runs(j)
       and any(u.startswith("actions/upload-artifact@") for u in uses(j))]
if not linux:
    fail("no Linux job running ./dev test")
if not mac:
    fail("no macOS job running ./dev test")
if not app:
    fail("no macOS job running macdeployqt and uploading the bundle")
for n, j in jobs.items():
    for u in uses(j):
        if u and "@" not in u:
            fail(f"job '{n}' uses '{u}' without a version")
print(f"{path}: {len(jobs)} jobs ({', '.join(jobs)}) look right")
PY
