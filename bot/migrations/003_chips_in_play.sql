-- 003: "chips in play at one table per server", enforced by the database.
--
-- One row per member who has chips in play at an open table (seated at a Pontoon table,
-- or with bets on a Punto Banco coup). The primary key (guild_id, user_id) makes a
-- second table for the same member in the same server impossible: the write that would
-- seat or bet them elsewhere fails inside its own transaction and changes nothing.
-- Rows are written in the same transaction as the table's snapshot and removed when the
-- seat leaves, the bets are withdrawn or settled, or the table closes.

CREATE TABLE chips_in_play (
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    table_id  TEXT    NOT NULL REFERENCES game_tables (id),
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX chips_in_play_table ON chips_in_play (table_id);

-- Tables already open when this migration runs: their seated members and bettors.
INSERT OR IGNORE INTO chips_in_play (guild_id, user_id, table_id)
SELECT t.guild_id, CAST(s.value AS INTEGER), t.id
FROM game_tables t, json_each(t.state_json, '$.engine.seats') s
WHERE t.status = 'open' AND t.game = 'pontoon' AND json_valid(t.state_json)
  AND s.value GLOB '[0-9]*' AND NOT s.value GLOB '*[^0-9]*'
ORDER BY t.created_at;
INSERT OR IGNORE INTO chips_in_play (guild_id, user_id, table_id)
SELECT t.guild_id, CAST(json_extract(b.value, '$.bettor') AS INTEGER), t.id
FROM game_tables t, json_each(t.state_json, '$.engine.bets') b
WHERE t.status = 'open' AND t.game = 'baccarat' AND json_valid(t.state_json)
ORDER BY t.created_at;
