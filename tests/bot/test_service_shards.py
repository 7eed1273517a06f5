"""A sharded process reloads only the tables of guilds on its own shards: their timers
and table redraws live in the one process Discord sends those guilds' events to."""

from __future__ import annotations

from pathlib import Path

from bot.pontoon import PontoonService
from bot.punto_banco import PuntoBancoService
from bot.sharding import ShardPlan
from bot.storage import Store
from engine.pontoon import PontoonRules
from engine.punto_banco import PuntoBancoRules

GUILD_ON_0 = 10 << 22  # (10 << 22 >> 22) % 2 == 0
GUILD_ON_1 = 11 << 22


async def test_each_process_loads_only_its_shards_tables(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        pontoon, baccarat = PontoonService(store), PuntoBancoService(store, run_timers=False)
        for n, guild in enumerate((GUILD_ON_0, GUILD_ON_1)):
            await pontoon.open_table(guild, 100 + n, 7, PontoonRules())
            await baccarat.open_table(guild, 200 + n, 8, PuntoBancoRules())
        await pontoon.shutdown()
        await baccarat.shutdown()

        for shard, guild in ((0, GUILD_ON_0), (1, GUILD_ON_1)):
            plan = ShardPlan(2, (shard,))
            p = PontoonService(store, owns_guild=plan.owns)
            b = PuntoBancoService(store, run_timers=False, owns_guild=plan.owns)
            loaded_p, loaded_b = await p.load(), await b.load()
            assert [t.guild_id for t in loaded_p] == [guild]
            assert [t.guild_id for t in loaded_b] == [guild]
            await p.shutdown()
            await b.shutdown()

        every = PontoonService(store)
        assert sorted(t.guild_id for t in await every.load()) == [GUILD_ON_0, GUILD_ON_1]
        await every.shutdown()
    finally:
        await store.close()
