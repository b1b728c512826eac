"""The sandbox's indexer etches, mints, moves and burns runes by runestones as ord does.

Each test follows a case of ord's own indexing tests, src/runes.rs of ordinals/ord at commit
5241ef311e015cff4759a379085c8cc8913e621a (named in each docstring), with real transactions
(test keys, checked by the kernel at broadcast) and read back through the `/ord` views
(`Node.ord_served`, `Node.ord_rune`: the confirmed chain, as real ord answers).
"""

from __future__ import annotations

import hashlib
from unittest.mock import ANY

from embit.script import Script, Witness
from embit.transaction import Transaction, TransactionInput, TransactionOutput

from app.core.inscription_envelope import push
from app.core.rune_names import (
    RESERVED_RUNE_VALUE,
    SpacedRune,
    minimum_at_height,
    reserved_rune,
    rune_commitment,
    rune_name,
    rune_value,
)
from app.sandbox.chain.addresses import address_for_script
from app.sandbox.chain.blocks import block_transactions
from app.sandbox.chain.node import Node
from app.sandbox.chain.spend import Utxo
from tests.sandbox.chain.helpers import fund
from tests.sandbox.chain.rune_txs import (
    FEE,
    OWNER,
    POSTAGE,
    coin,
    commit,
    commit_to,
    edict,
    etch,
    etching,
    fresh_name,
    reveal,
    runes_on,
    spend,
    stone,
    terms,
)
from tests.support.runestones import (
    DIVISIBILITY,
    ETCHING,
    FLAGS,
    MINT,
    PREMINE,
    RUNE,
    TAG_CENOTAPH,
    stone_script,
)

ETCHED = "0:0"


def _place(node: Node, txid: str) -> tuple[int, int, int]:
    """(height, index in the block, block time) of a mined transaction, from the raw block."""
    status = node.tx_status(txid)
    assert status is not None and status["confirmed"]
    height = status["block_height"]
    raw = node.read_index(
        lambda c: bytes(
            c.execute("SELECT raw FROM blocks WHERE height = ?", (height,)).fetchone()[0]
        )
    )
    position = [tx.txid for tx in block_transactions(raw)].index(txid)
    return height, position, status["block_time"]


def _entry(node: Node, query: str) -> dict:  # type: ignore[type-arg]
    found = node.ord_rune(query)
    assert found is not None, f"{query} is not etched"
    return found[1]


def _not_etched_by(node: Node, txid: str) -> bool:
    entries, _ = node.ord_runes_page(0, 1_000)
    return all(entry["etching"] != txid for _, entry in entries)


def test_an_etching_puts_its_premine_on_the_first_non_op_return_output(
    sandbox_node: Node,
) -> None:
    """runes.rs `etching_with_no_edicts_creates_rune`, `etching_may_specify_symbol`,
    `etching_with_non_zero_divisibility_and_rune`,
    `unallocated_runes_are_assigned_to_first_non_op_return_output`."""
    letters = fresh_name("DEFAULTOUT")
    spaced = str(SpacedRune(letters, 0b1001))
    runestone = stone(etch=etching(letters, 1_000, spacers=0b1001, symbol="$", divisibility=2))
    txid = etch(sandbox_node, runestone, letters)
    height, position, time = _place(sandbox_node, txid)
    found = sandbox_node.ord_rune(spaced)
    assert found is not None
    rune_id, entry = found
    assert rune_id == f"{height}:{position}"
    assert entry == {
        "block": height,
        "burned": 0,
        "divisibility": 2,
        "etching": txid,
        "mints": 0,
        "number": entry["number"],
        "premine": 1_000,
        "spaced_rune": spaced,
        "symbol": "$",
        "terms": None,
        "timestamp": time,
        "turbo": False,
    }
    assert (runes_on(sandbox_node, txid, 1), runes_on(sandbox_node, txid, 2)) == (
        {spaced: 1_000},
        {},
    )
    assert sandbox_node.ord_rune(rune_id) == found


