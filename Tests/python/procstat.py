"""What /proc says about a process: memory, CPU time, open files, limits (Linux). For the resource-bound tests."""

from __future__ import annotations

import os


def _status(pid: int, key: str) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise KeyError(key)


def rss_mb(pid: int) -> float:
    """Resident memory now, in MiB."""
    return _status(pid, "VmRSS") / 1024


def peak_rss_mb(pid: int) -> float:
    """The most resident memory the process ever had (VmHWM), in MiB."""
    return _status(pid, "VmHWM") / 1024


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def open_file_limit(pid: int) -> tuple[int, int]:
    """(soft, hard) RLIMIT_NOFILE of the process."""
    with open(f"/proc/{pid}/limits") as f:
        for line in f:
            if line.startswith("Max open files"):
                soft, hard = line.split()[3:5]
                return int(soft), int(hard)
    raise KeyError("Max open files")
