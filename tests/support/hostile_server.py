"""A hostile service for the tamper suites: the rewriting proxy (tests/support/proxy.py) in front
of the real sandbox, with a tamper from `tests.support.psbt_tamper` applied to what it serves.

Kept only for rewrites the test generates itself: the PSBT mutation fuzzers (each case a
mutation of the very PSBT the sandbox just served, with the blame it must draw) and the fact
rewrites that go with them (ord's live answers for the coins a mutation changed, batch and
single alike, the bidding wallet's address, Esplora's 404 for a coin taken out of the chain).
The sandbox's named tampers (`/sandbox/faults`, docs/sandbox-faults.md) and its fixed `reply`
cannot express these: they are computed from the real answer of the request they replace.

    hostile = HostileServer(proxy, tamper, honest_context, prev_txs)
    hostile.arm(good_psbt_base64)
    # the use case asks the proxy for an intent: the PSBT in the answer is the tampered one,
    # and ord / the bidding-wallet endpoint serve the facts the tamper changed

- PSBT tampers rewrite the PSBT(s) of `POST /v1/intent/withdraw`, `/v1/intent/bid`,
  `/v1/intent/secure-sell` and `/v1/intent/secure-bulk-sell` answers (base64 and hex alike).
- Fact tampers: an outpoint whose ord answer changed is served by the proxy (`/ord/output/..`,
  and `/ord/inscription/..` for inscriptions ord never saw; the same entries in the answers
  of ord's batch lookups, `POST /ord/outputs` and `POST /ord/inscriptions`); an outpoint made
  "unknown" is served without its inscriptions field; an address the tamper re-encoded (the
  bidding wallet on mainnet) is rewritten in `GET /v1/address/bidding-wallet`; a coin the
  tamper took out of the chain's facts is answered 404 by Esplora (`/esplora/tx/<txid>/hex`).
`blame` is what the refusal must name, from the mutation applied to the served PSBT.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from embit.transaction import Transaction

from app.core.psbt_review_context import OutpointContents, ReviewContext
from app.wallet.psbt_io import parse_psbt, psbt_to_base64, psbt_to_hex
from tests.support.proxy import FaultProxy, Reply
from tests.support.tamper_ops import Tamper, Target, copy_psbt

INTENT_PATHS = frozenset(
    {
        "/v1/intent/withdraw",
        "/v1/intent/bid",
        "/v1/intent/secure-sell",
        "/v1/intent/secure-bulk-sell",
    }
)
SUBMIT_PATHS = frozenset({"/v1/withdraw", "/v1/bid/place", "/v1/list/secure"})
# (path of the base64 field, path of the hex field) in each intent answer's `data`.
_PSBT_FIELDS = {
    "/v1/intent/withdraw": (("unsignedPSBTBase64",), ("unsignedPSBTHex",)),
    "/v1/intent/bid": (
        ("bidder", "unsignedBiddingPSBTBase64"),
        ("bidder", "unsignedBiddingPSBTHex"),
    ),
}


@dataclass
class HostileServer:
    proxy: FaultProxy
    tamper: Tamper
    context: ReviewContext  # the honest facts the app would gather for the good PSBT
    prev_txs: dict[str, Transaction]
    blame: str | None = None
    tampered: int = 0
    _addresses: dict[str, str] = field(default_factory=dict)
    # What the tamper changed, for ord's batch answers too (keyed by outpoint, inscription id).
    _outputs: dict[str, Any] = field(default_factory=dict)
    _inscriptions: dict[str, Any] = field(default_factory=dict)

    def arm(self, good_psbt_base64: str) -> None:
        """Install the rewrites. Address facts are served before any intent is asked for, so
        they are taken from the tamper applied to the good PSBT now."""
        _, context, _ = self.tamper.apply(parse_psbt(good_psbt_base64), self.context, self.prev_txs)
        honest = {(a.role, a.label): a.address for a in self.context.addresses}
        for a in context.addresses:
            old = honest.get((a.role, a.label))
            if old is not None and old != a.address:
                self._addresses[old] = a.address
        self.proxy.rewrite(self._rewrite)

    def _rewrite(self, method: str, path: str, status: int, body: bytes) -> bytes | None:
        if status != 200:
            return None
        if method == "POST" and path in INTENT_PATHS:
            return self._tamper_intent(path, json.loads(body))
        if method == "POST" and path == "/ord/outputs" and self._outputs:
            return _replaced(body, "outpoint", self._outputs)
        if method == "POST" and path == "/ord/inscriptions" and self._inscriptions:
            return _replaced(body, "id", self._inscriptions)
        if method == "GET" and path == "/v1/address/bidding-wallet" and self._addresses:
            text = body.decode()
            for old, new in self._addresses.items():
                text = text.replace(old, new)
            return text.encode()
        return None

    def _tamper_intent(self, path: str, answer: Any) -> bytes:
        data = answer["data"]
        if path in _PSBT_FIELDS:
            b64_path, hex_path = _PSBT_FIELDS[path]
            holder = _dig(data, b64_path[:-1])
            hex_holder = _dig(data, hex_path[:-1])
            new = self._mutate(holder[b64_path[-1]])
            holder[b64_path[-1]] = psbt_to_base64(new)
            if hex_path[-1] in hex_holder:
                hex_holder[hex_path[-1]] = psbt_to_hex(new)
        else:
            for entry in data["seller"]["secureListingPSBTs"]:
                new = self._mutate(entry["base64"])
                entry["base64"] = psbt_to_base64(new)
                if "hex" in entry:
                    entry["hex"] = psbt_to_hex(new)
        return json.dumps(answer).encode()

    def _mutate(self, served: str) -> Any:
        target = Target(copy_psbt(parse_psbt(served)), self.context, dict(self.prev_txs))
        self.blame = self.tamper.mutate(target)
        self.tampered += 1
        self._serve_contents(target)
        self._hide_from_chain(target)
        return target.psbt

    def _hide_from_chain(self, target: Target) -> None:
        """Esplora answers 404 for each coin the mutation took out of the chain's facts."""
        for outpoint in set(self.context.chain_utxos) - set(target.context.chain_utxos):
            txid = outpoint.split(":")[0]
            missing = {"errorCode": "NOT_FOUND", "message": "Transaction not found"}
            self._reply(f"/esplora/tx/{txid}/hex", missing, status=404)

    def _serve_contents(self, target: Target) -> None:
        """Serve every ord answer the mutation changed (new, changed or made unknown)."""
        values = {
            target.outpoint(i): inp.witness_utxo.value
            for i, inp in enumerate(target.psbt.inputs)
            if inp.witness_utxo is not None
        }
        before, after = self.context.contents, target.context.contents
        for outpoint in set(before) | set(after):
            if before.get(outpoint) == after.get(outpoint):
                continue
            self._serve_output(outpoint, values.get(outpoint, 10_000), after.get(outpoint))

    def _serve_output(self, outpoint: str, value: int, contents: OutpointContents | None) -> None:
        answer: dict[str, Any] = {"outpoint": outpoint, "value": value, "indexed": True}
        if contents is not None:  # None: ord answers without saying what the output carries
            answer["inscriptions"] = [i.inscription_id for i in contents.inscriptions]
            answer["runes"] = {
                r.rune: {"amount": r.amount, "divisibility": 0} for r in contents.runes
            }
            for ins in contents.inscriptions:
                where = {"id": ins.inscription_id, "satpoint": f"{outpoint}:{ins.offset}"}
                self._inscriptions[ins.inscription_id] = where
                self._reply(f"/ord/inscription/{ins.inscription_id}", where)
        self._outputs[outpoint] = answer
        self._reply(f"/ord/output/{outpoint}", answer)

    def _reply(self, path: str, body: Any, status: int = 200) -> None:
        self.proxy.replies.insert(0, Reply("GET", path, status, body))

    def submits(self) -> list[str]:
        """Submit requests the proxy saw (a refused PSBT must cause none)."""
        return [line for line in self.proxy.paths() if line.split(" ", 1)[1] in SUBMIT_PATHS]


def _replaced(body: bytes, key: str, served: dict[str, Any]) -> bytes:
    """ord's batch answer with each entry the tamper changed replaced (one ord does not know
    makes the batch a 404: the client then asks one by one, and the GET replies serve it)."""
    return json.dumps([served.get(item.get(key), item) for item in json.loads(body)]).encode()


def _dig(data: Any, keys: tuple[str, ...]) -> Any:
    for key in keys:
        data = data[key]
    return data