def test_a_pointer_receives_what_edicts_leave(sandbox_node: Node) -> None:
    """runes.rs `unallocated_runes_are_assigned_to_default_output`."""
    letters = fresh_name("POINTED")
    txid = etch(sandbox_node, stone(etch=etching(letters, 500), pointer=2), letters)
    assert runes_on(sandbox_node, txid, 1) == {}
    assert runes_on(sandbox_node, txid, 2) == {letters: 500}


def test_etching_edicts_split_and_burn_to_op_return(sandbox_node: Node) -> None:
    """runes.rs `split_in_etching_with_preceding_edict`, `etching_may_allocate_to_multiple_outputs`,
    `edicts_may_transfer_runes_to_op_return_outputs`: 100 to the OP_RETURN output is burned,
    output n == 3 (the number of outputs) with amount 0 splits the rest over outputs 1 and 2."""
    letters = fresh_name("SPLITETCH")
    edicts = [edict(ETCHED, 100, 0), edict(ETCHED, 0, 3)]
    txid = etch(sandbox_node, stone(edicts, etch=etching(letters, 1_001)), letters)
    assert runes_on(sandbox_node, txid, 1) == {letters: 451}  # the remainder to the first
    assert runes_on(sandbox_node, txid, 2) == {letters: 450}
    assert _entry(sandbox_node, letters)["burned"] == 100


def test_edicts_move_input_runes(sandbox_node: Node) -> None:
    """runes.rs `input_runes_may_be_allocated`, `split_with_amount` (each non-OP_RETURN output
    gets the amount while the balance lasts, the rest to the first), then an edict of amount 0
    (all that remains) to one output."""
    letters = fresh_name("MOVEDBYEDICT")
    etched = etch(sandbox_node, stone(etch=etching(letters, 1_000)), letters)
    rune_id = sandbox_node.ord_rune(letters)[0]  # type: ignore[index]
    split = spend(sandbox_node, [coin(sandbox_node, etched, 1)], stone([edict(rune_id, 300, 4)]), 3)
    sandbox_node.mine(1)
    assert [runes_on(sandbox_node, split, v) for v in (1, 2, 3)] == [
        {letters: 400},
        {letters: 300},
        {letters: 300},
    ]
    whole = spend(sandbox_node, [coin(sandbox_node, split, 2)], stone([edict(rune_id, 0, 2)]))
    sandbox_node.mine(1)
    assert (runes_on(sandbox_node, whole, 1), runes_on(sandbox_node, whole, 2)) == (
        {},
        {letters: 300},
    )
    assert _entry(sandbox_node, letters)["burned"] == 0


def test_an_etching_without_its_commitment_etches_nothing_and_the_rest_applies(
    sandbox_node: Node,
) -> None:
    """runes.rs `etchings_are_not_valid_without_commitment`, `edicts_with_id_zero_are_skipped`:
    the commit pushes another name's commitment; the edict to 0:0 is skipped, the edict of the
    input rune still runs."""
    held = fresh_name("HELDALREADY")
    first = etch(sandbox_node, stone(etch=etching(held, 70)), held)
    held_id = sandbox_node.ord_rune(held)[0]  # type: ignore[index]
    letters = fresh_name("UNCOMMITTED")
    made = commit(sandbox_node, rune_commitment(fresh_name("SOMETHINGELSE")))
    runestone = stone([edict(ETCHED, 5, 1), edict(held_id, 0, 2)], etch=etching(letters, 1_000))
    txid = reveal(sandbox_node, made, runestone, extra=[coin(sandbox_node, first, 1)])
    sandbox_node.mine(1)
    assert sandbox_node.ord_rune(letters) is None and _not_etched_by(sandbox_node, txid)
    assert runes_on(sandbox_node, txid, 1) == {}
    assert runes_on(sandbox_node, txid, 2) == {held: 70}


def test_a_commit_with_five_confirmations_is_immature(sandbox_node: Node) -> None:
    """runes.rs `immature_commits_are_not_valid`; six confirmations are enough (the other
    tests' etchings)."""
    letters = fresh_name("IMMATURE")
    made = commit_to(sandbox_node, letters, confirmations=5)
    txid = reveal(sandbox_node, made, stone(etch=etching(letters, 10)))
    sandbox_node.mine(1)
    commit_height = sandbox_node.tx_status(made.utxo.txid)["block_height"]  # type: ignore[index]
    assert _place(sandbox_node, txid)[0] - commit_height + 1 == 5
    assert sandbox_node.ord_rune(letters) is None and runes_on(sandbox_node, txid, 1) == {}


