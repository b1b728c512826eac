"""Mutations of the honest PSBTs of every guarded flow, for the guard's fuzzer (issue 12).

    setup = flow_setup("withdraw")          # the honest scenario, its world and served facts
    case = setup.new_case()
    for op in ops: op.apply(case)           # ops drawn from `mutation_lists()`
    # case.data: the PSBT bytes a hostile service serves; case.context: the facts it serves;
    # case.world: the ground truth (what the chain and ord really hold)

The world is the truth the effect of a signature is computed from (tests.support.psbt_effects):
every coin the honest scenario spends, a few spare coins (ours and strangers', some carrying
inscriptions or runes, one unknown to the chain and ord), with their true amount, script and
contents. A mutation may add any of them as an input; the facts served for them are true.

Operations work at two levels: structured, through embit's objects (a FixedPSBT parsed from
the current bytes and serialized back), and raw, on the BIP-174 key-value maps
(tests.support.psbt_mut_raw). A structured operation on bytes embit cannot parse does nothing
(parse_psbt refuses them anyway). Served-fact operations: an ord answer or chain fact removed
(unknown), ord's answer changed (ord is trusted, so the truth changes with it), a chain amount
that lies (served only), the tip or the fee estimate removed. Indices are taken modulo the
current number of inputs or outputs, so any list of operations applies to any PSBT; every
operation has a short readable repr, so a shrunk counterexample reads as a recipe.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from embit import ec
from embit.psbt import DerivationPath
from embit.script import Script, Witness
from embit.transaction import Transaction, TransactionInput, TransactionOutput
from hypothesis import strategies as st

from app.core.psbt_review_context import (
    NOTHING,
    InscriptionAt,
    KnownUtxo,
    OutpointContents,
    ReviewContext,
    Role,
    RuneAmount,
)
from app.core.psbt_review_time import ChainTip
from app.wallet.psbt_fixes import FixedInput, FixedOutput, FixedPSBT, new_transaction, set_unknown
from app.wallet.scripts import checksig_leaf
from tests.support import psbt_mut_raw as raw
from tests.support import psbt_scenarios
from tests.support.psbt_mut_raw import Readable
from tests.support.psbt_scenarios import (
    INSCRIPTION,
    OTHER_INSCRIPTION,
    RBF_SEQUENCE,
    SCENARIOS,
    TIP,
    Parties,
    Scenario,
    key,
    p2wpkh_spk,
)

ATTACKER_SPK = p2wpkh_spk(key(666))
STRAY_INSCRIPTION = "5a" * 32 + "i7"  # sits on a coin of our payment address
FOREIGN_INSCRIPTION = "f0" * 32 + "i3"  # a stranger's
RUNE = "UNCOMMON•GOODS"


# --- the world: what the chain and ord really hold --------------------------------------------


@dataclass(frozen=True)
class TrueCoin:
    """A coin as it really is: its previous transaction (so its outpoint), amount, script and
    what it carries; `fill` adds the PSBT fields its owner's wallet would (taproot keys...)."""

    prev_tx: Transaction
    vout: int
    contents: OutpointContents
    fill: Callable[[FixedInput], None] = field(default=lambda inp: None, compare=False)

    @property
    def txout(self) -> TransactionOutput:
        out: TransactionOutput = self.prev_tx.vout[self.vout]
        return out

    @property
    def value(self) -> int:
        return int(self.txout.value)

    @property
    def script_pubkey(self) -> bytes:
        return bytes(self.txout.script_pubkey.data)

    @property
    def outpoint(self) -> str:
        return f"{self.prev_tx.txid().hex()}:{self.vout}"

    def psbt_input(self, sequence: int = RBF_SEQUENCE) -> FixedInput:
        inp = FixedInput(vin=TransactionInput(self.prev_tx.txid(), self.vout, sequence=sequence))
        inp.witness_utxo = self.txout
        self.fill(inp)
        return inp


def true_coin(
    tag: str,
    spk: bytes,
    value: int,
    contents: OutpointContents = NOTHING,
    fill: Callable[[FixedInput], None] | None = None,
) -> TrueCoin:
    """A coin of a deterministic made-up previous transaction (same tag, same outpoint)."""
    src = TransactionInput(hashlib.sha256(b"guard fuzz coin " + tag.encode()).digest(), 0)
    prev = new_transaction(2, 0, [src], [TransactionOutput(value, Script(spk))])
    return TrueCoin(prev, 0, contents, fill or (lambda inp: None))


