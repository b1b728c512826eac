"""Stores several tabs share (the wallet state: balance, pools, open bids)."""