def test_a_commitment_in_a_non_taproot_witness_does_not_count(sandbox_node: Node) -> None:
    """runes.rs `commits_are_not_valid_in_non_taproot_witnesses`: a P2WSH input whose witness
    reads as a tapscript pushing the commitment (its witness script drops that item), with
    enough confirmations."""
    letters = fresh_name("NOTTAPROOT")
    witness_script = bytes([0x75, 0x51])  # OP_DROP OP_TRUE
    spk = b"\x00\x20" + hashlib.sha256(witness_script).digest()
    address = address_for_script(spk)
    assert address is not None
    value = POSTAGE + FEE
    funded, vout = sandbox_node.faucet(address, value)
    sandbox_node.mine(6)
    tx = Transaction(
        version=2,
        vin=[TransactionInput(bytes.fromhex(funded), vout, sequence=0xFFFFFFFD)],
        vout=[
            TransactionOutput(0, Script(stone(etch=etching(letters, 10)))),
            TransactionOutput(POSTAGE, Script(OWNER.script_pubkey)),
        ],
        locktime=0,
    )
    tx.vin[0].witness = Witness([push(rune_commitment(letters)), witness_script])
    txid = sandbox_node.broadcast(bytes(tx.serialize()))
    sandbox_node.mine(1)
    assert sandbox_node.ord_rune(letters) is None and runes_on(sandbox_node, txid, 1) == {}


def test_a_name_below_the_minimum_for_the_height_is_not_etched(sandbox_node: Node) -> None:
    """runes.rs `runes_must_be_greater_than_or_equal_to_minimum_for_height`: at regtest's
    low heights the minimum is a 12-letter name near Z; one below it is refused, the minimum
    itself etched."""
    etched_at = sandbox_node.tip_height + 6  # commit in the next block, the reveal 5 later
    minimum = minimum_at_height(etched_at)
    below, at = rune_name(minimum - 1), rune_name(minimum)
    assert len(below) == 12
    refused = etch(sandbox_node, stone(etch=etching(below, 5)), below)
    assert _place(sandbox_node, refused)[0] == etched_at
    assert sandbox_node.ord_rune(below) is None and runes_on(sandbox_node, refused, 1) == {}
    taken = etch(sandbox_node, stone(etch=etching(at, 5)), at)
    assert minimum_at_height(_place(sandbox_node, taken)[0]) <= rune_value(at)
    assert runes_on(sandbox_node, taken, 1) == {at: 5}


def test_a_reserved_name_cannot_be_chosen(sandbox_node: Node) -> None:
    """runes.rs `etching_cannot_specify_reserved_rune`."""
    reserved = rune_name(RESERVED_RUNE_VALUE)
    txid = etch(sandbox_node, stone(etch=etching(reserved, 5)), reserved)
    assert _not_etched_by(sandbox_node, txid) and runes_on(sandbox_node, txid, 1) == {}


def test_a_name_is_etched_once(sandbox_node: Node) -> None:
    """runes.rs `duplicate_runes_are_forbidden`."""
    letters = fresh_name("ONLYONCE")
    first = etch(sandbox_node, stone(etch=etching(letters, 1)), letters)
    second = etch(sandbox_node, stone(etch=etching(letters, 2)), letters)
    assert _entry(sandbox_node, letters)["etching"] == first
    assert runes_on(sandbox_node, second, 1) == {}


