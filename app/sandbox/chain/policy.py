"""Mempool acceptance: Bitcoin Core's consensus checks and the policy rules the sandbox keeps.

Each failure is a TxRejected with our code, Core's reject reason and, when it belongs to one
input, that input's index. Scripts are checked last (they are the expensive part), by the
kernel's interpreter with every flag and all spent outputs.
"""

from __future__ import annotations

from collections.abc import Callable

from app.sandbox.chain.consensus import (
    COINBASE_MATURITY,
    LOCKTIME_THRESHOLD,
    MAX_MONEY,
    MAX_STANDARD_TX_WEIGHT,
    MIN_RELAY_FEE_RATE,
    MIN_STANDARD_TX_NONWITNESS_SIZE,
    SEQUENCE_FINAL,
    SEQUENCE_LOCKTIME_DISABLE_FLAG,
    SEQUENCE_LOCKTIME_GRANULARITY,
    SEQUENCE_LOCKTIME_MASK,
    SEQUENCE_LOCKTIME_TYPE_FLAG,
    dust_threshold,
)
from app.sandbox.chain.errors import TxRejected
from app.sandbox.chain.indexer import Coin
from app.sandbox.chain.kernel import Kernel
from app.sandbox.chain.rawtx import ParsedTx
from app.sandbox.chain.tipstate import TipState

CoinLookup = Callable[[str, int], Coin | None]


def check_transaction(
    tx: ParsedTx, lookup: CoinLookup, tip: TipState, kernel: Kernel
) -> tuple[int, list[Coin]]:
    """Validate `tx` for the mempool on top of `tip`; returns (fee, spent coins)."""
    check_context_free(tx)
    coins = _spent_coins(tx, lookup, tip.height + 1)
    fee = sum(c.value for c in coins) - sum(o.value for o in tx.outputs)
    if fee < 0:
        raise TxRejected(
            "INPUTS_BELOW_OUTPUTS",
            "bad-txns-in-belowout",
            f"outputs pay {-fee} sats more than the inputs hold",
        )
    check_final(tx, tip)
    check_sequence_locks(tx, coins, tip)
    check_outputs_not_dust(tx)
    if fee < MIN_RELAY_FEE_RATE * tx.vsize:
        raise TxRejected(
            "FEE_TOO_LOW",
            "min relay fee not met",
            f"fee {fee} sats for {tx.vsize} vB is {fee / tx.vsize:.3f} sat/vB; "
            f"the minimum is {MIN_RELAY_FEE_RATE:g} sat/vB",
        )
    failing = kernel.failing_input(tx, [(c.value, c.script_pubkey) for c in coins])
    if failing is not None:
        raise TxRejected(
            "SCRIPT_VERIFY_FAILED",
            "mandatory-script-verify-flag-failed",
            f"input {failing} does not satisfy the script it spends "
            "(libbitcoinkernel's interpreter: verify returned false with flags "
            "P2SH,DERSIG,NULLDUMMY,CHECKLOCKTIMEVERIFY,CHECKSEQUENCEVERIFY,WITNESS,TAPROOT)",
            failing,
        )
    return fee, coins


def check_context_free(tx: ParsedTx) -> None:
    if not tx.inputs:
        raise TxRejected("NO_INPUTS", "bad-txns-vin-empty", "transaction has no inputs")
    if not tx.outputs:
        raise TxRejected("NO_OUTPUTS", "bad-txns-vout-empty", "transaction has no outputs")
    if tx.is_coinbase:
        raise TxRejected("COINBASE", "coinbase", "a coinbase transaction cannot be broadcast")
    if tx.weight > MAX_STANDARD_TX_WEIGHT:
        raise TxRejected(
            "TX_TOO_LARGE",
            "tx-size",
            f"weight {tx.weight} is above the standard limit {MAX_STANDARD_TX_WEIGHT}",
        )
    if tx.base_size < MIN_STANDARD_TX_NONWITNESS_SIZE:
        raise TxRejected(
            "TX_TOO_SMALL",
            "tx-size-small",
            f"non-witness size {tx.base_size} is below {MIN_STANDARD_TX_NONWITNESS_SIZE} bytes",
        )
    seen: set[tuple[str, int]] = set()
    for index, outpoint in enumerate(tx.outpoints()):
        if outpoint in seen:
            raise TxRejected(
                "DUPLICATE_INPUT",
                "bad-txns-inputs-duplicate",
                f"input {index} spends {outpoint[0]}:{outpoint[1]} twice",
                index,
            )
        seen.add(outpoint)
    total = 0
    for vout, out in enumerate(tx.outputs):
        total += out.value
        if out.value > MAX_MONEY or total > MAX_MONEY:
            raise TxRejected(
                "OUTPUT_TOO_LARGE",
                "bad-txns-vout-toolarge",
                f"output {vout} takes the total above 21 million BTC",
            )


