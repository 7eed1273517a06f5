-- 005: one lease row per Discord shard, so no two bot processes run the same shard
-- (bot/storage/leases.py). A process holds a shard while expires_at is in the future and
-- renews it periodically; a dead process's lease simply runs out.

CREATE TABLE shard_leases (
    shard_id     INTEGER NOT NULL PRIMARY KEY CHECK (shard_id >= 0),
    shard_count  INTEGER NOT NULL CHECK (shard_count > shard_id),
    owner        TEXT    NOT NULL,
    acquired_at  TEXT    NOT NULL,
    expires_at   TEXT    NOT NULL
);
