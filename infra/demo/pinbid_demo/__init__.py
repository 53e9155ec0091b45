"""The demo world of the embedded default, owned by the launcher: who lives in it and what has happened to each
pin slot (`plan`), and how it is seeded into the running services (`world`), each service's part through that
service's own use cases (`identity`, `social`, `marketplace`, `payments`, and marketplace's background bidders in
`bidding`). No service imports this package; the runtime kit knows nothing of it."""