def test_an_etching_without_a_name_gets_the_reserved_one_of_where_it_is_mined(
    sandbox_node: Node,
) -> None:
    """runes.rs `reserved_runes_may_be_etched`: no name (no commitment needed) is
    `Rune::reserved(block, tx)`. In the mempool the rune holds a placeholder name (ord does
    not know it yet); mined, it is renamed."""
    made = commit(sandbox_node, b"")
    txid = reveal(sandbox_node, made, stone(etch=etching(None, 77)))
    pending = sandbox_node.ord_output(f"{txid}:1")
    assert pending is not None and [p["amount"] for p in pending["runes"].values()] == [77]
    sandbox_node.mine(1)
    height, position, _ = _place(sandbox_node, txid)
    name = rune_name(reserved_rune(height, position))
    assert runes_on(sandbox_node, txid, 1) == {name: 77}
    assert _entry(sandbox_node, f"{height}:{position}")["spaced_rune"] == name
    assert _entry(sandbox_node, name)["etching"] == txid  # ord finds a reserved name too
    assert list(pending["runes"]) != [name]


def test_mints_count_up_to_the_cap(sandbox_node: Node) -> None:
    """runes.rs `rune_can_be_minted_without_edict`, `open_mints_can_be_limited_to_cap`,
    `open_mints_without_a_cap_are_unmintable`."""
    letters = fresh_name("CAPPEDMINT")
    etch(sandbox_node, stone(etch=etching(letters, 0, terms=terms(100, 2))), letters)
    rune_id = sandbox_node.ord_rune(letters)[0]  # type: ignore[index]
    assert sandbox_node.ord_rune_mintable(rune_id)
    # Payers confirmed first: a mint paid by a coin still in the mempool waits in the block for
    # its funding, and the sandbox's funding transactions' fee rates differ by a hair now and
    # then (their DER signatures' lengths), which reordered the mints and the cap's winners.
    # Confirmed, the mints (one fee rate) go in the order they were sent.
    payers = [fund(sandbox_node, OWNER, 2 * POSTAGE + FEE, confirm=False) for _ in range(3)]
    sandbox_node.mine(1)
    mints = [spend(sandbox_node, [], stone(mint=rune_id), payer=p) for p in payers]
    sandbox_node.mine(1)
    assert not sandbox_node.ord_rune_mintable(rune_id)  # ord's `mintable`: the cap is reached
    assert [runes_on(sandbox_node, m, 1) for m in mints] == [{letters: 100}, {letters: 100}, {}]
    entry = _entry(sandbox_node, letters)
    assert (entry["mints"], entry["premine"], entry["burned"]) == (2, 0, 0)
    assert entry["terms"] == {
        "amount": 100,
        "cap": 2,
        "height": [None, None],
        "offset": [None, None],
    }

    uncapped = fresh_name("UNCAPPED")
    etch(sandbox_node, stone(etch=etching(uncapped, 0, terms=terms(100, None))), uncapped)
    uncapped_id = sandbox_node.ord_rune(uncapped)[0]  # type: ignore[index]
    mint = spend(sandbox_node, [], stone(mint=uncapped_id))
    sandbox_node.mine(1)
    assert runes_on(sandbox_node, mint, 1) == {} and _entry(sandbox_node, uncapped)["mints"] == 0
    assert not sandbox_node.ord_rune_mintable(uncapped_id)


def _mint_at_each_height(node: Node, rune_id: str, heights: int) -> list[str]:
    """A mint in each of the next `heights` blocks."""
    minted = []
    for _ in range(heights):
        minted.append(spend(node, [], stone(mint=rune_id)))
        node.mine(1)
    return minted


def test_mints_only_within_the_height_and_offset_windows(sandbox_node: Node) -> None:
    """runes.rs `open_mints_can_be_limited_with_height_start`, `..._with_offset_end`,
    `..._with_offset_start`, `..._with_height_end`: a start is the later of the height and
    the etching's block + offset, an end the earlier (the end's block not included)."""
    first = fresh_name("HEIGHTSTART")
    etch(sandbox_node, stone(etch=etching(first, 0)), first)  # mines to a known tip
    block = sandbox_node.tip_height + 6  # the next etching's block
    windowed = terms(10, 100, height=(block + 2, None), offset=(None, 4))
    etch(sandbox_node, stone(etch=etching(first + "X", 0, terms=windowed)), first + "X")
    rune_id = sandbox_node.ord_rune(first + "X")[0]  # type: ignore[index]
    assert rune_id.startswith(f"{block}:")
    minted = _mint_at_each_height(sandbox_node, rune_id, 4)  # blocks + 1 .. + 4
    assert [runes_on(sandbox_node, m, 1) for m in minted] == [
        {},
        {first + "X": 10},
        {first + "X": 10},
        {},
    ]
    second = fresh_name("OFFSETSTART")
    block = sandbox_node.tip_height + 6
    windowed = terms(7, 100, height=(None, block + 2), offset=(1, None))
    etch(sandbox_node, stone(etch=etching(second, 0, terms=windowed)), second)
    rune_id = sandbox_node.ord_rune(second)[0]  # type: ignore[index]
    minted = _mint_at_each_height(sandbox_node, rune_id, 2)
    assert [runes_on(sandbox_node, m, 1) for m in minted] == [{second: 7}, {}]
    assert _entry(sandbox_node, second)["mints"] == 1


