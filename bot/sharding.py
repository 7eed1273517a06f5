"""Which guilds this process serves when the bot is sharded.

Discord puts each guild on shard ``(guild_id >> 22) % shard_count`` and sends its events
(interactions included) only over that shard's gateway connection. A process running some
of the shards therefore owns exactly those guilds: it alone loads their open tables, runs
their timers and redraws their table messages (``ShardPlan.owns``). Which process runs
which shard is settled through the shard leases in the database (``bot.leases``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.settings import Settings


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard a guild lives on (Discord's formula)."""
    if shard_count < 1:
        raise ValueError("shard_count must be at least 1")
    return (int(guild_id) >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class ShardPlan:
    """The shards of this process: ``count`` in all, of which it runs ``ids``."""

    count: int
    ids: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("shard count must be at least 1")
        if not self.ids or any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(f"shard ids {self.ids} outside 0..{self.count - 1}")

    @classmethod
    def from_settings(cls, settings: Settings) -> ShardPlan:
        return cls(settings.shard_count or 1, settings.own_shards)

    @property
    def everything(self) -> bool:
        """True when this process runs every shard (the single-process case)."""
        return len(self.ids) == self.count

    def owns(self, guild_id: int) -> bool:
        """True when the guild's events come to this process."""
        return self.everything or shard_of(guild_id, self.count) in self.ids


ALL_GUILDS = ShardPlan(1, (0,))
