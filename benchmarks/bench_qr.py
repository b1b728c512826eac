"""Moving a 100-listing offline-signing export as an animated QR: frames, and seconds at 5 and
10 frames per second, for BBQr and UR, at several densities (largest QR version; the default
is marked). The export is real: a sandbox process, 100 inscriptions, `prepare_listings`,
`export_offline`; the payload is what `offline_qr.export_payload` sends (manifest + PSBTs).

"frames" is the sequence length (BBQr: every frame once; UR: the plain fragments). "shown" is
how many frames a reader that sees them in order needed until it decoded: with no frame
missed, and with 10% missed at random (BBQr then waits for the loop to come round again; UR
takes the fountain parts that follow). Also: drawing a frame (segno) and reading it back
(zxing-cpp), per frame, at the default density.

Run: .venv/bin/python -m benchmarks.bench_qr [--count 100]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from app.core.animated_qr import (
    DEFAULT_MAX_VERSION,
    AnimatedQrDecoder,
    Payload,
    QrFormat,
    encode_frames,
)
from app.net.clients import NetClients
from app.net.config import ServiceConfig
from app.services.acp_signatures import ledger_of
from app.services.context import ServiceContext
from app.services.listings import ListingItem, prepare_listings
from app.services.offline import export_offline, listing_export_items
from app.services.offline_qr import export_payload
from app.services.qr_images import read_codes, render
from benchmarks.bench_services_listings import fresh_keys, inscribe
from tests.sandbox.sandbox_process import SandboxProcess

VERSIONS = (10, DEFAULT_MAX_VERSION, 20, 25)


async def export_listings(url: str, count: int, folder: Path) -> Payload:
    async with httpx.AsyncClient(base_url=url, timeout=300) as http:
        keys = fresh_keys()
        clients = NetClients.open(ServiceConfig.sandbox(url))
        ctx = ServiceContext(clients, keys, acp_ledger=ledger_of(folder / "machine"))
        ids = await inscribe(http, keys.ordinals.address, count)
        plan = await prepare_listings(ctx, [ListingItem(70_000 + n, i) for n, i in enumerate(ids)])
        export_offline(folder / "export", listing_export_items(plan))
        await clients.aclose()
    return export_payload(folder / "export")


def shown_until_decoded(payload: Payload, fmt: QrFormat, version: int, miss: float) -> int:
    sequence = encode_frames(payload, fmt, version)
    decoder, rng, shown = AnimatedQrDecoder(), random.Random(version), 0
    while decoder.result is None:
        frame = sequence.next_frame()
        shown += 1
        if rng.random() >= miss:
            decoder.add(frame)
    return shown


def per_frame_ms(payload: Payload, fmt: QrFormat) -> tuple[float, float]:
    sequence = encode_frames(payload, fmt)
    frames = sequence.take(20)
    drawn, read = [], []
    for frame in frames:
        t0 = time.perf_counter()
        image = render(frame, sequence.qr_version, scale=3)
        t1 = time.perf_counter()
        assert read_codes(image) == [frame]
        read.append(time.perf_counter() - t1)
        drawn.append(t1 - t0)
    return statistics.median(drawn) * 1e3, statistics.median(read) * 1e3


def report(payload: Payload, count: int) -> None:
    print(f"{count}-listing export: payload {len(payload.data):,} bytes (deflated CBOR bundle)")
    header = f"{'format':6} {'max ver':>7} {'QR ver':>6} {'frames':>6} {'@5fps':>7} {'@10fps':>7}"
    print(f"{header} {'shown, 0% missed':>17} {'shown, 10% missed':>18}")
    for fmt in QrFormat:
        for version in VERSIONS:
            sequence = encode_frames(payload, fmt, version)
            n = sequence.frames_needed
            clean = shown_until_decoded(payload, fmt, version, 0.0)
            lossy = shown_until_decoded(payload, fmt, version, 0.10)
            mark = "*" if version == DEFAULT_MAX_VERSION else " "
            print(
                f"{fmt.value:6} {version:>6}{mark} {sequence.qr_version:>6} {n:>6} "
                f"{n / 5:>6.1f}s {n / 10:>6.1f}s {clean:>10} ({clean / 10:4.1f}s) "
                f"{lossy:>10} ({lossy / 10:5.1f}s)"
            )
    print("* default density; seconds in parentheses at 10 frames per second")
    for fmt in QrFormat:
        draw, read = per_frame_ms(payload, fmt)
        print(f"{fmt.value}: draw a frame (segno) {draw:.1f} ms, read it (zxing-cpp) {read:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        process = SandboxProcess(Path(tmp) / "logs", Path(tmp) / "data")
        try:
            payload = asyncio.run(export_listings(process.url, args.count, Path(tmp)))
        finally:
            process.terminate()
        report(payload, args.count)


if __name__ == "__main__":
    main()