World = dict[str, TrueCoin]  # outpoint -> the truth about it


def taproot_key_fill(k: ec.PrivateKey) -> Callable[[FixedInput], None]:
    def fill(inp: FixedInput) -> None:
        inp.taproot_internal_key = ec.PublicKey.from_xonly(k.xonly())

    return fill


def spare_coins(p: Parties) -> dict[str, TrueCoin]:
    """Coins the honest PSBTs do not spend, which a hostile service may add as inputs."""
    taproot_payment = p.payment_spk[:1] == b"\x51"
    pay_fill = taproot_key_fill(p.payment) if taproot_payment else None
    ord_fill = taproot_key_fill(p.ordinals) if p.ordinals_spk[:1] == b"\x51" else None
    return {
        "spare payment coin": true_coin("pay", p.payment_spk, 40_000, fill=pay_fill),
        "inscribed payment coin": true_coin(
            "pay-inscribed",
            p.payment_spk,
            20_000,
            OutpointContents((InscriptionAt(STRAY_INSCRIPTION, 5_000),)),
            pay_fill,
        ),
        "spare ordinals coin": true_coin(
            "ord",
            p.ordinals_spk,
            546,
            OutpointContents((InscriptionAt(OTHER_INSCRIPTION, 0),)),
            ord_fill,
        ),
        "spare runes coin": true_coin(
            "runes",
            p.ordinals_spk,
            10_000,
            OutpointContents(runes=(RuneAmount(RUNE, 700),)),
            ord_fill,
        ),
        "spare bidding coin": true_coin("bid", p.bidding_spk, 30_000, fill=p.bidding_fill),
        "stranger coin": true_coin("stranger", p.stranger_spk, 50_000),
        "stranger inscribed coin": true_coin(
            "stranger-inscribed",
            p.stranger_spk,
            546,
            OutpointContents((InscriptionAt(FOREIGN_INSCRIPTION, 0),)),
        ),
        # Neither the chain nor ord knows this one (its facts are never served).
        "unknown coin": true_coin("unknown", p.stranger_spk, 25_000),
    }


# --- one flow's setup, and the case a list of mutations edits ---------------------------------


@dataclass(frozen=True)
class Setup:
    """The honest scenario of one flow with its world and the facts served with it."""

    name: str
    scenario: Scenario
    world: World
    context: ReviewContext
    spares: dict[str, TrueCoin]
    owners: dict[bytes, Role]  # scriptPubKey -> whose it really is (ours and the service's)
    tip: ChainTip = TIP
    attacker_spk: bytes = ATTACKER_SPK

    @property
    def parties(self) -> Parties:
        return self.scenario.parties

    @property
    def honest_bytes(self) -> bytes:
        data: bytes = self.scenario.psbt.serialize()
        return data

    def new_case(self, data: bytes | None = None) -> Case:
        return Case(self, self.honest_bytes if data is None else data, self.context, {})

    def spk_named(self, who: str) -> bytes:
        p = self.parties
        return {
            "payment": p.payment_spk,
            "ordinals": p.ordinals_spk,
            "bidding wallet": p.bidding_spk,
            "service fee": p.service_fee_spk,
            "escrow": p.service_escrow_spk,
            "stranger": p.stranger_spk,
            "attacker": self.attacker_spk,
            "OP_RETURN": b"\x6a\x04data",
            "runestone": b"\x6a\x5d\x03\x00\x01\x02",
            "non-standard": b"\x51",
        }[who]

    def honest_outpoint(self, i: int) -> str:
        coins = self.scenario.coins
        return coins[i % len(coins)].outpoint


def owners_of(p: Parties, extra_service: tuple[bytes, ...] = ()) -> dict[bytes, Role]:
    table = {spk: Role.SERVICE for spk in (p.service_fee_spk, p.service_escrow_spk, *extra_service)}
    table.update(
        {
            p.payment_spk: Role.PAYMENT,
            p.ordinals_spk: Role.ORDINALS,
            p.bidding_spk: Role.BIDDING_WALLET,
        }
    )
    return table


def serve_facts(context: ReviewContext, coins: dict[str, TrueCoin]) -> ReviewContext:
    """`context` plus the chain's and ord's (true) answers about `coins` but the unknown one."""
    known = {c.outpoint: c for name, c in coins.items() if name != "unknown coin"}
    return dataclasses.replace(
        context,
        chain_utxos={**context.chain_utxos, **{o: _known(c) for o, c in known.items()}},
        contents={**context.contents, **{o: c.contents for o, c in known.items()}},
    )


