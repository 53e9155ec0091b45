"""pinbid: start Pinbid.

  python -m pinbid_launcher embedded [--host H] [--port P] [--no-seed] [--no-demo-bidding]
  python -m pinbid_launcher service NAME      (distributed: one service, configured by environment)
  python -m pinbid_launcher gateway           (distributed: the gateway)
  python -m pinbid_launcher migrate NAME      (run a service's migrations and exit)
  python -m pinbid_launcher dlq list|replay NAME  (a service's dead-letter queue on RabbitMQ)
  python -m pinbid_launcher replay-outbox PRODUCER --to CONSUMER [--days N]  (events a consumer missed)
  python -m pinbid_launcher up | down | status  (the distributed run on this machine)
"""

from pinbid_launcher import collector

collector.hold_off()  # before the imports below and those of the command (collector.py)

import argparse  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(prog="pinbid", description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    embedded = sub.add_parser("embedded")
    embedded.add_argument("--host", default="127.0.0.1")
    embedded.add_argument("--port", type=int, default=8000)
    embedded.add_argument("--no-seed", action="store_true")
    embedded.add_argument("--no-demo-bidding", action="store_true", help="no demo brands bidding in the background")
    service = sub.add_parser("service")
    service.add_argument("name")
    sub.add_parser("gateway")
    migrate = sub.add_parser("migrate")
    migrate.add_argument("name")
    dlq = sub.add_parser("dlq")
    dlq.add_argument("action", choices=["list", "replay"])
    dlq.add_argument("name")
    replay_outbox = sub.add_parser("replay-outbox")
    replay_outbox.add_argument("producer")
    replay_outbox.add_argument("--to", required=True, dest="consumer")
    replay_outbox.add_argument("--days", type=float)
    sub.add_parser("up")
    sub.add_parser("down")
    sub.add_parser("status")
    args = parser.parse_args()

    if args.command == "embedded":
        from .embedded import main as run_embedded

        run_embedded(args.host, args.port, not args.no_seed, not args.no_seed and not args.no_demo_bidding)
    elif args.command == "service":
        from . import configuration

        settings = configuration.service(args.name)
        from .standalone import serve_service

        serve_service(args.name, settings)
    elif args.command == "gateway":
        from . import configuration

        settings = configuration.gateway()
        from .standalone import serve_gateway

        serve_gateway(settings)
    elif args.command == "migrate":
        from .migrate import migrate

        collector.started()
        migrate(args.name)
    elif args.command == "replay-outbox":
        from .replay import replay

        collector.started()
        replay(args.producer, args.consumer, args.days)
    elif args.command == "dlq":
        from .dead_letters import dead_letters

        collector.started()
        dead_letters(args.action, args.name)
    else:
        from . import local

        collector.started()
        getattr(local, args.command)()


if __name__ == "__main__":
    main()
