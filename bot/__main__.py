"""``python -m bot`` runs the bot; ``python -m bot audit`` checks the chip ledger."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "audit":
        from bot.audit import main as audit_main

        return audit_main(args[1:])
    if args and args[0] in ("-h", "--help"):
        print("usage: python -m bot          run the bot (settings from .env / environment)")
        print("       python -m bot audit    check the chip ledger; exit 1 on any discrepancy")
        return 0
    return asyncio.run(run())


async def run() -> int:
    from pydantic import ValidationError

    from bot.settings import Settings

    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"error: bad setting: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print(
            "error: no DISCORD_TOKEN. Copy .env.example to .env and put your bot's token in "
            "DISCORD_TOKEN (Discord Developer Portal -> your application -> Bot -> Reset Token).",
            file=sys.stderr,
        )
        return 2

    from bot.app import make_bot
    from bot.database import describe, open_store
    from bot.endpoints import configure_endpoints
    from bot.leases import ShardsTaken, hold_shard_leases
    from bot.storage import StorageError

    configure_endpoints(settings.discord_api_base, settings.discord_gateway_url)
    try:
        store = await open_store(settings)
    except StorageError as exc:
        print(f"error: cannot open the database {describe(settings)}: {exc}", file=sys.stderr)
        return 2
    bot = make_bot(settings, store)
    try:
        async with hold_shard_leases(store, settings, on_lost=bot.close) as leases, bot:
            await bot.start(settings.discord_token.get_secret_value())
    except ShardsTaken as exc:
        print(
            f"error: another bot process is running these shards ({exc}). Give each process "
            "its own SHARD_IDS (see README, Several processes).",
            file=sys.stderr,
        )
        return 3
    finally:
        await store.close()
    return 3 if leases is not None and leases.lost else 0


if __name__ == "__main__":
    sys.exit(main())