def _known(c: TrueCoin) -> KnownUtxo:
    return KnownUtxo(c.value, c.script_pubkey)


def scenario_world(scenario: Scenario) -> World:
    """The honest scenario's coins as they are: ord's honest answers are the truth."""
    return {
        c.outpoint: TrueCoin(
            c.prev_tx, c.vout, scenario.context.contents.get(c.outpoint, NOTHING), c.fill
        )
        for c in scenario.coins
    }


@contextmanager
def _coin_numbers(start: int) -> Iterator[None]:
    """psbt_scenarios numbers its made-up coins from one module-wide counter, so a scenario's
    txids (and vouts) depend on what ran before. Built from a fixed number instead, a flow's
    setup is the same in every run: a counterexample the bench prints replays in the test."""
    saved = psbt_scenarios._counter
    psbt_scenarios._counter = iter(range(start, start + 10_000))
    try:
        yield
    finally:
        psbt_scenarios._counter = saved


@cache
def flow_setup(name: str) -> Setup:
    """The setup of one of SCENARIOS' flows, built once and the same in every run."""
    with _coin_numbers(500_000 + 10_000 * sorted(SCENARIOS).index(name)):
        scenario = SCENARIOS[name]()
    spares = spare_coins(scenario.parties)
    world = {**scenario_world(scenario), **{c.outpoint: c for c in spares.values()}}
    context = serve_facts(scenario.context, spares)
    return Setup(name, scenario, world, context, spares, owners_of(scenario.parties))


@dataclass
class Case:
    """What a list of mutations edits: the served PSBT bytes, the served facts, and the
    truth about coins whose truth a mutation changed (`world_changes`, over setup.world)."""

    setup: Setup
    data: bytes
    context: ReviewContext
    world_changes: World
    skipped: list[str] = field(default_factory=list)

    @property
    def world(self) -> World:
        return {**self.setup.world, **self.world_changes}

    def named_outpoint(self, which: str) -> str:
        if which.startswith("input "):
            return self.setup.honest_outpoint(int(which.split()[1]))
        return self.setup.spares[which].outpoint

    def current_outpoint(self, index: int) -> str:
        """Outpoint of input `index` (modulo) of the current PSBT, or of the honest one."""
        try:
            psbt = FixedPSBT.parse(self.data)
            inp = psbt.inputs[index % len(psbt.inputs)]
            return f"{inp.txid.hex()}:{inp.vout}"
        except Exception:
            return self.setup.honest_outpoint(index)


def edit(case: Case, change: Callable[[FixedPSBT], object]) -> None:
    """Apply `change` to the case's PSBT parsed by embit; unparseable bytes stay as they are."""
    try:
        psbt = FixedPSBT.parse(case.data)
    except Exception:
        case.skipped.append("structured edit on bytes embit cannot parse")
        return
    try:
        change(psbt)
        case.data = psbt.serialize()
    except Exception as exc:  # embit's objects in a state it cannot handle: no edit
        case.skipped.append(f"structured edit failed: {type(exc).__name__}")


def item_at(items: list[Any], index: int) -> Any:
    """items[index modulo their number]; None when there are none."""
    return items[index % len(items)] if items else None


# --- the unsigned transaction ------------------------------------------------------------------

LOCKTIMES: dict[str, Callable[[ChainTip], int]] = {
    "0": lambda tip: 0,
    "tip-10": lambda tip: tip.height - 10,
    "tip": lambda tip: tip.height,
    "tip+1": lambda tip: tip.height + 1,
    "tip+2": lambda tip: tip.height + 2,
    "tip+1000": lambda tip: tip.height + 1_000,
    "499,999,999": lambda tip: 499_999_999,
    "mtp-1": lambda tip: tip.median_time - 1,
    "mtp": lambda tip: tip.median_time,
    "mtp+1": lambda tip: tip.median_time + 1,
    "max": lambda tip: 0xFFFFFFFF,
}
SEQUENCES = {
    "0": 0,
    "1 block": 1,
    "10 blocks": 10,
    "512 s": (1 << 22) | 1,
    "disabled|10": (1 << 31) | 10,
    "RBF": RBF_SEQUENCE,
    "final-1": 0xFFFFFFFE,
    "final": 0xFFFFFFFF,
}


