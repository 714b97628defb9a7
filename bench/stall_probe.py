"""The `SELECT 1` prober of bench.stall: one keep-alive client in its own process, one line per probe.

    python -m bench.stall_probe --port P [--interval 0.02]

Every `interval` seconds (start to start) it POSTs `SELECT 1` and follows next_uri to the end,
and prints `S <start>` before sending and `D <start> <seconds> <ok> <detail>` when answered;
`start` is time.monotonic(), the same clock in every process of the machine, so the harness
can place each probe in its cases' time windows. It runs until killed or its stdout closes.
A probe that waits forever on a server that never answers is visible to the harness as an `S`
line without its `D` line.
"""

from __future__ import annotations

import argparse
import http.client
import json
import sys
import time

AUTH = "Basic cm9vdDo="  # root with an empty password
BODY = json.dumps({"sql": "SELECT 1", "pagination": {"wait_time_secs": 1}}).encode()
HEADERS = {"Authorization": AUTH, "Content-Type": "application/json"}


def probe_once(conn: http.client.HTTPConnection) -> tuple[bool, str]:
    """One round trip; (succeeded, detail) where detail names a failure compactly."""
    conn.request("POST", "/v1/query", BODY, HEADERS)
    while True:
        response = conn.getresponse()
        data = response.read()
        if response.status >= 400:
            return False, f"HTTP{response.status}"
        answer = json.loads(data)
        if answer.get("error"):
            return False, f"code{answer['error'].get('code')}"
        if not answer.get("next_uri"):
            return answer.get("state") == "Succeeded", answer.get("state", "?")
        conn.request("GET", answer["next_uri"], headers={"Authorization": AUTH})


def run(port: int, interval: float, timeout: float) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    next_start = time.monotonic()
    while True:
        next_start = max(next_start + interval, time.monotonic())
        start = time.monotonic()
        print(f"S {start:.6f}", flush=True)
        try:
            ok, detail = probe_once(conn)
        except (OSError, http.client.HTTPException, ValueError) as exc:
            # A broken or timed-out connection: count the failure and reconnect.
            ok, detail = False, type(exc).__name__
            conn.close()
        print(f"D {start:.6f} {time.monotonic() - start:.6f} {int(ok)} {detail}", flush=True)
        time.sleep(max(0.0, next_start - time.monotonic()))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.stall_probe",
                                description=__doc__.split("\n")[0])
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--interval", type=float, default=0.02, help="seconds from probe to probe")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds one probe may wait")
    args = p.parse_args(argv)
    try:
        run(args.port, args.interval, args.timeout)
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