def test_a_cenotaph_burns_the_input_runes(sandbox_node: Node) -> None:
    """runes.rs `input_runes_are_burned_if_an_unrecognized_even_tag_is_encountered`; the
    entry's `burned` counts them."""
    letters = fresh_name("BURNEDBYCENO")
    etched = etch(sandbox_node, stone(etch=etching(letters, 1_000)), letters)
    txid = spend(sandbox_node, [coin(sandbox_node, etched, 1)], stone_script([TAG_CENOTAPH, 0]))
    sandbox_node.mine(1)
    assert runes_on(sandbox_node, txid, 1) == {}
    assert _entry(sandbox_node, letters)["burned"] == 1_000


def test_a_cenotaphs_etching_creates_the_rune_with_no_supply(sandbox_node: Node) -> None:
    """runes.rs `etched_rune_is_allocated_with_zero_supply_for_cenotaph`,
    `etched_rune_parameters_are_unset_for_cenotaph`."""
    letters = fresh_name("CENOTAPHETCH")
    runestone = stone_script(
        [
            FLAGS,
            ETCHING,
            RUNE,
            rune_value(letters),
            PREMINE,
            1_000,
            DIVISIBILITY,
            2,
            TAG_CENOTAPH,
            0,
        ]
    )
    txid = etch(sandbox_node, runestone, letters)
    entry = _entry(sandbox_node, letters)
    assert (entry["premine"], entry["divisibility"], entry["symbol"], entry["terms"]) == (
        0,
        0,
        None,
        None,
    )
    assert (entry["spaced_rune"], entry["etching"], entry["burned"]) == (letters, txid, 0)
    assert runes_on(sandbox_node, txid, 1) == {}


def test_a_cenotaphs_mint_counts_and_is_burned(sandbox_node: Node) -> None:
    """ord's `index_runes`: the mint of a cenotaph is counted (`mint` runs first) and its
    amount burned with the rest."""
    letters = fresh_name("CENOTAPHMINT")
    etch(sandbox_node, stone(etch=etching(letters, 0, terms=terms(50, 10))), letters)
    rune_id = sandbox_node.ord_rune(letters)[0]  # type: ignore[index]
    block, tx = (int(part) for part in rune_id.split(":"))
    txid = spend(sandbox_node, [], stone_script([MINT, block, MINT, tx, TAG_CENOTAPH, 0]))
    sandbox_node.mine(1)
    assert runes_on(sandbox_node, txid, 1) == {}
    entry = _entry(sandbox_node, letters)
    assert (entry["mints"], entry["burned"]) == (1, 50)


def test_mints_are_counted_in_the_blocks_order_not_the_mempools(sandbox_node: Node) -> None:
    """runes.rs `open_mints_can_be_limited_to_cap` in one block: the mempool decided the first
    mint broadcast; the block holds the better-paying one first, which ord gives the mint (the
    index is replayed from the blocks when they disagree)."""
    letters = fresh_name("ONEMINTONLY")
    etch(sandbox_node, stone(etch=etching(letters, 0, terms=terms(9, 1))), letters)
    rune_id = sandbox_node.ord_rune(letters)[0]  # type: ignore[index]
    payers = [fund(sandbox_node, OWNER, 2 * POSTAGE + 6_000) for _ in range(2)]
    cheap = spend(sandbox_node, [], stone(mint=rune_id), fee=400, payer=payers[0])
    dear = spend(sandbox_node, [], stone(mint=rune_id), fee=6_000, payer=payers[1])
    assert sandbox_node.ord_output(f"{cheap}:1")["runes"] == {letters: ANY}  # type: ignore[index]
    sandbox_node.mine(1)
    assert _place(sandbox_node, dear)[1] < _place(sandbox_node, cheap)[1]
    assert (runes_on(sandbox_node, dear, 1), runes_on(sandbox_node, cheap, 1)) == (
        {letters: 9},
        {},
    )
    assert _entry(sandbox_node, letters)["mints"] == 1