@dataclass(frozen=True)
class TxVersion(Readable):
    version: int

    def __repr__(self) -> str:
        return f"tx.version={self.version}"

    def apply(self, case: Case) -> None:
        edit(case, lambda psbt: setattr(psbt, "tx_version", self.version))


@dataclass(frozen=True)
class Locktime(Readable):
    name: str

    def __repr__(self) -> str:
        return f"tx.locktime={self.name}"

    def apply(self, case: Case) -> None:
        value: int = LOCKTIMES[self.name](case.setup.tip)
        edit(case, lambda psbt: setattr(psbt, "locktime", value))


@dataclass(frozen=True)
class InputSequence(Readable):
    index: int
    name: str

    def __repr__(self) -> str:
        return f"input[{self.index}].sequence={self.name}"

    def apply(self, case: Case) -> None:
        def change(psbt: FixedPSBT) -> None:
            inp = item_at(psbt.inputs, self.index)
            if inp is not None:
                inp.sequence = SEQUENCES[self.name]

        edit(case, change)


@dataclass(frozen=True)
class Move(Readable):
    """Move input (or output) `src` to position `dst` (both modulo the count)."""

    what: str  # "input" or "output"
    src: int
    dst: int

    def __repr__(self) -> str:
        return f"move {self.what} {self.src} to {self.dst}"

    def apply(self, case: Case) -> None:
        def change(psbt: FixedPSBT) -> None:
            items = psbt.inputs if self.what == "input" else psbt.outputs
            if items:
                item = items.pop(self.src % len(items))
                items.insert(self.dst % (len(items) + 1), item)

        edit(case, change)


@dataclass(frozen=True)
class Drop(Readable):
    what: str
    index: int

    def __repr__(self) -> str:
        return f"drop {self.what} {self.index}"

    def apply(self, case: Case) -> None:
        def change(psbt: FixedPSBT) -> None:
            items = psbt.inputs if self.what == "input" else psbt.outputs
            if items:
                del items[self.index % len(items)]

        edit(case, change)


@dataclass(frozen=True)
class Duplicate(Readable):
    what: str
    index: int

    def __repr__(self) -> str:
        return f"duplicate {self.what} {self.index}"

    def apply(self, case: Case) -> None:
        def change(psbt: FixedPSBT) -> None:
            copy = FixedPSBT.parse(psbt.serialize())
            items, copies = (
                (psbt.inputs, copy.inputs) if self.what == "input" else (psbt.outputs, copy.outputs)
            )
            if items:
                items.append(copies[self.index % len(items)])

        edit(case, change)


@dataclass(frozen=True)
class AddInput(Readable):
    """Spend one of the spare coins (ours or a stranger's) at position `at`."""

    coin: str
    at: int

    def __repr__(self) -> str:
        return f"add input {self.coin!r} at {self.at}"

    def apply(self, case: Case) -> None:
        coin = case.setup.spares[self.coin]

        def change(psbt: FixedPSBT) -> None:
            psbt.inputs.insert(self.at % (len(psbt.inputs) + 1), coin.psbt_input())

        edit(case, change)


@dataclass(frozen=True)
class AddOutput(Readable):
    who: str
    value: int
    at: int

    def __repr__(self) -> str:
        return f"add output {self.value:,} sats to {self.who} at {self.at}"

    def apply(self, case: Case) -> None:
        spk = case.setup.spk_named(self.who)

        def change(psbt: FixedPSBT) -> None:
            out = FixedOutput(vout=TransactionOutput(self.value, Script(spk)))
            psbt.outputs.insert(self.at % (len(psbt.outputs) + 1), out)

        edit(case, change)


@dataclass(frozen=True)
class OutputValue(Readable):
    index: int
    delta: int

    def __repr__(self) -> str:
        return f"output[{self.index}].value{self.delta:+,}"

    def apply(self, case: Case) -> None:
        def change(psbt: FixedPSBT) -> None:
            out = item_at(psbt.outputs, self.index)
            if out is not None:
                out.value = max(0, out.value + self.delta)

        edit(case, change)


@dataclass(frozen=True)
class OutputScript(Readable):
    index: int
    who: str

    def __repr__(self) -> str:
        return f"output[{self.index}].script={self.who}"

    def apply(self, case: Case) -> None:
        spk = case.setup.spk_named(self.who)

        def change(psbt: FixedPSBT) -> None:
            out = item_at(psbt.outputs, self.index)
            if out is not None:
                out.script_pubkey = Script(spk)

        edit(case, change)


