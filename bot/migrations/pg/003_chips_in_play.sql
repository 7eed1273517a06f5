-- 003 (PostgreSQL): "chips in play at one table per server", enforced by the database,
-- as ../003_chips_in_play.sql: one row per member with chips in play at an open table;
-- the primary key (guild_id, user_id) makes a second table for the same member in the
-- same server impossible, whichever process tries it.

CREATE TABLE chips_in_play (
    guild_id  BIGINT NOT NULL,
    user_id   BIGINT NOT NULL,
    table_id  TEXT   NOT NULL REFERENCES game_tables (id),
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX chips_in_play_table ON chips_in_play (table_id);

-- Tables already open when this migration runs: their seated members and bettors.
INSERT INTO chips_in_play (guild_id, user_id, table_id)
SELECT t.guild_id, s.seat::BIGINT, t.id
FROM game_tables t,
     jsonb_array_elements_text(t.state_json::jsonb -> 'engine' -> 'seats') AS s(seat)
WHERE t.status = 'open' AND t.game = 'pontoon' AND s.seat ~ '^[0-9]+$'
ORDER BY t.created_at
ON CONFLICT DO NOTHING;
INSERT INTO chips_in_play (guild_id, user_id, table_id)
SELECT t.guild_id, (b.bet ->> 'bettor')::BIGINT, t.id
FROM game_tables t,
     jsonb_array_elements(t.state_json::jsonb -> 'engine' -> 'bets') AS b(bet)
WHERE t.status = 'open' AND t.game = 'baccarat' AND (b.bet ->> 'bettor') ~ '^[0-9]+$'
ORDER BY t.created_at
ON CONFLICT DO NOTHING;
