"""Audits of real implementations against the mathematics: conformance, inference, precision."""
