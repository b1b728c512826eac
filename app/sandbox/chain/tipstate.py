"""The active chain as the node sees it: hash and header time per height, in memory."""

from __future__ import annotations

MEDIAN_TIME_SPAN = 11


class TipState:
    def __init__(self, genesis_hash: str, genesis_time: int) -> None:
        self.hashes = [genesis_hash]
        self.times = [genesis_time]

    @property
    def height(self) -> int:
        return len(self.hashes) - 1

    @property
    def tip_hash(self) -> str:
        return self.hashes[-1]

    def append(self, block_hash: str, time: int) -> None:
        self.hashes.append(block_hash)
        self.times.append(time)

    def truncate(self, height: int) -> None:
        del self.hashes[height + 1 :]
        del self.times[height + 1 :]

    def median_time_past(self, height: int | None = None) -> int:
        """Core's GetMedianTimePast of the block at `height` (default: the tip)."""
        top = self.height if height is None else max(0, min(height, self.height))
        window = self.times[max(0, top - MEDIAN_TIME_SPAN + 1) : top + 1]
        # Core sorts the window and takes element size/2 (the upper median for even sizes).
        return sorted(window)[len(window) // 2]

    def next_block_time(self, wanted: int) -> int:
        """A header time for the next block: `wanted`, but above the median time past and
        never before the tip's time (so block times only go forward)."""
        return max(wanted, self.median_time_past() + 1, self.times[-1])
