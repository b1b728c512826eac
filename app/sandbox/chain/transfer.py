"""Moving an inscription the sandbox holds: a transaction laid out so that, by ord's FIFO
rule, the inscribed sat lands on the recipient's output.

Layout, with the inscription at `offset` in an output of `value` sats:
- offset 0: [inscribed output, funding] -> [recipient, (owner tail), change]
- offset >= dust: the sats before it go back to the owner first: [owner: offset, recipient, ...]
- 0 < offset < dust: a funding coin goes first and absorbs those few sats into sandbox change:
  [funding A, inscribed output, funding B] -> [change: A + offset, recipient, ..., change]
The fee always comes from the last (change) output, after the inscribed sat.
"""

from __future__ import annotations

from app.core import sat_flow
from app.sandbox.chain.consensus import dust_threshold
from app.sandbox.chain.errors import Conflict, InvalidRequest, NotFound
from app.sandbox.chain.indexer import Coin
from app.sandbox.chain.rawtx import ParsedTx
from app.sandbox.chain.wallet import Payment, SandboxWallet

DEFAULT_POSTAGE = 10_000


def transfer_inscription(wallet: SandboxWallet, inscription_id: str, to_script: bytes) -> ParsedTx:
    conn = wallet.engine.store.conn
    row = conn.execute(
        "SELECT txid, vout, offset, fee_txid FROM inscription_locations WHERE id = ?",
        (inscription_id,),
    ).fetchone()
    if row is None:
        raise NotFound(f"no inscription {inscription_id}", "INSCRIPTION_NOT_FOUND")
    txid, vout, offset, fee_txid = row
    if txid is None:
        state = "in the fee of an unconfirmed transaction" if fee_txid else "lost"
        raise InvalidRequest(f"inscription {inscription_id} is {state}", "INSCRIPTION_NOT_MOVABLE")
    coin = wallet.engine.indexer.coin(txid, vout)
    assert coin is not None
    if not wallet.keys.holds(coin.script_pubkey):
        raise Conflict(
            f"inscription {inscription_id} is not held by a sandbox key", "NOT_SANDBOX_HELD"
        )
    if coin.coinbase and coin.height is not None:
        maturity = coin.height + 100
        if wallet.engine.tip.height + 1 < maturity:
            raise InvalidRequest(
                f"inscription {inscription_id} sits in an immature coinbase output "
                f"(spendable from height {maturity})",
                "INSCRIPTION_NOT_MOVABLE",
            )
    owner = coin.script_pubkey
    after = coin.value - offset
    recipient_value = min(after, DEFAULT_POSTAGE)
    if recipient_value < dust_threshold(to_script):
        raise InvalidRequest(
            f"only {after} sats follow the inscription, below the recipient's dust threshold",
            "INSCRIPTION_NOT_MOVABLE",
        )
    tail = after - recipient_value
    payments = [Payment(to_script, recipient_value)]
    if tail:
        if tail >= dust_threshold(owner):
            payments.append(Payment(owner, tail))
        else:
            payments[0] = Payment(to_script, after)

    lead_coins: list[Coin] = []
    lead_outputs: list[Payment] = []
    if offset >= dust_threshold(owner):
        lead_outputs.append(Payment(owner, offset))
    elif offset > 0:
        absorber = wallet.select(dust_threshold(wallet.change_script), 0, 1, exclude=[coin])[:1]
        lead_coins = absorber
        lead_outputs.append(Payment(wallet.change_script, absorber[0].value + offset))

    fixed = [*lead_coins, coin]
    outputs = [*lead_outputs, *payments]
    funding, tx = wallet.fund(fixed, outputs)
    _check_lands_on(
        tx, [c.value for c in [*fixed, *funding]], len(lead_coins), offset, len(lead_outputs)
    )
    return wallet.accept(tx)


def _check_lands_on(
    tx: ParsedTx, input_values: list[int], input_index: int, offset: int, vout: int
) -> None:
    """Defensive: the layout above must put the inscribed sat on the recipient's output."""
    dest = sat_flow.route(input_values, [o.value for o in tx.outputs], [(input_index, offset)])[0]
    if dest.vout != vout:
        raise RuntimeError(f"transfer layout sends the inscription to {dest}, not output {vout}")
