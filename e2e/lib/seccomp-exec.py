#!/usr/bin/python3
"""Runs a command under a system-call allow-list, applied with libseccomp as systemd applies a unit's
SystemCallFilter= (used by e2e/tests/unit-sandbox.test.ts).

Usage: seccomp-exec.py SPEC.json COMMAND [ARGS...]
SPEC: {"allow": [names], "known": [names], "errno": null | number, "umask": null | number}
- the listed calls are allowed;
- a call systemd does not know (not in @known) fails with ENOSYS, as systemd does since v247;
- any other call kills the process (SIGSYS), or fails with `errno` when SystemCallErrorNumber= is set.
Names this architecture lacks are skipped, as systemd skips them.
"""
import errno
import json
import os
import sys

import seccomp

spec_path, command = sys.argv[1], sys.argv[2:]
with open(spec_path, encoding="utf-8") as spec_file:
    spec = json.load(spec_file)

default = seccomp.KILL_PROCESS if spec["errno"] is None else seccomp.ERRNO(spec["errno"])
allowed = set(spec["allow"])
known = set(spec["known"])
native = seccomp.Arch()  # the native architecture (SystemCallArchitectures=native)

rules = seccomp.SyscallFilter(default)
for name in sorted(allowed):
    try:
        rules.add_rule_exactly(seccomp.ALLOW, name)
    except (ValueError, RuntimeError, OSError):
        pass  # not a call on this architecture
# Every call number this architecture has, by name: the ones systemd does not know answer ENOSYS.
for number in range(0, 1024):
    try:
        name = seccomp.resolve_syscall(native, number)
    except (ValueError, RuntimeError, OSError):
        continue
    name = name.decode() if isinstance(name, bytes) else name
    if name in allowed or name in known:
        continue
    try:
        rules.add_rule_exactly(seccomp.ERRNO(errno.ENOSYS), name)
    except (ValueError, RuntimeError, OSError):
        pass
rules.load()
if spec.get("umask") is not None:
    os.umask(spec["umask"])  # UMask=
os.execv(command[0], command)
