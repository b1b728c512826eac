"""Pure domain rules of the marketplace spec: limits, bid requests, the signed bid message,
bid pools. No Qt, no I/O: shared by the app (pre-flight checks) and the sandbox (enforcement).
"""
