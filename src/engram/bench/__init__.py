"""Benchmarks: LoCoMo, BEAM and LongMemEval retrieval harnesses and the scale run."""
