"""The read path: candidates, fusion, quality and recency weighting, packing, formatting."""
