"""The served sandbox's market life (issue 16), on one background thread started once the
sandbox answers (so it costs the start nothing): the demo market of a new data directory
(`market_sim.seed_demo_market`), then, with `--market-sim SEED`, one simulator step every
`--market-sim-interval` seconds. A failed step is logged and the next one runs."""

from __future__ import annotations

import logging
import threading

from app.sandbox.market.market_sim import seed_demo_market, simulate
from app.sandbox.market.service import Market

log = logging.getLogger(__name__)

DEFAULT_SIM_INTERVAL_S = 10.0


class MarketActivity:
    def __init__(
        self,
        market: Market,
        *,
        demo: bool,
        sim_seed: int | None,
        sim_interval_s: float = DEFAULT_SIM_INTERVAL_S,
    ) -> None:
        if sim_interval_s <= 0:
            raise ValueError("the simulator's interval must be positive")
        self._market = market
        self._demo = demo
        self._seed = sim_seed
        self._interval_s = sim_interval_s
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="market-activity", daemon=True)

    @property
    def needed(self) -> bool:
        return self._demo or self._seed is not None

    def start(self) -> None:
        if self.needed and not self._thread.is_alive():
            self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        if self._demo:
            try:
                if seed_demo_market(self._market):
                    log.info("demo market created")
            except Exception:
                log.exception("the demo market could not be created")
        if self._seed is None:
            return
        while not self._stopping.wait(self._interval_s):
            try:
                simulate(self._market, self._seed, 1)
            except Exception:
                log.exception("a market simulator step failed")