# --- input and output fields ---------------------------------------------------------------------


def _junk_sig(n: int, hash_type: int = 0x01) -> bytes:
    return b"\x30" + bytes([n - 3]) + b"\x02" * (n - 3) + bytes([hash_type])


def _stranger_pub() -> ec.PublicKey:
    return key(77).get_public_key()


def _our_pub(case: Case) -> ec.PublicKey:
    return case.setup.scenario.signer.get_public_key()


def _witness_utxo(change: Callable[[TransactionOutput], TransactionOutput]) -> Callable[..., None]:
    def apply(case: Case, inp: FixedInput) -> None:
        if inp.witness_utxo is not None:
            inp.witness_utxo = change(inp.witness_utxo)

    return apply


def _true_prev_tx(case: Case, inp: FixedInput) -> Transaction | None:
    coin = case.world.get(f"{inp.txid.hex()}:{inp.vout}")
    return None if coin is None else coin.prev_tx


def _forged_prev_tx(case: Case, inp: FixedInput) -> None:
    prev = _true_prev_tx(case, inp)
    if prev is not None:
        outs = [TransactionOutput(o.value + 1_000, o.script_pubkey) for o in prev.vout]
        inp.non_witness_utxo = new_transaction(prev.version, prev.locktime, prev.vin, outs)


def _other_prev_tx(case: Case, inp: FixedInput) -> None:
    inp.non_witness_utxo = case.setup.spares["spare payment coin"].prev_tx


def _set(attr: str, value: Callable[[Case, FixedInput], Any]) -> Callable[[Case, FixedInput], None]:
    def apply(case: Case, inp: FixedInput) -> None:
        setattr(inp, attr, value(case, inp))

    return apply


def _add_partial_sig(who: str) -> Callable[[Case, FixedInput], None]:
    def apply(case: Case, inp: FixedInput) -> None:
        pub = _our_pub(case) if who == "ours" else _stranger_pub()
        inp.partial_sigs[pub] = _junk_sig(71)

    return apply


def _add_bip32(case: Case, inp: FixedInput) -> None:
    inp.bip32_derivations[_our_pub(case)] = DerivationPath(b"\xde\xad\xbe\xef", [0x80000054, 7])


def _add_tap_script_sig(case: Case, inp: FixedInput) -> None:
    pub = ec.PublicKey.from_xonly(_our_pub(case).xonly())
    inp.taproot_sigs[(pub, b"\x11" * 32)] = b"\x42" * 64


def _add_leaf(kind: str) -> Callable[[Case, FixedInput], None]:
    def apply(case: Case, inp: FixedInput) -> None:
        internal = inp.taproot_internal_key
        cb = b"\xc0" + (internal.xonly() if internal is not None else b"\x02" * 32)
        script = (
            b"\x51" * 10_000 if kind == "bogus 10 kB" else checksig_leaf(_our_pub(case).xonly())
        )
        inp.taproot_scripts = {**inp.taproot_scripts, cb: script + b"\xc0"}

    return apply


def _set_unknown_in(case: Case, inp: FixedInput) -> None:
    set_unknown(inp, b"\xfc\x05bidwx\x07", b"junk")


