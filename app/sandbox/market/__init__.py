"""The sandbox marketplace: bidding wallets, collection/trait/rune bids, cancel, withdraw, fills
(and, built on the same `Market`, single-inscription bids and secure listings)."""
