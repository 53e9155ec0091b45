"""The marketplace's pure rules: slots, bids, the second-price proxy auction (no framework imports)."""