INPUT_FIELDS: dict[str, Callable[[Case, FixedInput], None]] = {
    "witness_utxo=None": _set("witness_utxo", lambda case, inp: None),
    "witness_utxo.value+1,000": _witness_utxo(
        lambda o: TransactionOutput(o.value + 1_000, o.script_pubkey)
    ),
    "witness_utxo.value-1,000": _witness_utxo(
        lambda o: TransactionOutput(max(0, o.value - 1_000), o.script_pubkey)
    ),
    "witness_utxo.script=attacker": _witness_utxo(
        lambda o: TransactionOutput(o.value, Script(ATTACKER_SPK))
    ),
    "non_witness_utxo=None": _set("non_witness_utxo", lambda case, inp: None),
    "non_witness_utxo=true": _set("non_witness_utxo", _true_prev_tx),
    "non_witness_utxo=forged +1,000": _forged_prev_tx,
    "non_witness_utxo=another tx": _other_prev_tx,
    "partial_sig+=ours (junk)": _add_partial_sig("ours"),
    "partial_sig+=stranger's": _add_partial_sig("stranger"),
    "sighash_type=None": _set("sighash_type", lambda case, inp: None),
    "redeem_script=p2wpkh": _set("redeem_script", lambda case, inp: Script(p2wpkh_spk(key(1)))),
    "redeem_script=10 kB": _set("redeem_script", lambda case, inp: Script(b"\x51" * 10_000)),
    "witness_script=1-of-1": _set(
        "witness_script",
        lambda case, inp: Script(b"\x51\x21" + _our_pub(case).sec() + b"\x51\xae"),
    ),
    "bip32_derivation+=ours": _add_bip32,
    "final_scriptsig=push": _set("final_scriptsig", lambda case, inp: Script(b"\x01\x01")),
    "final_scriptwitness=sig": _set(
        "final_scriptwitness", lambda case, inp: Witness([b"\x42" * 64])
    ),
    "tap_key_sig=junk": _set("tap_key_sig", lambda case, inp: b"\x42" * 64),
    "tap_script_sig+=junk": _add_tap_script_sig,
    "tap_leaf+=bogus 10 kB": _add_leaf("bogus 10 kB"),
    "tap_leaf+=our checksig": _add_leaf("our checksig"),
    "tap_leaves=None": _set("taproot_scripts", lambda case, inp: {}),
    "tap_internal_key=ours": _set(
        "taproot_internal_key",
        lambda case, inp: ec.PublicKey.from_xonly(_our_pub(case).xonly()),
    ),
    "tap_internal_key=stranger": _set(
        "taproot_internal_key", lambda case, inp: ec.PublicKey.from_xonly(_stranger_pub().xonly())
    ),
    "tap_internal_key=None": _set("taproot_internal_key", lambda case, inp: None),
    "tap_merkle_root=random": _set("taproot_merkle_root", lambda case, inp: b"\x33" * 32),
    "unknown+=proprietary": _set_unknown_in,
}
SIGHASH_TYPES = (0x00, 0x01, 0x02, 0x03, 0x81, 0x82, 0x83, 0x41, 0x04)


@dataclass(frozen=True)
class InputField(Readable):
    index: int
    change: str

    def __repr__(self) -> str:
        return f"input[{self.index}].{self.change}"

    def apply(self, case: Case) -> None:
        def change(psbt: FixedPSBT) -> None:
            inp = item_at(psbt.inputs, self.index)
            if inp is not None:
                INPUT_FIELDS[self.change](case, inp)

        edit(case, change)


@dataclass(frozen=True)
class SighashType(Readable):
    index: int
    value: int

    def __repr__(self) -> str:
        return f"input[{self.index}].sighash_type=0x{self.value:02x}"

    def apply(self, case: Case) -> None:
        def change(psbt: FixedPSBT) -> None:
            inp = item_at(psbt.inputs, self.index)
            if inp is not None:
                inp.sighash_type = self.value

        edit(case, change)


def _out_set(attr: str, value: Callable[[Case], Any]) -> Callable[[Case, FixedOutput], None]:
    def apply(case: Case, out: FixedOutput) -> None:
        setattr(out, attr, value(case))

    return apply


def _out_bip32(case: Case, out: FixedOutput) -> None:
    out.bip32_derivations[_stranger_pub()] = DerivationPath(b"\x01\x02\x03\x04", [1, 2])


OUTPUT_FIELDS: dict[str, Callable[[Case, FixedOutput], None]] = {
    "redeem_script=p2wpkh": _out_set("redeem_script", lambda case: Script(p2wpkh_spk(key(1)))),
    "witness_script=OP_TRUE": _out_set("witness_script", lambda case: Script(b"\x51")),
    "tap_internal_key=ours": _out_set(
        "taproot_internal_key", lambda case: ec.PublicKey.from_xonly(_our_pub(case).xonly())
    ),
    "tap_internal_key=stranger": _out_set(
        "taproot_internal_key", lambda case: ec.PublicKey.from_xonly(_stranger_pub().xonly())
    ),
    "bip32_derivation+=stranger": _out_bip32,
    "unknown+=proprietary": lambda case, out: set_unknown(out, b"\xfc\x05bidwx\x08", b"junk"),
}


@dataclass(frozen=True)
class OutputField(Readable):
    index: int
    change: str

    def __repr__(self) -> str:
        return f"output[{self.index}].{self.change}"

    def apply(self, case: Case) -> None:
        def change(psbt: FixedPSBT) -> None:
            out = item_at(psbt.outputs, self.index)
            if out is not None:
                OUTPUT_FIELDS[self.change](case, out)

        edit(case, change)


