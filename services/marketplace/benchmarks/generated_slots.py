"""The columns of a benchmark's generated market (listing.py, ask_latency.py): each follows it with its own
`SELECT ... FROM generate_series(...)`, in this order."""

INSERT_SLOTS = """
INSERT INTO slots (id, creator_id, post_id, title, description, category, min_bid, current_bid, auction_end,
                   duration_days, status, bid_count, creator_name, creator_handle, followers, avg_views,
                   avg_engagement, verified, media_type, media_url, permalink, created_at, updated_at, is_demo,
                   creator_placements, creator_kept_pct, creator_response_minutes, meaning, word_meaning,
                   sentence_meaning)"""
