-- 005 (PostgreSQL): one lease row per Discord shard, as ../005_shard_leases.sql.

CREATE TABLE shard_leases (
    shard_id     INTEGER NOT NULL PRIMARY KEY CHECK (shard_id >= 0),
    shard_count  INTEGER NOT NULL CHECK (shard_count > shard_id),
    owner        TEXT    NOT NULL,
    acquired_at  TEXT    NOT NULL,
    expires_at   TEXT    NOT NULL
);
