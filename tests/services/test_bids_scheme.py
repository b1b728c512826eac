"""Which message signature scheme a bid uses, by payment address type (pure)."""

from __future__ import annotations

import pytest

from app.services.bids import scheme_for
from app.services.errors import ServiceError
from app.wallet.addresses import AddressType
from app.wallet.message import MessageScheme


def test_scheme_is_chosen_by_address_type() -> None:
    assert scheme_for(AddressType.P2WPKH, None) is MessageScheme.BIP322_SIMPLE
    assert scheme_for(AddressType.P2TR, None) is MessageScheme.BIP322_SIMPLE
    assert scheme_for(AddressType.P2PKH, None) is MessageScheme.BIP137
    assert scheme_for(AddressType.P2SH_P2WPKH, MessageScheme.BIP137) is MessageScheme.BIP137
    with pytest.raises(ServiceError, match="Taproot"):
        scheme_for(AddressType.P2TR, MessageScheme.BIP137)
