"""The load test (load_test.py) at a size that fits CI: every request of many pipelining clients is answered
exactly once. Full size: see load_test.py's docstring (README, "Resource bounds and hostile input")."""

from load_test import report, run
from procstat import peak_rss_mb


def test_many_clients_each_request_answered_exactly_once(engine):
    # run() fails on a lost, duplicated or failed reply, or on a reply after the last one.
    figures = run(engine.rpc_endpoint, clients=16, requests=150)
    print(report(figures, peak_rss_mb(engine.proc.pid)))