@dataclass(frozen=True)
class GlobalXpub(Readable):
    """PSBT_GLOBAL_XPUB (BIP-174) through embit's object."""

    def __repr__(self) -> str:
        return "global xpub+=test xpub"

    def apply(self, case: Case) -> None:
        from embit import bip32

        root = bip32.HDKey.from_seed(hashlib.sha256(b"guard fuzz xpub").digest())

        def change(psbt: FixedPSBT) -> None:
            psbt.xpubs[root.to_public()] = DerivationPath(b"\x01\x02\x03\x04", [0x80000056])

        edit(case, change)


# --- served facts --------------------------------------------------------------------------------


CONTENTS: dict[str, Callable[[TrueCoin, str], OutpointContents]] = {
    "nothing": lambda coin, flow: NOTHING,
    "the flow's inscription at 0": lambda coin, flow: OutpointContents(
        (InscriptionAt(INSCRIPTION, 0),)
    ),
    "an inscription at its last sat": lambda coin, flow: OutpointContents(
        (InscriptionAt("e1" * 32 + "i0", coin.value - 1),)
    ),
    "a second inscription": lambda coin, flow: OutpointContents(
        (*coin.contents.inscriptions, InscriptionAt("e2" * 32 + "i0", coin.value // 2)),
        coin.contents.runes,
    ),
    "runes": lambda coin, flow: OutpointContents(
        coin.contents.inscriptions, (*coin.contents.runes, RuneAmount("OTHER•RUNE", 5))
    ),
}


@dataclass(frozen=True)
class OrdSays(Readable):
    """ord's answer about input `index`'s coin changes, and so does the truth (ord is the
    source of truth about contents: a changed answer is a different world)."""

    index: int
    contents: str

    def __repr__(self) -> str:
        return f"ord: input[{self.index}] carries {self.contents}"

    def apply(self, case: Case) -> None:
        outpoint = case.current_outpoint(self.index)
        coin = case.world.get(outpoint)
        if coin is None:
            case.skipped.append(f"no coin {outpoint} in the world")
            return
        contents = CONTENTS[self.contents](coin, case.setup.name)
        changed = {outpoint: contents}
        # An inscription is on one sat: moving it here takes it off any other coin.
        moved = {i.inscription_id for i in contents.inscriptions}
        for other, c in case.world.items():
            if other != outpoint and any(
                i.inscription_id in moved for i in c.contents.inscriptions
            ):
                kept = tuple(i for i in c.contents.inscriptions if i.inscription_id not in moved)
                changed[other] = OutpointContents(kept, c.contents.runes)
        served = dict(case.context.contents)
        for where, what in changed.items():
            case.world_changes[where] = dataclasses.replace(case.world[where], contents=what)
            if where in served:
                served[where] = what
        case.context = dataclasses.replace(case.context, contents=served)


@dataclass(frozen=True)
class Forget(Readable):
    """A served fact becomes unknown: ord's or the chain's answer about input `index`, the
    chain's tip, or the fee estimate."""

    what: str  # "ord", "chain", "tip", "fee estimate"
    index: int = 0

    def __repr__(self) -> str:
        if self.what in ("ord", "chain"):
            return f"{self.what}: input[{self.index}] unknown"
        return f"{self.what} unknown"

    def apply(self, case: Case) -> None:
        ctx = case.context
        if self.what == "tip":
            case.context = dataclasses.replace(ctx, tip=None)
        elif self.what == "fee estimate":
            case.context = dataclasses.replace(ctx, fastest_fee_rate=None)
        elif self.what == "ord":
            outpoint = case.current_outpoint(self.index)
            contents = {k: v for k, v in ctx.contents.items() if k != outpoint}
            case.context = dataclasses.replace(ctx, contents=contents)
        else:
            outpoint = case.current_outpoint(self.index)
            chain = {k: v for k, v in ctx.chain_utxos.items() if k != outpoint}
            case.context = dataclasses.replace(ctx, chain_utxos=chain)


@dataclass(frozen=True)
class ChainLies(Readable):
    """The chain source reports another amount for input `index`'s coin (served only: the
    truth does not change)."""

    index: int
    delta: int

    def __repr__(self) -> str:
        return f"chain lies: input[{self.index}] holds {self.delta:+,} sats"

    def apply(self, case: Case) -> None:
        outpoint = case.current_outpoint(self.index)
        known = case.context.chain_utxos.get(outpoint)
        if known is None:
            return
        lie = dataclasses.replace(known, value=max(0, known.value + self.delta))
        table = {**case.context.chain_utxos, outpoint: lie}
        case.context = dataclasses.replace(case.context, chain_utxos=table)


# --- strategies ----------------------------------------------------------------------------------

Op = Any  # any of the operation classes above or in psbt_mut_raw: .apply(case), readable repr

small_index = st.integers(min_value=0, max_value=5)
WHO = (
    "attacker",
    "payment",
    "ordinals",
    "bidding wallet",
    "service fee",
    "escrow",
    "stranger",
    "OP_RETURN",
    "runestone",
    "non-standard",
)
DELTAS = (
    -1,
    1,
    -546,
    546,
    -1_000,
    1_000,
    -2_000,
    2_000,
    -5_000,
    5_000,
    -8_000,
    -25_000,
    25_000,
    -100_000,
)


def tx_ops() -> st.SearchStrategy[Op]:
    what = st.sampled_from(("input", "output"))
    return st.one_of(
        st.builds(OutputValue, small_index, st.sampled_from(DELTAS)),
        st.builds(OutputScript, small_index, st.sampled_from(WHO)),
        st.builds(Locktime, st.sampled_from(sorted(LOCKTIMES))),
        st.builds(InputSequence, small_index, st.sampled_from(sorted(SEQUENCES))),
        st.builds(TxVersion, st.sampled_from((1, 0, 3, 0x7FFFFFFF, 0xFFFFFFFF))),
        st.builds(Move, what, small_index, small_index),
        st.builds(Drop, what, small_index),
        st.builds(Duplicate, what, small_index),
        st.builds(AddInput, st.sampled_from(SPARE_NAMES), small_index),
        st.builds(
            AddOutput, st.sampled_from(WHO), st.sampled_from((330, 546, 1_000, 25_000)), small_index
        ),
    )


SPARE_NAMES = (
    "spare payment coin",
    "inscribed payment coin",
    "spare ordinals coin",
    "spare runes coin",
    "spare bidding coin",
    "stranger coin",
    "stranger inscribed coin",
    "unknown coin",
)


def field_ops() -> st.SearchStrategy[Op]:
    return st.one_of(
        st.builds(InputField, small_index, st.sampled_from(sorted(INPUT_FIELDS))),
        st.builds(SighashType, small_index, st.sampled_from(SIGHASH_TYPES)),
        st.builds(OutputField, small_index, st.sampled_from(sorted(OUTPUT_FIELDS))),
        st.just(GlobalXpub()),
    )


def fact_ops() -> st.SearchStrategy[Op]:
    return st.one_of(
        st.builds(Forget, st.sampled_from(("ord", "chain")), small_index),
        st.builds(Forget, st.sampled_from(("tip", "fee estimate"))),
        st.builds(OrdSays, small_index, st.sampled_from(sorted(CONTENTS))),
        st.builds(ChainLies, small_index, st.sampled_from((-1_000, 1_000, -100))),
    )


def raw_ops() -> st.SearchStrategy[Op]:
    def put(scope: raw.Scope) -> st.SearchStrategy[Op]:
        fields = raw.FIELDS[scope]
        return st.sampled_from(sorted(fields)).flatmap(
            lambda name: st.builds(
                raw.RawPut,
                st.just(scope),
                small_index,
                st.just(name),
                st.sampled_from(fields[name][1]),
            )
        )

    scope = st.sampled_from(("global", "input", "output"))
    return st.one_of(
        put("global"),
        put("input"),
        put("output"),
        st.just(raw.ToPsbtV2()),
        st.builds(raw.RawDuplicate, scope, small_index, st.integers(0, 9), st.booleans()),
        st.builds(raw.RawDrop, scope, small_index, st.integers(0, 9)),
        st.builds(raw.RawTruncate, st.sampled_from((1, 5, -1, -3))),
    )


def psbt_ops() -> st.SearchStrategy[Op]:
    """Every operation on the PSBT itself (no served facts): what a channel could do too."""
    return st.one_of(tx_ops(), field_ops(), raw_ops())


def mutation_lists(with_facts: bool = True) -> st.SearchStrategy[list[Op]]:
    """1 to 3 operations, applied in order to a copy of an honest PSBT and its facts."""
    one = st.one_of(psbt_ops(), fact_ops()) if with_facts else psbt_ops()
    return st.lists(one, min_size=1, max_size=3)


def apply_all(case: Case, ops: list[Op]) -> Case:
    for op in ops:
        op.apply(case)
    return case
