# ruff: noqa: S603 (the benchmark runs its own fixed tools: gunicorn, hey, psql, manage.py)
"""Load against gunicorn with `hey` (Debian's package): a closed loop (C connections as fast as answers come)
and a fixed offered rate, each bounded in time; per-request figures from hey's CSV, so every percentile is
ours. Also the export's time to first byte, total and size, and the workers' RSS from /proc."""

from __future__ import annotations

import csv
import http.client
import io
import subprocess
import time
from pathlib import Path


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def hey(url: str, *, seconds: int, connections: int, rate: float | None = None) -> dict[str, float]:
    """One bounded run: p50/p95/p99 in ms, req/s, non-2xx count. `rate` is the total offered req/s."""
    cmd = ["hey", "-z", f"{seconds}s", "-c", str(connections), "-t", "10", "-disable-compression", "-o", "csv"]
    if rate:
        cmd += ["-q", f"{rate / connections:g}"]
    out = subprocess.run([*cmd, url], capture_output=True, text=True, timeout=seconds + 30, check=True).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    times = [float(r["response-time"]) * 1000 for r in rows]
    bad = sum(1 for r in rows if not r["status-code"].startswith("2"))
    span = max((float(r["offset"]) + float(r["response-time"]) for r in rows), default=seconds)
    return {
        "p50_ms": pct(times, 50),
        "p95_ms": pct(times, 95),
        "p99_ms": pct(times, 99),
        "rps": len(rows) / max(span, 1e-9),
        "errors": bad,
        "n": len(rows),
    }


def probe(host: str, port: int, path: str, timeout: float = 60) -> dict[str, float]:
    """One request read as a stream: time to first byte and total in seconds, bytes, status."""
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    started = time.perf_counter()
    conn.request("GET", path, headers={"Host": host})
    response = conn.getresponse()
    first = response.read(1)
    ttfb = time.perf_counter() - started
    size = len(first)
    while chunk := response.read(65536):
        size += len(chunk)
    total = time.perf_counter() - started
    conn.close()
    return {"ttfb_s": ttfb, "total_s": total, "bytes": size, "status": response.status}


def workers_rss_mb(master_pid: int) -> dict[int, float]:
    """Each gunicorn worker's resident memory (MB), from /proc."""
    children = Path(f"/proc/{master_pid}/task/{master_pid}/children").read_text().split()
    out = {}
    for pid in map(int, children):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                out[pid] = int(line.split()[1]) / 1024
    return out
