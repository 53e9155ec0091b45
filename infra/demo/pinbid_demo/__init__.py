"""The demo world of the embedded default (`plan`): who lives in it and what has happened to each pin slot.
Each service's own `demo.py` reads the plan and does its part; the runtime kit knows nothing of it."""
