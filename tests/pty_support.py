"""Run the symnorm command line on a pseudo-terminal, as a user's shell would (the progress
displays of ``check``, ``report`` and ``derive`` are drawn only there)."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path


def in_pty(args: list[str], cwd: Path | None = None, stdout_pipe: bool = False,
           columns: int = 120) -> tuple[int, str, str]:
    """Run symnorm with stderr (and stdout unless ``stdout_pipe``) on a pseudo-terminal of
    ``columns`` columns: (exit code, what the terminal saw, what the stdout pipe got)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "symnorm", *args], cwd=cwd, stdin=slave,
                            stdout=subprocess.PIPE if stdout_pipe else slave, stderr=slave)
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    piped = proc.stdout.read().decode() if stdout_pipe else ""
    proc.wait(timeout=60)
    os.close(master)
    return proc.returncode, seen.decode("utf-8", "replace"), piped
