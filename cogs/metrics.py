"""Operations metrics in Prometheus's format (prometheus_client), served on METRICS_PORT when it is set.

What an operator needs to see how the bot is doing: games by state, commands and clicks by kind, how long the
first response to an interaction took, what Discord refused (by HTTP status and JSON code), games that cannot be
shown, how late the timer loop fires, and how many AI decisions wait for the process pool. Counters and histograms
move as things happen; the gauges that describe the database (games by state, unreachable games) are read from the
store when Prometheus scrapes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from wsgiref.simple_server import WSGIServer

log = logging.getLogger(__name__)

# Seconds; Discord's deadline for a first response is 3.
FIRST_RESPONSE_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
TIMER_LAG_BUCKETS = (0.1, 0.5, 1.0, 5.0, 15.0, 60.0, 300.0, 900.0, 3600.0)
# How long a scrape waits for the store before leaving the database's gauges out.
SCRAPE_STORE_SECONDS = 5.0


class _StoreGauges(Collector):
    """Games by state and unreachable games, read from the store at each scrape (on the bot's event loop)."""

    def __init__(self, read: Callable[[], Coroutine[Any, Any, tuple[dict[str, int], int]]]) -> None:
        self.read = read
        self.loop: asyncio.AbstractEventLoop | None = None

    def collect(self) -> Iterator[GaugeMetricFamily]:
        if self.loop is None or self.loop.is_closed():
            return
        try:
            states, unreachable = asyncio.run_coroutine_threadsafe(self.read(), self.loop).result(SCRAPE_STORE_SECONDS)
        except Exception as exc:  # a scrape must not fail because the store is busy
            log.warning("metrics: the store did not answer in time (%s)", exc)
            return
        games = GaugeMetricFamily("kokeshi_games", "Games by state", labels=["state"])
        for state in ("lobby", "active", "finished", "cancelled", "broken"):
            games.add_metric([state], states.get(state, 0))
        yield games
        yield GaugeMetricFamily(
            "kokeshi_games_unreachable",
            "Games in progress marked unreachable (Discord refused them for a day)",
            value=unreachable,
        )

    def describe(self) -> list:
        return []


class Metrics:
    """The bot's metrics, in a registry of its own (several bots in one process do not mix)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.interactions = Counter(
            "kokeshi_interactions", "Commands and clicks received, by kind", ["type", "name"], registry=r
        )
        self.first_responses = Histogram(
            "kokeshi_first_response_seconds",
            "Time from an interaction's creation to the bot's first response (Discord allows 3 s)",
            ["name"],
            buckets=FIRST_RESPONSE_BUCKETS,
            registry=r,
        )
        self.refusals = Counter(
            "kokeshi_discord_refusals",
            "Requests Discord refused, by HTTP status and JSON code",
            ["status", "code"],
            registry=r,
        )
        self.marked = Counter(
            "kokeshi_games_marked_unreachable", "Games marked unreachable after a day of refusals", registry=r
        )
        self.timer_lag = Histogram(
            "kokeshi_timer_lag_seconds",
            "How late the timer loop fires a due timer",
            buckets=TIMER_LAG_BUCKETS,
            registry=r,
        )
        self.ai_queue = Gauge("kokeshi_ai_queue", "AI decisions waiting for or running in the process pool", registry=r)
        self.store_gauges: _StoreGauges | None = None
        self._server: WSGIServer | None = None

    # ------------------------------------------------------------------ what the bot reports

    def interaction(self, kind: str, name: str) -> None:
        self.interactions.labels(kind, name).inc()

    def first_response(self, name: str, seconds: float) -> None:
        self.first_responses.labels(name).observe(seconds)

    def refused(self, status: int, code: int) -> None:
        self.refusals.labels(str(status), str(code)).inc()

    def marked_unreachable(self) -> None:
        self.marked.inc()

    def timer_fired(self, lag: float) -> None:
        self.timer_lag.observe(max(0.0, lag))

    def watch_ai(self, pending: Callable[[], int]) -> None:
        """The AI queue is read from the thinker whenever it is scraped."""
        self.ai_queue.set_function(lambda: float(pending()))

    def watch_store(self, read: Callable[[], Coroutine[Any, Any, tuple[dict[str, int], int]]]) -> None:
        """Games by state and unreachable games come from `read`, run on the current event loop at each scrape."""
        if self.store_gauges is None:
            self.store_gauges = _StoreGauges(read)
            self.registry.register(self.store_gauges)
        self.store_gauges.read = read
        self.store_gauges.loop = asyncio.get_running_loop()

    # ------------------------------------------------------------------ serving

    def serve(self, port: int, addr: str = "0.0.0.0") -> int:
        """Serve /metrics on `port` (0: any free port) in a thread of its own; returns the port."""
        server, _thread = start_http_server(port, addr=addr, registry=self.registry)
        self._server = server
        return server.server_address[1]

    def close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None


__all__ = ["Metrics"]
