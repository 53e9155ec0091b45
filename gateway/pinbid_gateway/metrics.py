"""The gateway's own Prometheus metrics (the kit's request metrics cover every request)."""

from prometheus_client import Gauge

OPEN_STREAMS = Gauge("pinbid_live_streams", "Live streams open in this gateway process.")
