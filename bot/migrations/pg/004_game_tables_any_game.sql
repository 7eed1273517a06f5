-- 004 (PostgreSQL): game_tables loses its CHECK (game IN ('pontoon', 'baccarat')), as
-- ../004_game_tables_any_game.sql (PostgreSQL drops a CHECK in place; no rebuild).

ALTER TABLE game_tables DROP CONSTRAINT game_tables_game_check;
ALTER TABLE game_tables ADD CONSTRAINT game_tables_game_check
    CHECK (length(game) BETWEEN 1 AND 32);
