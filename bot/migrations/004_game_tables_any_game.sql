-- 004: game_tables loses its CHECK (game IN ('pontoon', 'baccarat')), so adding a game
-- needs no table rebuild (the Store checks the name against bot.storage.models.GAMES).
-- SQLite cannot drop a CHECK in place: the table is rebuilt the documented way, with
-- foreign-key enforcement off for this migration (the marker line below) and
-- PRAGMA foreign_key_check run before it commits.
-- pragma: foreign_keys=off

CREATE TABLE game_tables_new (
    id          TEXT    PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    game        TEXT    NOT NULL CHECK (length(game) BETWEEN 1 AND 32),
    status      TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    version     INTEGER NOT NULL,
    state_json  TEXT    NOT NULL,
    message_id  INTEGER,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    closed_at   TEXT
);
INSERT INTO game_tables_new (id, guild_id, channel_id, game, status, version, state_json,
                             message_id, created_at, updated_at, closed_at)
SELECT id, guild_id, channel_id, game, status, version, state_json,
       message_id, created_at, updated_at, closed_at
FROM game_tables;
DROP TABLE game_tables;
ALTER TABLE game_tables_new RENAME TO game_tables;
CREATE UNIQUE INDEX game_tables_open_channel ON game_tables (channel_id) WHERE status = 'open';
CREATE INDEX game_tables_status ON game_tables (status);