def _spent_coins(tx: ParsedTx, lookup: CoinLookup, next_height: int) -> list[Coin]:
    coins = []
    for index, (prev_txid, prev_vout) in enumerate(tx.outpoints()):
        coin = lookup(prev_txid, prev_vout)
        if coin is None:
            raise TxRejected(
                "MISSING_INPUTS",
                "bad-txns-inputs-missingorspent",
                f"input {index} spends {prev_txid}:{prev_vout}, which does not exist",
                index,
            )
        if coin.spent_txid is not None:
            raise _spent_error(index, coin)
        if coin.coinbase:
            assert coin.height is not None
            depth = next_height - coin.height
            if depth < COINBASE_MATURITY:
                raise TxRejected(
                    "IMMATURE_COINBASE",
                    "bad-txns-premature-spend-of-coinbase",
                    f"input {index} spends a coinbase output from height {coin.height}; it can "
                    f"be spent from height {coin.height + COINBASE_MATURITY} "
                    f"(the next block is {next_height})",
                    index,
                )
        coins.append(coin)
    return coins


def _spent_error(index: int, coin: Coin) -> TxRejected:
    outpoint = f"{coin.txid}:{coin.vout}"
    if coin.spent_confirmed:
        return TxRejected(
            "INPUT_SPENT",
            "bad-txns-inputs-missingorspent",
            f"input {index} spends {outpoint}, already spent in the chain by {coin.spent_txid}",
            index,
        )
    return TxRejected(
        "MEMPOOL_CONFLICT",
        "txn-mempool-conflict",
        f"input {index} spends {outpoint}, already spent by mempool transaction "
        f"{coin.spent_txid} (replacement is not supported)",
        index,
    )


def check_final(tx: ParsedTx, tip: TipState) -> None:
    """Core's IsFinalTx for the next block (BIP-113: times compare with median time past)."""
    if tx.locktime == 0 or all(i.sequence == SEQUENCE_FINAL for i in tx.inputs):
        return
    height = tip.height + 1
    limit = height if tx.locktime < LOCKTIME_THRESHOLD else tip.median_time_past()
    if tx.locktime >= limit:
        raise TxRejected(
            "NON_FINAL",
            "non-final",
            f"nLockTime {tx.locktime} is not yet reached (next block {height}, "
            f"median time past {tip.median_time_past()})",
        )


def check_sequence_locks(tx: ParsedTx, coins: list[Coin], tip: TipState) -> None:
    """BIP-68 relative lock-times for version >= 2 (Core's CalculateSequenceLocks)."""
    if tx.version < 2:
        return
    next_height = tip.height + 1
    min_height, min_time = -1, -1
    for index, (inp, coin) in enumerate(zip(tx.inputs, coins, strict=True)):
        if inp.sequence & SEQUENCE_LOCKTIME_DISABLE_FLAG:
            continue
        coin_height = next_height if coin.height is None else coin.height
        value = inp.sequence & SEQUENCE_LOCKTIME_MASK
        if inp.sequence & SEQUENCE_LOCKTIME_TYPE_FLAG:
            coin_time = tip.median_time_past(max(coin_height - 1, 0))
            min_time = max(min_time, coin_time + (value << SEQUENCE_LOCKTIME_GRANULARITY) - 1)
        else:
            min_height = max(min_height, coin_height + value - 1)
        if min_height >= next_height or min_time >= tip.median_time_past():
            raise TxRejected(
                "NON_BIP68_FINAL",
                "non-BIP68-final",
                f"input {index}'s relative lock-time (nSequence {inp.sequence:#x}) "
                "is not yet reached",
                index,
            )


def check_outputs_not_dust(tx: ParsedTx) -> None:
    for vout, out in enumerate(tx.outputs):
        threshold = dust_threshold(out.script_pubkey)
        if out.value < threshold:
            raise TxRejected(
                "DUST",
                "dust",
                f"output {vout} pays {out.value} sats, below the dust threshold of "
                f"{threshold} sats for its script type",
            )