def test_an_edict_may_name_a_rune_etched_earlier_in_the_same_block(sandbox_node: Node) -> None:
    """runes.rs `input_runes_may_be_allocated`, with the etching and the transfer in one block:
    in the mempool the rune has no id yet, so the edict naming the id it will have is followed
    once the block gives it one."""
    letters = fresh_name("SAMEBLOCKID")
    payer = fund(sandbox_node, OWNER, 2 * POSTAGE + FEE)  # mined: the reveal will be first
    made = commit_to(sandbox_node, letters)
    etched = reveal(sandbox_node, made, stone(etch=etching(letters, 60)))
    future_id = f"{sandbox_node.tip_height + 1}:1"
    moved = spend(
        sandbox_node,
        [Utxo(etched, 1, POSTAGE, OWNER.script_pubkey)],
        stone([edict(future_id, 0, 2)]),
        payer=payer,
    )
    sandbox_node.mine(1)
    assert _place(sandbox_node, etched)[:2] == tuple(int(p) for p in future_id.split(":"))
    assert (runes_on(sandbox_node, moved, 1), runes_on(sandbox_node, moved, 2)) == (
        {},
        {letters: 60},
    )


def test_a_mint_mined_after_its_window_closed_is_not_counted(sandbox_node: Node) -> None:
    """runes.rs `open_mints_must_be_ended_with_etched_height_plus_offset_end`, for a mint the
    mempool judged in the window (as the next block's) that a block takes only later: ord
    judges it at the height it is mined. Held out of one block by taking it off the miner's
    template (the mempool's entries), as a block full of better-paying transactions would."""
    letters = fresh_name("LATEMINT")
    block = sandbox_node.tip_height + 6
    windowed = terms(5, 100, offset=(None, 2))  # mintable in blocks block + 1 only
    etch(sandbox_node, stone(etch=etching(letters, 0, terms=windowed)), letters)
    rune_id = sandbox_node.ord_rune(letters)[0]  # type: ignore[index]
    assert rune_id.startswith(f"{block}:")
    late = spend(sandbox_node, [], stone(mint=rune_id))
    assert sandbox_node.ord_output(f"{late}:1")["runes"] == {letters: ANY}  # type: ignore[index]
    mempool = sandbox_node._engine.mempool
    held = mempool.entries()  # the mint and the coin paying for it, parents first
    assert late in {entry.tx.txid for entry in held}
    mempool.remove([entry.tx.txid for entry in held])
    sandbox_node.mine(1)
    for entry in held:
        mempool.add(entry)
    sandbox_node.mine(1)
    assert _place(sandbox_node, late)[0] == block + 2
    assert runes_on(sandbox_node, late, 1) == {}
    assert _entry(sandbox_node, letters)["mints"] == 0


def test_replaying_the_blocks_gives_what_the_mempool_decided(sandbox_node: Node) -> None:
    """ord indexes blocks: the index rebuilt from them (every transaction at its own height
    and place) holds the same runes, entries, balances and burns as the one built as each
    transaction entered the mempool. Last in this module: it checks all the module made."""

    def runes_held() -> object:
        entries, _ = sandbox_node.ord_runes_page(0, 10_000)
        balances = sandbox_node.read_index(
            lambda c: sorted(c.execute("SELECT txid, vout, rune, amount FROM rune_balances"))
        )
        return entries, balances

    sandbox_node.mine(1)
    before = runes_held()
    assert sandbox_node.rebuild_index() == 0
    assert runes_held() == before
