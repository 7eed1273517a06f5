-- 007: Punto Banco's tables are stored under the game's one name in the code,
-- 'punto_banco' (they were stored as 'baccarat'); bot/games.py lists the names.
UPDATE game_tables SET game = 'punto_banco' WHERE game = 'baccarat';
